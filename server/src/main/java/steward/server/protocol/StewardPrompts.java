package steward.server.protocol;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import steward.server.tools.ToolContext;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;

/**
 * The prompts {@code housekeeping} and {@code remember}, and {@code completion/complete} for their
 * arguments (locales, memory targets) and for the {@code {id}} of {@code steward://session/{id}}.
 */
public final class StewardPrompts {
    public static final List<String> LOCALES = List.of("en", "zh");
    public static final List<String> TARGETS = List.of("memory", "user");
    static final int MAX_COMPLETIONS = 100; // the spec's cap per response

    private StewardPrompts() {}

    public static List<McpServerFeatures.SyncPromptSpecification> prompts() {
        var housekeeping = McpSchema.Prompt.builder("housekeeping")
                .title("Session housekeeping")
                .description(
                        "Walks the agent through one housekeeping run with the user: audit the sessions, show the report, "
                                + "collect the user's decisions, apply them, then give the learning summary — in the user's language.")
                .arguments(List.of(
                        new McpSchema.PromptArgument(
                                "locale", "Language", "The user's language: en or zh (default en).", false),
                        new McpSchema.PromptArgument(
                                "mode",
                                "Mode",
                                "interactive (ask the user, default) or headless (only what is safe unattended).",
                                false)))
                .build();
        var remember = McpSchema.Prompt.builder("remember")
                .title("Remember a fact")
                .description(
                        "Saves one durable fact the safe way: precheck it, write it, and what to do if the memory is full.")
                .arguments(List.of(
                        new McpSchema.PromptArgument("fact", "Fact", "The fact to remember, in one sentence.", true),
                        new McpSchema.PromptArgument(
                                "target",
                                "Target",
                                "memory (agent's notes, MEMORY.md) or user (about the user, USER.md).",
                                false),
                        new McpSchema.PromptArgument(
                                "locale", "Language", "The user's language: en or zh (default en).", false)))
                .build();
        return List.of(
                new McpServerFeatures.SyncPromptSpecification(housekeeping, (ex, req) -> housekeeping(args(req))),
                new McpServerFeatures.SyncPromptSpecification(remember, (ex, req) -> remember(args(req))));
    }

    public static List<McpServerFeatures.SyncCompletionSpecification> completions(ToolContext ctx) {
        return List.of(
                new McpServerFeatures.SyncCompletionSpecification(
                        new McpSchema.PromptReference("housekeeping"),
                        (ex, req) -> complete(
                                switch (req.argument().name()) {
                                    case "locale" -> LOCALES;
                                    case "mode" -> List.of("interactive", "headless");
                                    default -> List.of();
                                },
                                req.argument().value())),
                new McpServerFeatures.SyncCompletionSpecification(
                        new McpSchema.PromptReference("remember"),
                        (ex, req) -> complete(
                                switch (req.argument().name()) {
                                    case "locale" -> LOCALES;
                                    case "target" -> TARGETS;
                                    default -> List.of();
                                },
                                req.argument().value())),
                new McpServerFeatures.SyncCompletionSpecification(
                        new McpSchema.ResourceReference(StewardResources.SESSION_TEMPLATE),
                        (ex, req) -> "id".equals(req.argument().name())
                                ? complete(sessionIds(ctx), req.argument().value())
                                : complete(List.of(), "")));
    }

    /** Candidates starting with {@code prefix} (case-insensitive), at most 100, saying whether more exist. */
    static McpSchema.CompleteResult complete(List<String> candidates, String prefix) {
        String p = prefix == null ? "" : prefix.toLowerCase(Locale.ROOT);
        List<String> hits = candidates.stream()
                .filter(c -> c.toLowerCase(Locale.ROOT).startsWith(p))
                .toList();
        List<String> shown = hits.size() > MAX_COMPLETIONS ? hits.subList(0, MAX_COMPLETIONS) : hits;
        return new McpSchema.CompleteResult(
                new McpSchema.CompleteResult.CompleteCompletion(shown, hits.size(), hits.size() > shown.size()));
    }

