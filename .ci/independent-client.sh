#!/usr/bin/env bash
# Drives the built jar with the official TypeScript MCP SDK (pinned in .ci/client/package.json).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/server/target/steward.jar"
[ -f "$jar" ] || { echo "independent-client: $jar missing (run the tests first)" >&2; exit 1; }
(cd "$root/.ci/client" && npm install --no-package-lock --no-audit --no-fund --loglevel=error >&2)
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cp -r "$root/fixtures/hermes-home" "$tmp/home"; chmod -R u+w "$tmp/home"
node "$root/.ci/client/check.mjs" "$jar" "$tmp/home" "$tmp/home/manifest.json"
