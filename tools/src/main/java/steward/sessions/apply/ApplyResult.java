package steward.sessions.apply;

import java.util.List;

/** The structured result of {@code session_apply}. */
public record ApplyResult(String plan_id, boolean dry_run, Backup backup, int executed_count, List<Done> executed,
                          int executed_left_out, int skipped_count, List<Skipped> skipped, int skipped_left_out,
                          Counts before, Counts after, boolean fts_verified, List<Check> checklist, Learning learning,
                          List<String> recovered) {

    /** What the learning loop recorded: status ok / paused (store corrupt or unwritable) / not_recorded (dry run). */
    public record Learning(String status, String error, List<String> summary) {}

    public record Backup(String backup_id, String path, long size_bytes, int sessions, int messages, int side_files) {}

    public record Done(String item_id, String session_id, String rule, String action, String new_title) {}

    public record Skipped(String item_id, String session_id, String rule, String reason) {}

    public record Counts(int all, int active, int ended, int archived, int untitled) {}

    public record Check(String check, boolean ok, String detail) {}
}
