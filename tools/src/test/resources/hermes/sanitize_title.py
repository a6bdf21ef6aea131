"""Hermes' own title sanitizer (hermes_state.SessionDB.sanitize_title), one title per line.
Reads JSON strings, one per line; answers each with the JSON of the title Hermes stores (null: none, "ERR": refused)."""
import json, os, sys
sys.path.insert(0, os.environ["HERMES_SRC"])
from hermes_state import SessionDB

for line in sys.stdin:
    try:
        out = SessionDB.sanitize_title(json.loads(line))
    except ValueError:
        out = "ERR"
    print(json.dumps(out), flush=True)
