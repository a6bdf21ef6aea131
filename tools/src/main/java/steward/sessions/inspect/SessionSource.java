package steward.sessions.inspect;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The small session model that {@code session_inspect} reads: one implementation per store (Hermes' {@code state.db}
 * now, Claude Code's JSONL transcripts when that store lands). An implementation only maps its store's records onto
 * these; every figure is computed once, in {@link InspectEngine}. Anything a store does not record is null (never 0).
 */
public interface SessionSource extends AutoCloseable {
    /** {@code hermes} or {@code claude_code}: reported with every result. */
    String store();

    Optional<SessionInfo> session(String id);

    /** Sessions whose parent is {@code id} (subagents, continuations, branches), oldest first. */
    List<SessionInfo> children(String id);

    /** Every message of {@code id} in time order (ties by id), live, compacted and rewound alike. */
    void messages(String id, Consumer<MessageEvent> sink);

    /** Token and cost figures, or null when the store recorded none for this session. */
    Usage usage(String id);

    /** Lines of the session's file that were skipped as malformed, or null when the store has no such lines. */
    default Integer malformedLines(String id) {
        return null;
    }

    @Override
    void close();
}
