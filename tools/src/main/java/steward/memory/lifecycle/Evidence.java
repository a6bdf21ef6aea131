package steward.memory.lifecycle;

import java.util.List;

/**
 * The side record of one entry, kept out of the entry text the agent's prompt pays for: its scope, where it was
 * mentioned (log lines, sessions), how often, when first and last seen and last referenced (returned by recall or
 * re-mentioned), when its level last changed, and the older entries it superseded.
 */
public record Evidence(
        String scope,
        String text,
        double level,
        String kind,
        int mentions,
        List<String> sources,
        String first_seen,
        String last_seen,
        String last_referenced,
        String level_changed,
        boolean confirmed,
        List<Superseded> supersedes) {
    public static final int MAX_SOURCES = 20;

    public record Superseded(String text, String date, String archive) {}
}
