"""The memory limits Hermes takes from a config.yaml: yaml.safe_load, then int() of each value, exactly in the order of
tools/memory_tool.load_on_disk_store (a value int() refuses leaves both limits at their defaults).
Usage: python3 config_limits.py CONFIG_YAML -> prints "MEMORY_LIMIT USER_LIMIT"."""
import sys
import yaml

memory_char_limit, user_char_limit = 2200, 1375
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        mem_cfg = (yaml.safe_load(f) or {}).get("memory", {}) or {}
    memory_char_limit = int(mem_cfg.get("memory_char_limit", memory_char_limit))
    user_char_limit = int(mem_cfg.get("user_char_limit", user_char_limit))
except Exception:  # noqa: BLE001 - Hermes falls back to its defaults
    pass
print(memory_char_limit, user_char_limit)
