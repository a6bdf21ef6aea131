package steward.server.tools;

import java.util.List;
import steward.recall.RecallService;

/** {@code recall_search}: ranked items from memory, skills, past sessions and daily logs (Hermes, Claude Code) for an explicit query. */
public final class RecallSearchTool extends StewardTool<RecallSearchTool.Args> {
    static final ToolSpec SPEC = ToolSpec.of(
                    "recall_search",
                    "Search memory and past sessions",
                    "Searches memory, skills, past sessions and daily logs (Hermes, Claude Code) for an explicit query: ranked "
                            + "items (steward:// URI, snippet, scores), or \"no good match\". Never waits for indexing. Use it when the "
                            + "user refers to past sessions or needs a stored fact. since/until: ISO date or UTC time. Read-only.")
            .readOnly()
            .idempotent();

    /** schemas/recall_search.input.json; no scopes means every source. */
    public record Args(
            String query, Integer k, List<String> scopes, String since, String until, String exclude_session_id) {
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
        RecallService svc = new RecallService(
                ctx.recall().engine(ctx.paths(), ctx.clock()), ctx.recall().settings());
        RecallService.SearchOutput out = svc.search(
                new RecallService.SearchRequest(
                        a.query() == null ? "" : a.query(),
                        a.k(),
                        scopes,
                        a.since(),
                        a.until(),
                        a.exclude_session_id()),
                ctx.work());
        StringBuilder sb = new StringBuilder();
        sb.append(out.match().verdict())
                .append(": ")
                .append(out.returned())
                .append(" item(s) for \"")
                .append(out.query())
                .append("\"");
        if (out.omitted() > 0) sb.append(" (").append(out.omitted()).append(" more candidates not shown)");
        sb.append(out.index().dense_enabled() ? " [BM25 + dense]" : " [BM25]");
        if (out.index().dense_pending() > 0)
            sb.append(" [").append(out.index().dense_pending()).append(" texts not embedded yet]");
        sb.append('\n');
        for (RecallService.SearchItem it : out.items()) {
            sb.append(it.rank())
                    .append(". ")
                    .append(it.uri())
                    .append(it.timestamp() == null ? "" : " (" + it.timestamp().substring(0, 10) + ")")
                    .append(String.format(" score %.3f", it.score().score()))
                    .append(it.weak() ? " weak" : "")
                    .append(it.duplicates() == null ? "" : " +" + it.duplicates() + " near-duplicate(s)")
                    .append("\n   ")
                    .append(it.snippet())
                    .append('\n');
        }
        for (String w : out.index().warnings()) sb.append("warning: ").append(w).append('\n');
        return ToolResult.ok(out, sb.toString().stripTrailing());
    }
}
