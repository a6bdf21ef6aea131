package steward.sessions.apply;

import java.util.List;
import steward.learning.LearningReport;

/**
 * The structured result of {@code session_apply}. {@code automatic}: every item that ran without being asked, with
 * its rule condition and the one-line undo (restoring it teaches Steward to ask first).
 */
public record ApplyResult(
        String plan_id,
        boolean dry_run,
        Backup backup,
        int executed_count,
        List<Done> executed,
        int executed_left_out,
        int skipped_count,
        List<Skipped> skipped,
        int skipped_left_out,
        int automatic_count,
        List<Auto> automatic,
        int automatic_left_out,
        Counts before,
        Counts after,
        boolean fts_verified,
        List<Check> checklist,
        LearningReport learning,
        List<String> recovered) {

    public record Backup(String backup_id, String path, long size_bytes, int sessions, int messages, int side_files) {}

    /**
     * One change made. {@code answered_by}: the answer that decided it when that was not the item's own id (a report
     * group {@code q1}, a topic group, a compaction chain {@code c1} or a rule), with {@code answered_as} its kind
     * ({@code group}, {@code topic}, {@code chain}, {@code rule}); both null when its own id decided it or it ran
     * automatically.
     */
    public record Done(
            String item_id,
            String session_id,
            String rule,
            String action,
            String new_title,
            String answered_by,
            String answered_as) {}

    /** An automatic action: what ran unasked, under which condition, and how to take it back. */
    public record Auto(String item_id, String session_id, String condition, String action, String undo) {}

    public record Skipped(String item_id, String session_id, String rule, String reason) {}

    public record Counts(int all, int active, int ended, int archived, int untitled) {}

    public record Check(String check, boolean ok, String detail) {}
}
