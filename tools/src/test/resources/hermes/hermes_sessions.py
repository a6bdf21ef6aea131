"""Real Hermes for tests: a line-driven loop around Hermes' own SessionDB (its Python's SQLite, which may be older
than Steward's). Each command line gets one answer line; each command opens SessionDB afresh, as a new Hermes process
would:
  append STATE_DB COUNT SEED BASE_TS  -> appends COUNT messages to the active sessions (timestamps from BASE_TS on),
                                         then runs FTS5's integrity-check on both search tables; "ok" or what failed
  build STATE_DB NOW   -> "s1" (ended, untitled) and "keep" (titled), each with 3 list-content messages (Hermes stores
                          them as "\\0json:...") ten days before NOW
  check STATE_DB       -> "ok" or what FTS5's integrity-check of each search table says
  delete STATE_DB ID   -> Hermes deletes the session: "ok", "absent" or the error
  image STATE_DB ID    -> Hermes appends one more list-content message to the session"""
import os, random, sys
sys.path.insert(0, os.environ["HERMES_SRC"])
from pathlib import Path
from hermes_state import SessionDB

WORDS = ["alpha", "beta", "gamma", "会话", "driver", "install", "部署"]


def integrity(db):
    bad = []
    for t in ("messages_fts", "messages_fts_trigram"):
        try:
            db._conn.execute(f"INSERT INTO {t}({t}) VALUES('integrity-check')")
        except Exception as e:  # noqa: BLE001 - report what Hermes' SQLite says
            bad.append(f"{t}: {e}")
    return "ok" if not bad else "; ".join(bad)


def opened(db_path, work):
    db = SessionDB(db_path=Path(db_path))
    try:
        return work(db)
    finally:
        db.close()


def append(db, count, seed, base):
    rng = random.Random(seed)
    active = [r[0] for r in db._conn.execute("SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY id")]
    for i in range(count if active else 0):
        db.append_message(rng.choice(active), "user", f"hermes append {seed} {i} " + " ".join(rng.choice(WORDS) for _ in range(4)),
                          timestamp=base + i)
    return integrity(db)


def parts(i):
    return [{"type": "text", "text": f"look at this picture {i}"}, {"type": "image_url", "image_url": {"url": "data:x"}}]


def build(db, now):
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


def image(db, sid):
    db.append_message(sid, "user", parts(9))
    return "ok"


COMMANDS = {
    "append": lambda w: opened(w[1], lambda db: append(db, int(w[2]), int(w[3]), float(w[4]))),
    "build": lambda w: opened(w[1], lambda db: build(db, float(w[2]))),
    "check": lambda w: opened(w[1], integrity),
    "delete": lambda w: opened(w[1], lambda db: "ok" if db.delete_session(w[2]) else "absent"),
    "image": lambda w: opened(w[1], lambda db: image(db, w[2])),
}

for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    try:
        out = COMMANDS[w[0]](w) if w[0] in COMMANDS else "unknown command " + w[0]
    except Exception as e:  # noqa: BLE001
        out = "error " + repr(e)[:300]
    print(out, flush=True)
