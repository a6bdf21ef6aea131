package steward.learning;

import java.util.List;

/**
 * What the learning loop recorded from one apply or restore, as the tools return it: status ok / paused (store
 * corrupt or unwritable) / not_recorded (dry run), at most 3 summary lines, and every change (bounded).
 */
public record LearningReport(String status, String error, List<String> summary, List<Change> changes) {
    public static final int MAX_CHANGES = 200;

    /** One change of the learning store: kind (promoted, capped, asked, demoted, locked, raised, contradiction, kept, renamed, …). */
    public record Change(String kind, String key, String detail) {}

    public static LearningReport of(LearningEngine.Summary s) {
        List<Change> changes = s.changes().stream()
                .limit(MAX_CHANGES)
                .map(c -> new Change(c.kind(), c.key(), c.detail()))
                .toList();
        return new LearningReport(
                s.paused() ? "paused" : "ok", s.paused() ? s.lines().get(0) : null, s.lines(), changes);
    }

    public static LearningReport notRecorded(String why) {
        return new LearningReport("not_recorded", why, List.of(), List.of());
    }
}
