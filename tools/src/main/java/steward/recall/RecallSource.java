package steward.recall;

import java.util.List;
import java.util.Map;
import steward.StewardError;
import steward.Work;

/**
 * One corpus the recall index reads: today the files of a Hermes home ({@link HermesFiles}: memory entries, skills,
 * daily logs) and its {@code state.db} ({@link HermesSessions}); a Claude Code home is meant to be another. The indexer
 * knows nothing else about a source: it asks for a cheap change token, then for what changed since the bookkeeping it
 * kept from the last time ({@code state}, an opaque string map the source defines), and writes what the source streams
 * into its sink. URIs are {@code steward://<kind>/…} and are owned by exactly one source
 * (e.g. {@code steward://claude/session/<uuid>/event/<uuid>} for a Claude Code transcript event).
 */
public interface RecallSource extends AutoCloseable {
    /** Stable id, used to keep this source's bookkeeping apart ("hermes-files", "hermes-sessions"). */
    String id();

    /** The kinds of items this source yields (the scope names of recall_search and the first URI segment). */
    List<String> kinds();

    /**
     * A token that changes whenever anything this source holds may have changed, computed cheaply (file stats, never a
     * scan): the indexer compares it with the one it committed and does nothing more when they are equal.
     */
    String token();

    /**
     * Streams into {@code sink} what changed since {@code state} and returns the new state. {@code thorough} asks for a
     * full comparison (a first build, a periodic reconciliation) instead of the incremental one. Reports progress and
     * stops at safe points through {@code work}; nothing it streams is committed unless it returns normally.
     */
    Map<String, String> sync(Map<String, String> state, boolean thorough, Sink sink, Work work);

    /**
     * What the last {@link #sync} could not read and left out (the rest was synced), or null. The indexer reports it and
     * does not commit the source's token, so the next sync tries again.
     */
    default String problem() {
        return null;
    }

    /** Whether this source owns the URI. */
    boolean owns(String uri);

    /**
     * Reads an item back from the source by URI (not from the index); null when it no longer exists; a
     * {@link steward.StewardError} when the URI is malformed. Earlier URI forms resolve to the item now in their place.
     */
    RecallItem resolve(String uri);

    /** The item's current URI for an earlier form of it, or the URI itself. */
    default String canonical(String uri) {
        RecallItem it = resolve(uri);
        return it == null ? uri : it.uri();
    }

    @Override
    void close();

    /**
     * A source another process holds locked past the short wait a read allows (a Hermes writer in rollback-journal
     * mode): nothing of it was read, what the index holds of it stays searchable and is said to be maybe stale, and the
     * next sync tries again.
     */
    final class Locked extends StewardError {
        private static final long serialVersionUID = 1L;

        public Locked(String context, String cause) {
            super(context, cause);
        }
    }

    /** Where a source writes its changes. Items are replaced by group ({@link RecallItem#key()}) or one by URI. */
    interface Sink {
        /** Deletes every item of the group and adds these. */
        void replaceGroup(String key, List<RecallItem> items);

        void deleteGroup(String key);

        /** Replaces the item with this URI (adds it when new). */
        void upsert(RecallItem item);
    }
}
