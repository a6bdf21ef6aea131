// Independent-client check: the official TypeScript MCP SDK drives `steward serve` over stdio.
// Usage: node check.mjs <steward.jar> <hermes-home-copy> <manifest.json>
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [jar, home, manifestPath] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const expect = { total: manifest.sessions.length, active: 0, archived: 0, bySource: {} };
for (const s of manifest.sessions) {
  if (s.active) expect.active++;
  if (s.archived) expect.archived++;
  expect.bySource[s.source] = (expect.bySource[s.source] ?? 0) + 1;
}

const fail = (msg) => { console.error(`independent client: FAIL: ${msg}`); process.exit(1); };
const transport = new StdioClientTransport({ command: "java", args: ["-jar", jar, "serve", "--hermes-home", home], stderr: "inherit" });
const client = new Client({ name: "steward-ci", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const status = tools.find((t) => t.name === "steward_status");
if (!status) fail("steward_status is not listed");
if (!status.outputSchema) fail("steward_status has no outputSchema");
for (const t of tools) {
  const a = t.annotations ?? {};
  for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
    if (typeof a[k] !== "boolean") fail(`${t.name}: annotation ${k} not set`);
  }
}

// callTool in the TS SDK validates structuredContent against the tool's outputSchema.
const r = await client.callTool({ name: "steward_status", arguments: {} });
if (r.isError) fail(`steward_status returned an error: ${JSON.stringify(r.content)}`);
const s = r.structuredContent?.sessions;
if (!s) fail("no structuredContent.sessions");
if (s.total !== expect.total) fail(`total ${s.total} != ${expect.total}`);
if (s.active !== expect.active) fail(`active ${s.active} != ${expect.active}`);
if (s.ended !== expect.total - expect.active) fail(`ended ${s.ended} != ${expect.total - expect.active}`);
if (s.archived !== expect.archived) fail(`archived ${s.archived} != ${expect.archived}`);
for (const [src, n] of Object.entries(expect.bySource)) {
  if (s.by_source[src] !== n) fail(`by_source.${src} ${s.by_source[src]} != ${n}`);
}
const bad = await client.callTool({ name: "steward_status", arguments: { unexpected: 1 } });
if (!bad.isError) fail("invalid arguments were not reported as isError");

await client.close();
console.log(`independent client: OK: ${tools.length} tools listed; steward_status: ${s.total} sessions (active ${s.active}, ended ${s.ended}, archived ${s.archived})`);
