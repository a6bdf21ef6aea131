package steward.sessions.audit;

import java.util.List;

/**
 * The structured result of {@code session_audit} (field names are the wire names). {@code totals}, {@code groups},
 * {@code expected} and {@code repeated_topics} cover every audited store (each item says its store);
 * {@code database} and {@code current} are those of the first store; {@code stores} has each store's own figures.
 */
public record AuditResult(String plan_id, String created_at, String expires_at, String now, double now_epoch, String mode,
                          String locale, String database, Totals totals, Current current, double threshold, Groups groups,
                          List<TopicOut> repeated_topics, Expected expected, LearningState learning, Questions questions,
                          List<StoreOut> stores) {

    /** The learning store as this audit used it: ok, absent (nothing learned yet) or corrupt (learning paused, file untouched). */
    public record LearningState(String status, String error, String rule_state) {}

    public record Totals(int all, int active, int ended, int archived) {}

    public record Current(String session_id, String found_by) {}

    /** {@code project}: the Claude Code project directory (null for Hermes); {@code message_count_exact}: false when estimated. */
    public record Evidence(String source, String title, int message_count, String started_at, double started_at_epoch,
                           String last_activity, double last_activity_epoch, String ended_at, Double ended_at_epoch,
                           String end_reason, boolean archived, String parent, int children, String project,
                           boolean message_count_exact) {}

    /** {@code question}: new (asked by name in this report), grouped (in one line per rule condition), waiting (asked before,
     * unanswered), collapsed (in one line per rule),
     * later (the user said 'later'), not_asked (over this run's question cap); null when nothing is asked (automatic, report only, kept).
     * {@code takes_along}: the subagents this deletion would take along that would not go on their own (why it is asked). */
    public record Item(String item_id, String session_id, String rule, String condition, String action, String confidence, boolean executable,
                       String reason, String cascade_of, String question, List<String> takes_along, Evidence evidence, String store) {}

    public record Group(int count, List<Item> items, int left_out) {}

    public record RuleGroup(String rule, String summary, int count, List<Item> items, int left_out) {}

    public record Groups(Group auto, List<RuleGroup> confirm, Group info, Group waiting, List<RuleGroup> collapsed, Group not_asked,
                         Group retained) {}

    /**
     * What this report asks: {@code asked} = lines that ask something (each question by name, each grouped line, the waiting
     * line, each collapsed rule); the others count items.
     */
    public record Questions(int asked, int listed, int grouped, int waiting, int later, int collapsed, int not_asked, int cap, String digest) {}

    public record TopicOut(String topic, int count, List<String> session_ids) {}

    public record Expected(int active_before, int active_after_auto, int active_after_all_approved,
                           int total_before, int total_after_auto, int total_after_all_approved) {}

    /**
     * One audited store: where it is, its totals, current session and expected figures; for Claude Code the idle
     * time used, its projects (busiest first, capped) and what could not be read.
     */
    public record StoreOut(String store, String location, Totals totals, Current current, Expected expected, Double idle_hours,
                           List<ProjectOut> projects, int projects_left_out, List<String> warnings) {}

    /** A Claude Code project: its directory name, working directory (from its transcripts), sessions, live ones, items. */
    public record ProjectOut(String project, String cwd, int sessions, int live, int subagents, int items) {}
}
