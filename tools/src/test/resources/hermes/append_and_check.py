"""Real Hermes for tests: a line-driven loop around Hermes' own SessionDB (its Python's SQLite, which may be older
than Steward's). Each command line gets one answer line:
  append STATE_DB COUNT SEED BASE_TS  -> appends COUNT messages to the active sessions (timestamps from BASE_TS on),
                                         then runs FTS5's integrity-check on both search tables; "ok" or what failed
Each command opens SessionDB afresh, as a new Hermes process would."""
import os, random, sys
sys.path.insert(0, os.environ["HERMES_SRC"])
from pathlib import Path
from hermes_state import SessionDB

WORDS = ["alpha", "beta", "gamma", "会话", "driver", "install", "部署"]

def append(db_path, count, seed, base):
    db = SessionDB(db_path=Path(db_path))
    try:
        rng = random.Random(seed)
        active = [r[0] for r in db._conn.execute("SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY id")]
        for i in range(count if active else 0):
            db.append_message(rng.choice(active), "user", f"hermes append {seed} {i} " + " ".join(rng.choice(WORDS) for _ in range(4)),
                              timestamp=base + i)
        bad = []
        for t in ("messages_fts", "messages_fts_trigram"):
            try:
                db._conn.execute(f"INSERT INTO {t}({t}) VALUES('integrity-check')")
            except Exception as e:  # noqa: BLE001 - report what Hermes' SQLite says
                bad.append(f"{t}: {e}")
        return "ok" if not bad else "; ".join(bad)
    finally:
        db.close()

for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    try:
        if parts[0] == "append":
            out = append(parts[1], int(parts[2]), int(parts[3]), float(parts[4]))
        else:
            out = "unknown command " + parts[0]
    except Exception as e:  # noqa: BLE001
        out = "error " + repr(e)[:300]
    print(out, flush=True)
