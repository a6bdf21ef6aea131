package steward.memory.precheck;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.meta.Metadata;

/**
 * The explicit registries: every check in the order it is reported, and the verdict precedence in one table (the
 * first failed check in {@link #PRECEDENCE} decides; none failed: {@code write}). Validated when the class loads: the
 * metadata by {@link Metadata#validated}, the precedence against it here.
 */
public final class Checks {
    private Checks() {}

    public static final List<PrecheckCheck> ORDERED = Metadata.validated(
            "precheck checks",
            List.of(
                    new ThreatCheck(),
                    new AlreadyCarriedCheck(),
                    new HistoryCheck(),
                    new TemporaryCheck(),
                    new PointerCheck(),
                    new ProcedureCheck(),
                    new IncidentCheck(),
                    new GranularityCheck(),
                    new ValueCheck(),
                    new CapacityCheck(),
                    new TagCheck(),
                    new ClaudeCoveredCheck(),
                    new ClaudeInstructionCheck(),
                    new ClaudeIndexWindowCheck()));

    /** Checks that run for Hermes targets only: Claude Code has its own (claude_covered, claude_index_window) and no tags. */
    static final Set<String> HERMES_ONLY = Set.of("already_carried", "capacity", "tag");

    /** The checks of the Claude Code target ('claude', auto memory), in the order they are reported; the Claude checks skip Hermes targets. */
    public static final List<PrecheckCheck> CLAUDE =
            ORDERED.stream().filter(c -> !HERMES_ONLY.contains(c.id())).toList();

    /** Check id → the verdict its failure calls for, highest precedence first. */
    public static final Map<String, String> PRECEDENCE;

    static {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threat_scan", "reject_threat");
        p.put("already_carried", "already_covered");
        p.put("claude_covered", "already_covered");
        p.put("history_state", "reject_history");
        p.put("temporary", "route_session_search");
        p.put("claude_instruction", "route_claude_md");
        p.put("pointer", "write_pointer");
        p.put("procedure", "route_skill");
        p.put("incident_story", "route_archive");
        p.put("granularity", "split");
        p.put("value", "route_skill");
        p.put("capacity", "needs_compression");
        p.put("claude_index_window", "needs_compression");
        PRECEDENCE = Collections.unmodifiableMap(p);
        Set<String> ids = new HashSet<>();
        for (PrecheckCheck c : ORDERED) {
            CheckMeta m = c.meta(); // present, non-blank and unique: Metadata.validated
            ids.add(m.id());
            if (!m.verdict().isEmpty() && !m.verdict().equals(p.get(m.id()))) {
                throw new IllegalStateException(
                        m.id() + ": its verdict " + m.verdict() + " disagrees with the precedence table");
            }
        }
        for (String id : p.keySet())
            if (!ids.contains(id)) throw new IllegalStateException("precedence names unknown check " + id);
    }

    public static PrecheckCheck byId(String id) {
        return ORDERED.stream().filter(c -> c.id().equals(id)).findFirst().orElse(null);
    }

    /** The verdict for a set of outcomes by check id. */
    public static String verdict(Map<String, Outcome> outcomes) {
        for (var e : PRECEDENCE.entrySet()) {
            Outcome o = outcomes.get(e.getKey());
            if (o != null && o.failed()) return e.getValue();
        }
        return "write";
    }
}
