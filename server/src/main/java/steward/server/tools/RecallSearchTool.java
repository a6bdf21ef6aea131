package steward.server.tools;

import java.util.List;

import steward.recall.RecallService;

/** {@code recall_search}: ranked items from memory, skills, past sessions and daily logs for an explicit query. */
public final class RecallSearchTool extends StewardTool<RecallSearchTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of("recall_search", "Search memory and past sessions",
            "Searches the agent's memory entries (MEMORY.md, USER.md), skills, past session messages (user and assistant "
                + "turns; tool output is not indexed) and daily logs for an explicit query, in English or Chinese, and returns "
                + "ranked items: a stable steward:// URI, source, snippet, timestamp and every score component; says \"no good match\" "
                + "(and returns at most 3 items marked weak) when nothing clears the calibrated floor; near-duplicates are folded "
                + "with a count, at most 2 items of one session in the top 5. Use it when the user asks about "
                + "something from earlier sessions or you need a fact you may have stored. Arguments: query, k (default "
                + RecallService.DEFAULT_K + ", max " + RecallService.MAX_K + "), scopes (memory, skill, session, log), since/until (ISO date or UTC time), exclude_session_id "
                + "(usually the current session). Read-only for Hermes' files: it only updates Steward's own index in "
                + "the state dir; never waits for embedding. Refuses an empty query.")
            .readOnly().idempotent();

    /** schemas/recall_search.input.json; no scopes means every source. */
    public record Args(String query, Integer k, List<String> scopes, String since, String until, String exclude_session_id) {
        public Args {
            if (k == null) k = RecallService.DEFAULT_K;
        }
    }

    public RecallSearchTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        List<String> scopes = a.scopes() == null ? null : Arguments.list(a.scopes());
        RecallService svc = new RecallService(ctx.recall().engine(ctx.paths(), ctx.clock()), ctx.recall().settings());
        RecallService.SearchOutput out = svc.search(new RecallService.SearchRequest(a.query() == null ? "" : a.query(),
                a.k(), scopes, a.since(), a.until(), a.exclude_session_id()), ctx.work());
        StringBuilder sb = new StringBuilder();
        sb.append(out.match().verdict()).append(": ").append(out.returned()).append(" item(s) for \"").append(out.query()).append("\"");
        if (out.omitted() > 0) sb.append(" (").append(out.omitted()).append(" more candidates not shown)");
        sb.append(out.index().dense_enabled() ? " [BM25 + dense]" : " [BM25]");
        if (out.index().dense_pending() > 0) sb.append(" [").append(out.index().dense_pending()).append(" texts not embedded yet]");
        sb.append('\n');
        for (RecallService.SearchItem it : out.items()) {
            sb.append(it.rank()).append(". ").append(it.uri()).append(it.timestamp() == null ? "" : " (" + it.timestamp().substring(0, 10) + ")")
                    .append(String.format(" score %.3f", it.score().score())).append(it.weak() ? " weak" : "")
                    .append(it.duplicates() == null ? "" : " +" + it.duplicates() + " near-duplicate(s)").append("\n   ").append(it.snippet()).append('\n');
        }
        for (String w : out.index().warnings()) sb.append("warning: ").append(w).append('\n');
        return ToolResult.ok(out, sb.toString().stripTrailing());
    }
}
