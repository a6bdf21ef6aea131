"""Real Hermes for tests: sessions whose messages hold list content (Hermes stores it as "\\0json:..."), written by
Hermes' own SessionDB with its Python's SQLite (whose trigram tokenizer may stop at the NUL). One answer line per command:
  build STATE_DB NOW     -> "s1" (ended, untitled, 3 list messages) and "keep" (titled, same) ten days before NOW
  check STATE_DB         -> "ok" or what FTS5's integrity-check of each search table says
  delete STATE_DB ID     -> Hermes deletes the session: "ok", "absent" or the error
  image STATE_DB ID      -> Hermes appends one more list message to the session: "ok" or the error"""
import os, sys
sys.path.insert(0, os.environ["HERMES_SRC"])
from pathlib import Path
from hermes_state import SessionDB

def parts(i):
    return [{"type": "text", "text": f"look at this picture {i}"}, {"type": "image_url", "image_url": {"url": "data:x"}}]

def build(db_path, now):
    db = SessionDB(db_path=Path(db_path))
    try:
        old = now - 86400 * 10
        for sid, title in (("s1", None), ("keep", "kept chat about images")):
            db.create_session(sid, "cli")
            for i in range(3):
                db.append_message(sid, "user", parts(i), timestamp=old + i)
                db.append_message(sid, "assistant", f"a plain answer about the picture {i}", timestamp=old + i)
            db.end_session(sid, "user_exit")
            if title:
                db.set_session_title(sid, title)
            db._conn.execute("UPDATE sessions SET started_at = ?, ended_at = ? WHERE id = ?", (old, old + 10, sid))
            db._conn.commit()
        return "ok"
    finally:
        db.close()

def check(db_path):
    db = SessionDB(db_path=Path(db_path))
    try:
        bad = []
        for t in ("messages_fts", "messages_fts_trigram"):
            try:
                db._conn.execute(f"INSERT INTO {t}({t}) VALUES('integrity-check')")
            except Exception as e:  # noqa: BLE001 - report what Hermes' SQLite says
                bad.append(f"{t}: {e}")
        return "ok" if not bad else "; ".join(bad)
    finally:
        db.close()

def delete(db_path, sid):
    db = SessionDB(db_path=Path(db_path))
    try:
        return "ok" if db.delete_session(sid) else "absent"
    finally:
        db.close()

def image(db_path, sid):
    db = SessionDB(db_path=Path(db_path))
    try:
        db.append_message(sid, "user", parts(9))
        return "ok"
    finally:
        db.close()

for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    try:
        if w[0] == "build":
            out = build(w[1], float(w[2]))
        elif w[0] == "check":
            out = check(w[1])
        elif w[0] == "delete":
            out = delete(w[1], w[2])
        elif w[0] == "image":
            out = image(w[1], w[2])
        else:
            out = "unknown command " + w[0]
    except Exception as e:  # noqa: BLE001
        out = "error " + type(e).__name__ + ": " + str(e).replace("\n", " ")
    print(out, flush=True)
