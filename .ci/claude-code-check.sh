#!/usr/bin/env bash
# Registration as README describes it, with the real Claude Code CLI (@anthropic-ai/claude-code, pinned) in a temporary
# HOME: `claude mcp add` (user scope) and the repository's mcp.json copied to a project's .mcp.json, then `claude mcp list`
# must show Steward connected both ways. Needs the network for npm on its first run (installs into .ci/.claude-code/,
# git-ignored), so it is not part of .ci/run. Builds and warms the jar first, as README tells users to.
# Exits non-zero when Steward does not connect.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PKG="@anthropic-ai/claude-code@2.1.332"
DIR="$ROOT/.ci/.claude-code"
CLAUDE="$DIR/node_modules/.bin/claude"

command -v npm >/dev/null || { echo "claude-code-check: npm not on PATH" >&2; exit 2; }
if [ ! -x "$CLAUDE" ] || ! "$CLAUDE" --version 2>/dev/null | grep -q "^${PKG##*@} "; then
  echo "claude-code-check: installing $PKG into $DIR" >&2
  mkdir -p "$DIR"
  [ -f "$DIR/package.json" ] || echo '{ "name": "steward-claude-code-check", "private": true }' > "$DIR/package.json"
  (cd "$DIR" && npm install --no-audit --no-fund --save-exact "$PKG" >&2)
fi
"$CLAUDE" --version >&2

# Build once before registering (README): a first start that builds inside the client's startup would time out.
"$ROOT/steward" tools --stats >&2

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export HOME="$WORK/home"
mkdir -p "$HOME"
cp -r "$ROOT/fixtures/hermes-home" "$WORK/hermes-home"
chmod -R u+w "$WORK/hermes-home"

fail() { echo "claude-code-check: FAILED: $*" >&2; exit 1; }

# 1. user scope, absolute path, as README's `claude mcp add` line
"$CLAUDE" mcp add --scope user steward -- "$ROOT/steward" serve --hermes-home "$WORK/hermes-home" >&2
out=$(cd "$WORK" && "$CLAUDE" mcp list 2>&1) || true
echo "$out" >&2
echo "$out" | grep -q "^steward: .*Connected" || fail "claude mcp add: Steward is not connected"
"$CLAUDE" mcp remove --scope user steward >&2

# 2. project scope: the repository's mcp.json, verbatim, as the project's .mcp.json ("./steward" is the project's launcher)
PROJ="$WORK/project"
mkdir -p "$PROJ"
cp "$ROOT/mcp.json" "$PROJ/.mcp.json"
ln -s "$ROOT/steward" "$PROJ/steward"
out=$(cd "$PROJ" && "$CLAUDE" mcp list 2>&1) || true
echo "$out" | grep -q "^steward: .*Pending approval" || fail ".mcp.json was not picked up: $out"
# what accepting Claude Code's trust dialog for this project records (a user does this once, interactively)
node -e '
  const fs = require("fs"); const f = process.argv[1]; const d = JSON.parse(fs.readFileSync(f, "utf8"));
  d.projects = { ...(d.projects || {}), [process.argv[2]]: { hasTrustDialogAccepted: true, enabledMcpjsonServers: ["steward"] } };
  fs.writeFileSync(f, JSON.stringify(d));' "$HOME/.claude.json" "$PROJ"
out=$(cd "$PROJ" && "$CLAUDE" mcp list 2>&1) || true
echo "$out" >&2
echo "$out" | grep -q "^steward: .*Connected" || fail "the project's .mcp.json: Steward is not connected"

echo "claude-code-check: OK: Steward connected through claude mcp add and through the repository's mcp.json as .mcp.json"
