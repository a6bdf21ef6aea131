// Independent-client check: the official TypeScript MCP SDK drives `steward serve` over stdio, calls every tool at
// least once on a copy of the fixture home, and checks each structuredContent against the tool's output schema in
// schemas/ with Ajv (pinned in package.json), independently of the SDK's own check.
// Usage: node check.mjs <steward.jar> <hermes-home-copy> <manifest.json>
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";

const [jar, home, manifestPath] = process.argv.slice(2);
const schemasDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "schemas");
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const expect = { total: manifest.sessions.length, active: 0, archived: 0, bySource: {} };
for (const s of manifest.sessions) {
  if (s.active) expect.active++;
  if (s.archived) expect.archived++;
  expect.bySource[s.source] = (expect.bySource[s.source] ?? 0) + 1;
}

// JSON text with object keys sorted: equal for equal values whatever order the keys came in
const canonical = (v) => JSON.stringify(v, (k, x) => (x && typeof x === "object" && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((key) => [key, x[key]])) : x));
const fail = (msg) => { console.error(`independent client: FAIL: ${msg}`); process.exit(1); };
const transport = new StdioClientTransport({ command: "java", args: ["-jar", jar, "serve", "--hermes-home", home], stderr: "inherit" });
const client = new Client({ name: "steward-ci", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = {};
for (const t of tools) {
  const a = t.annotations ?? {};
  for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
    if (typeof a[k] !== "boolean") fail(`${t.name}: annotation ${k} not set`);
  }
  if (!t.outputSchema) fail(`${t.name} has no outputSchema`);
  const file = JSON.parse(readFileSync(join(schemasDir, `${t.name}.output.json`), "utf8"));
  if (canonical(t.outputSchema) !== canonical(file)) fail(`${t.name}: tools/list's outputSchema differs from schemas/${t.name}.output.json`);
  validators[t.name] = ajv.compile(file);
}

const called = new Map(); // tool -> calls
let validated = 0;
// Calls the tool; every structuredContent (of a success, or of an error that carries one) must validate.
// Long calls (a first recall index build on a busy machine) keep their request alive by reporting progress.
const progress = {}; // tool -> progress values received, in order
async function call(name, args, { error = false } = {}) {
  if (!validators[name]) fail(`${name} is not listed`);
  const seen = (progress[name] ??= []);
  const r = await client.callTool({ name, arguments: args }, undefined,
    { timeout: 600_000, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p.progress) });
  const text = r.content?.[0]?.text ?? "";
  if (Boolean(r.isError) !== error) fail(`${name} ${JSON.stringify(args)}: expected ${error ? "an error" : "success"}, got: ${text}`);
  if (!error && !r.structuredContent) fail(`${name}: no structuredContent`);
  if (r.structuredContent && !validators[name](r.structuredContent)) {
    fail(`${name}: structuredContent does not match schemas/${name}.output.json: ${ajv.errorsText(validators[name].errors)}`);
  }
  if (r.structuredContent) validated++;
  called.set(name, (called.get(name) ?? 0) + 1);
  return r;
}

// steward_status: what the server sees of the fixture
const st = await call("steward_status", {});
const s = st.structuredContent.sessions;
if (s.total !== expect.total) fail(`total ${s.total} != ${expect.total}`);
if (s.active !== expect.active) fail(`active ${s.active} != ${expect.active}`);
if (s.ended !== expect.total - expect.active) fail(`ended ${s.ended} != ${expect.total - expect.active}`);
if (s.archived !== expect.archived) fail(`archived ${s.archived} != ${expect.archived}`);
for (const [src, n] of Object.entries(expect.bySource)) {
  if (s.by_source[src] !== n) fail(`by_source.${src} ${s.by_source[src]} != ${n}`);
}
await call("steward_status", { unexpected: 1 }, { error: true });

