package steward.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.recall.InjectEngine;
import steward.server.ToolRegistry;
import steward.server.Tools;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;

/**
 * A readable walkthrough on temporary copies of {@code fixtures/hermes-home} and {@code fixtures/claude-home}: every
 * step calls a tool through the same registry as the server and prints its text rendering. The user's own homes are
 * never touched.
 */
@Command(
        name = "demo",
        description =
                "Walk through what Steward does, on temporary copies of fixtures/hermes-home and fixtures/claude-home.")
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--keep", description = "keep the temporary copy and print its path")
    boolean keep;

    private ToolRegistry registry;
    private ToolContext ctx;

    @Override
    public Integer call() throws Exception {
        Path tmp = Files.createTempDirectory("steward-demo-");
        Path home = Fixtures.copyHermesHome(tmp);
        Path claude = Fixtures.installClaudeHome(tmp);
        registry = Tools.registry();
        ctx = new ToolContext(StewardPaths.of(home, claude), Clock.systemUTC(), Work.NONE);
        out("Steward demo — working on temporary copies of fixtures/hermes-home and fixtures/claude-home:");
        out("  " + home);
        out("  " + claude);
        step("1. What Steward sees", "steward_status", "{}");
        housekeeping();
        memoryWalkthrough(home);
        recallSteps();
        if (keep) out("\nKept: " + tmp);
        else FileTrees.delete(tmp);
        return 0;
    }

    /**
     * Session housekeeping over both homes: audit the copies (time pinned to the fixtures'; the report has a section per
     * home and groups Claude Code sessions by project), apply the HIGH items, restore them.
     */
    private void housekeeping() {
        String pin = "\"now\":\"2026-08-10T12:00:00Z\",\"current_session_id\":\"20260810_071500_a6a3a4\"";
        step(
                "Housekeeping · before a new session: is there one on this topic already?",
                "session_precheck",
                "{\"request\":\"How do I set up Claude Code hooks?\"," + pin.substring(0, pin.indexOf(',')) + "}");
        ToolResult audit = step(
                "Housekeeping · audit both homes (Hermes and Claude Code)",
                "session_audit",
                "{" + pin + ",\"max_items_per_group\":6}");
        if (audit.isError()) return;
        String plan = ToolRegistry.toJson(audit.structured()).get("plan_id").asString();
        ToolResult applied = step(
                "Housekeeping · apply the HIGH items (backup first)",
                "session_apply",
                "{\"plan_id\":\"" + plan + "\"}");
        if (applied.isError()) return;
        step(
                "Housekeeping · audit the Claude Code home again",
                "session_audit",
                "{\"now\":\"2026-08-10T12:00:00Z\",\"store\":\"claude\",\"max_items_per_group\":3}");
        step("Housekeeping · what the learning loop recorded", "session_preferences", "{}");
        String backup = ToolRegistry.toJson(applied.structured())
                .get("backup")
                .get("backup_id")
                .asString();
        step(
                "Housekeeping · restore everything from the backup",
                "session_restore",
                "{\"backup_id\":\"" + backup + "\"}");
    }

    /** Memory governance: precheck a fact, write it, overflow, compress, approve a staged write. */
    private void memoryWalkthrough(Path home) throws IOException {
        String fact = "[env] Node 22 via fnm; npm registry mirror is npmmirror.com";
        step(
                "Memory 1. May I store this? (first call: the judgment questions come back)",
                "memory_precheck",
                "{\"content\":\"" + fact + "\"}");
        step(
                "Memory 2. Same precheck with the agent's answers",
                "memory_precheck",
                "{\"content\":\"" + fact + "\",\"answers\":{\"frequency\":\"high\",\"consequence\":\"severe\"}}");
        step(
                "Memory 3. Write it (Hermes' result, byte for byte, plus Steward's capacity)",
                "memory_write",
                "{\"action\":\"add\",\"content\":\"" + fact + "\"}");
        Path config = home.resolve("config.yaml");
        Files.writeString(config, "memory:\n  memory_char_limit: 600\n");
        out("\n(config.yaml: memory.memory_char_limit lowered to 600 to show an overflow)");
        step(
                "Memory 4. Overflow: the result says what to compress first",
                "memory_write",
                "{\"action\":\"add\",\"content\":\"[ops] Deploys go through the bastion host; ask for the VPN profile first\"}");
        step(
                "Memory 5. Compress and add in ONE batch (the limit is checked on the final state)",
                "memory_write",
                "{\"operations\":[{\"action\":\"remove\",\"old_text\":\"Windows 11\"},{\"action\":\"remove\",\"old_text\":\"RTX 4090\"},"
                        + "{\"action\":\"add\",\"content\":\"[env] Win11, pwsh 7 (not 5.1); repos+venv under F:/AI; RTX 4090/CUDA 12.4\"},"
                        + "{\"action\":\"add\",\"content\":\"[ops] Deploys go through the bastion host; ask for the VPN profile first\"}]}");
        Files.writeString(config, "memory:\n  memory_char_limit: 2200\n  write_approval: true\n");
        out("\n(config.yaml: memory.write_approval: true)");
        ToolResult staged = step(
                "Memory 6. With write approval on, the write is staged",
                "memory_write",
                "{\"action\":\"add\",\"target\":\"user\",\"content\":\"Prefers tables over bullet lists\"}");
        step("Memory 7. The staged writes", "memory_pending", "{}");
        Object id = staged.structured() instanceof Map<?, ?> m ? m.get("pending_id") : null;
        step(
                "Memory 8. The user approves: exactly the staged write is applied",
                "memory_pending",
                "{\"action\":\"approve\",\"pending_id\":\"" + id + "\"}");
    }

    /** Recall: an explicit search, an injection decision in shadow mode, feedback on it. */
    private void recallSteps() {
        step(
                "Recall: search memory and past sessions (English and Chinese)",
                "recall_search",
                "{\"query\":\"记忆 扩容 decision\",\"k\":3}");
        ToolResult r = step(
                "Recall: should anything be injected for this message? (shadow mode)",
                "recall_inject",
                "{\"context\":\"上次我们怎么处理 scope-recall journal backlog 的？\"}");
        if (r.structured() instanceof InjectEngine.Result d && !d.items().isEmpty()) {
            step(
                    "Recall: the injected item was used",
                    "recall_feedback",
                    "{\"decision_id\":\"" + d.decision_id() + "\",\"uris\":[\""
                            + d.items().get(0).uri() + "\"],\"outcome\":\"used\"}");
        }
    }

    ToolResult step(String heading, String tool, String json) {
        out("");
        out("== " + heading + " ==");
        out("$ steward call " + tool + " '" + json + "'");
        JsonNode args = Json.MAPPER.readTree(json);
        ToolResult r = registry.invoke(tool, args, ctx);
        out(r.text());
        return r;
    }

    static void out(String s) {
        Printer.println(s);
    }
}