    /** Session ids, most recently active first; none when there is no readable state.db. */
    static List<String> sessionIds(ToolContext ctx) {
        if (!Files.isRegularFile(ctx.paths().stateDb())) return List.of();
        try (SessionStore store = SessionStore.openReadOnly(ctx.paths().stateDb())) {
            List<SessionRow> rows = new ArrayList<>(store.listSessions());
            rows.sort(Comparator.comparingDouble(SessionRow::lastActivity).reversed());
            return rows.stream().map(SessionRow::id).toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private static Map<String, Object> args(McpSchema.GetPromptRequest req) {
        return req.arguments() == null ? Map.of() : req.arguments();
    }

    private static String arg(Map<String, Object> a, String name, List<String> allowed, String dflt) {
        Object v = a.get(name);
        String s = v == null ? "" : v.toString().trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty()) return dflt;
        if (allowed != null && !allowed.contains(s)) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                    .message("prompt argument " + name + ": '" + v + "' is not one of " + String.join(", ", allowed))
                    .build();
        }
        return s;
    }

    static McpSchema.GetPromptResult housekeeping(Map<String, Object> a) {
        String locale = arg(a, "locale", LOCALES, "en");
        String mode = arg(a, "mode", List.of("interactive", "headless"), "interactive");
        String lang = locale.equals("zh") ? "Chinese (简体中文)" : "English";
        String text = """
                Run one session housekeeping pass with Steward. Speak to the user in %s throughout; keep tool names and ids as they are.

                1. Audit: call `session_audit` with locale "%s" and mode "%s". Keep its `plan_id`.
                2. Show the user the report text exactly as Steward wrote it (groups, risk levels, the expected state after the plan). Do not invent items or change risk levels.
                3. Collect decisions: for each item or rule group, ask the user to approve or reject. HIGH items may be approved as a group; anything the user does not mention stays untouched. Never approve on the user's behalf%s.
                4. Apply: call `session_apply` with the `plan_id` and exactly the decisions the user gave. If Steward refuses (plan expired, reused or made for another database), run the audit again instead of retrying.
                5. Report back: what was done, what was kept, how to undo it (`session_restore`), and the learning summary from the apply result (at most 3 lines), in %s.

                Steward's safety guard always wins: the current session, sessions with live descendants and titled active sessions are never changed automatically.
                """.formatted(
                lang,
                locale,
                mode,
                mode.equals("headless") ? " (headless: apply only what the plan marks safe to run unattended)" : "",
                lang);
        return McpSchema.GetPromptResult.builder(List.of(new McpSchema.PromptMessage(
                        McpSchema.Role.USER, McpSchema.TextContent.builder(text).build())))
                .description("Session housekeeping (" + locale + ", " + mode + ")")
                .build();
    }

    static McpSchema.GetPromptResult remember(Map<String, Object> a) {
        Object f = a.get("fact");
        if (f == null || f.toString().isBlank()) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                    .message("prompt argument fact: required, the fact to remember")
                    .build();
        }
        String target = arg(a, "target", TARGETS, "memory");
        String locale = arg(a, "locale", LOCALES, "en");
        String lang = locale.equals("zh") ? "Chinese (简体中文)" : "English";
        String file = target.equals("user") ? "USER.md" : "MEMORY.md";
        String tagHint =
                target.equals("memory") ? " Start the entry with one tag: [base], [env], [ops] or [rule]." : "";
        String text = """
                Remember this fact in Steward's %s store (%s), speaking to the user in %s:

                %s

                1. Precheck: call `memory_precheck` with target "%s" and the entry.%s Read the verdict: if it is a duplicate, say so and stop; if it conflicts with or refines an existing entry, prefer a replace of that entry (old_text) over adding a second one; if it belongs elsewhere (a skill, session search, an archive), follow that route instead.
                2. Write: call `memory_write` with the action the precheck suggested. Report the usage it returns (for example "31%% — 38/120 chars").
                3. On overflow: do not drop the fact silently. Follow the next step the result names (compress or merge related entries, move detail to a skill, or remove stale entries), show the user what you propose, and only then write again.
                """.formatted(target, file, lang, f.toString().strip(), target, tagHint);
        return McpSchema.GetPromptResult.builder(List.of(new McpSchema.PromptMessage(
                        McpSchema.Role.USER, McpSchema.TextContent.builder(text).build())))
                .description("Remember a fact (" + target + ")")
                .build();
    }
}