// housekeeping: audit -> dry run -> apply -> restore; precheck; preferences
const now = "2026-08-10T12:00:00Z";
const current = "20260810_071500_a6a3a4";
const audit = (await call("session_audit", { now, current_session_id: current })).structuredContent;
const ap = progress.session_audit;
if (ap.length < 4 || ap.some((v, i) => i > 0 && v <= ap[i - 1])) fail(`session_audit progress: ${JSON.stringify(ap)}`);
const dry = (await call("session_apply", { plan_id: audit.plan_id, dry_run: true, current_session_id: current })).structuredContent;
if (!dry.dry_run || dry.executed_count < 1) fail(`session_apply dry run: ${JSON.stringify(dry).slice(0, 200)}`);
const applied = (await call("session_apply", { plan_id: audit.plan_id, current_session_id: current })).structuredContent;
if (applied.executed_count !== dry.executed_count) fail(`applied ${applied.executed_count} != dry run ${dry.executed_count}`);
const restored = (await call("session_restore", { backup_id: applied.backup.backup_id })).structuredContent;
if (restored.restored.length !== applied.executed_count) fail(`restored ${restored.restored.length} of ${applied.executed_count}`);
if (restored.sessions_after !== expect.total) fail(`after restore ${restored.sessions_after} sessions != ${expect.total}`);
await call("session_restore", { backup_id: "b_20260101T000000Z_abcdef" }, { error: true });
await call("session_precheck", { request: "How do I set up Claude Code hooks?", now });
await call("session_preferences", {});
const ins = (await call("session_inspect", { session_id: current })).structuredContent;
if (ins.sessions.length !== 1 || ins.sessions[0].session_id !== current) fail(`session_inspect: ${JSON.stringify(ins).slice(0, 300)}`);
await call("session_inspect", { session_id: current, store: "claude" }, { error: true });

// memory: precheck, write, pending
await call("memory_precheck", { target: "memory", content: "[ops] The CI host runs Node 22." });
const w = (await call("memory_write", { target: "memory", action: "add", content: "[ops] The CI host runs Node 22." })).structuredContent;
if (!w.success) fail(`memory_write: ${JSON.stringify(w)}`);
await call("memory_pending", { action: "list" });
const hist = (await call("memory_history", { file: "memories/MEMORY.md" })).structuredContent;
if (JSON.stringify(hist).indexOf("memory_write") < 0) fail(`memory_history does not show the write: ${JSON.stringify(hist).slice(0, 300)}`);

// memory lifecycle: a daily-log note, health, then consolidation gather -> plan -> apply of that note
await call("memory_log", { note: "The CI host runs Node 22 LTS." });
await call("memory_health", {});
const g = (await call("memory_consolidate", { step: "gather" })).structuredContent;
const line = g.days.flatMap((d) => d.lines).find((l) => l.text.includes("Node 22 LTS"));
if (!line) fail(`memory_consolidate gather does not show the logged note: ${JSON.stringify(g).slice(0, 300)}`);
const plan = (await call("memory_consolidate", { step: "plan", through: g.through,
  proposals: [{ text: "[ops] The CI host runs Node 22 LTS.", kind: "fact", evidence: [line.ref] }] })).structuredContent;
const done = (await call("memory_consolidate", { step: "apply", plan_id: plan.plan_id })).structuredContent;
if (!done.applied) fail(`memory_consolidate apply: ${JSON.stringify(done).slice(0, 300)}`);

// recall: search, inject, feedback on what was injected
// A result said to be partial (the background indexer still building, or a source changed since its last update:
// the restore above) is what the index holds so far: ask again until it is current, as an agent would.
let found;
for (let i = 0; ; i++) {
  found = (await call("recall_search", { query: "session housekeeping", k: 3 })).structuredContent;
  if ((!found.index.building && !found.index.stale) || i >= 120) break;
  await new Promise((r) => setTimeout(r, 500));
}
if (found.items.length !== 3) fail(`recall_search returned ${found.items.length} items (index: ${JSON.stringify(found.index)})`);
const inj = (await call("recall_inject", { context: "还记得我喜欢用中文回答吗？", session_id: current, mode: "active" })).structuredContent;
if (inj.decision !== "inject" || inj.items.length < 1) fail(`recall_inject: ${JSON.stringify(inj).slice(0, 300)}`);
await call("recall_feedback", { decision_id: inj.decision_id, uris: [inj.items[0].uri], outcome: "used" });

const missing = tools.map((t) => t.name).filter((n) => !called.has(n));
if (missing.length) fail(`not called (add a call to .ci/client/check.mjs): ${missing.join(", ")}`);

// an unknown tool is a protocol error that names it
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
  fail("an unknown tool did not fail");
} catch (e) {
  if (!String(e.message).includes("no_such_tool")) fail(`the unknown tool's error does not name it: ${e.message}`);
}

await client.close();
console.log(`independent client: OK: ${tools.length} tools listed, every one called (${validated} structured results valid against schemas/ with Ajv); `
  + `steward_status: ${s.total} sessions (active ${s.active}, ended ${s.ended}, archived ${s.archived})`);
