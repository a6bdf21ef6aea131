package steward.sessions.audit;

import java.util.List;
import java.util.Map;

/**
 * The structured result of {@code session_audit} (field names are the wire names). {@code totals}, {@code groups},
 * {@code expected} and {@code repeated_topics} cover every audited store (each item says its store);
 * {@code database} and {@code current} are those of the first store; {@code stores} has each store's own figures.
 */
public record AuditResult(
        String plan_id,
        String created_at,
        String expires_at,
        String now,
        double now_epoch,
        String mode,
        String locale,
        String database,
        Totals totals,
        Current current,
        double threshold,
        Groups groups,
        List<TopicOut> repeated_topics,
        Expected expected,
        LearningState learning,
        Questions questions,
        List<StoreOut> stores,
        Retention retention,
        TopicGroups topic_groups,
        ScheduledRuns scheduled_runs,
        List<DecisionGroup> decision_groups,
        Housekeeping housekeeping) {

    /**
     * Every plan item except rule G's renames, in groups of one section (auto, ask, waiting, not_asked, status, listed,
     * along), store, rule condition, action and confidence — split by session {@code source} when the condition has more than
     * {@link DecisionGroups#SPLIT_BY_SOURCE} items (else {@code source} is null; {@code sources} counts them): one report line each.
     * {@code group_id} (q1, …): one answer for the whole group in {@code decisions.items}, set only where the group can be
     * answered (auto: reject keeps them; ask: approve/reject); it covers exactly the {@code count} items counted here.
     * {@code item_ids}: the first {@link DecisionGroups#IDS_PER_GROUP} of them ({@code left_out}: how many more; the plan
     * file holds all); {@code named}: sessions asked by name (kept before, or a deletion taking such a session along): one per group;
     * {@code takes_along}: the subagents the group's deletions take along (they follow their parent, never the group answer).
     */
    public record DecisionGroup(
            String group_id,
            String section,
            String store,
            String source,
            Map<String, Integer> sources,
            String rule,
            String condition,
            String action,
            String confidence,
            String question,
            boolean named,
            int count,
            int takes_along,
            List<Example> along_notable,
            Map<String, Integer> along_counts,
            List<Example> examples,
            List<String> item_ids,
            int left_out) {}

    /** A session shown for its group: id, title and what the rule saw (its reason without the question). */
    public record Example(String session_id, String title, String detail) {}

    /**
     * The machine-session and retention settings this audit used (rules M, T, N), Hermes' own auto-prune (rule H) and the
     * compaction chains found (each one conversation: one line in the report; {@code chain_items} capped, oldest first).
     */
    public record Housekeeping(
            Map<String, Double> machine_idle_hours,
            double cron_retention_days,
            HermesPrune hermes_prune,
            int chains,
            List<ChainOut> chain_items,
            int chains_left_out,
            List<String> warnings) {}

    /**
     * Hermes' {@code sessions.auto_prune}: whether it is on, its retention and interval, when it last ran
     * ({@code state_meta.last_auto_prune}), when it runs next (the first Hermes start after {@code next_run_after}; null: at
     * the next start), how many ended sessions it deletes then ({@code due}, rule H items) and how many more within the
     * following 7 days ({@code due_within_7_days}, the first on {@code next_due_at}).
     */
    public record HermesPrune(
            boolean enabled,
            double retention_days,
            double min_interval_hours,
            String last_run_at,
            String next_run_after,
            int due,
            int due_within_7_days,
            String next_due_at) {}

    /**
     * A compaction chain: its answer id ({@code c1}, …; never a session id), title, members oldest first, and what the
     * plan does with it.
     */
    public record ChainOut(
            String chain_id, String title, int size, List<String> session_ids, String action, String confidence) {}

    /**
     * What the scheduled housekeeping ({@code steward schedule}) did since the last interactive audit reported it: runs,
     * sessions deleted (rule A only), the backups to restore from, and runs that were refused or failed. Null when none ran.
     */
    public record ScheduledRuns(
            int runs,
            String first_at,
            String last_at,
            int executed,
            int deleted,
            List<String> backups,
            List<String> problems) {}

    /**
     * Topic grouping advice: clusters of sessions on one topic among the newest {@code considered} visible sessions of each
     * home, each with the way to show them together (title prefix renames, a new Hermes Project, the Project that already
     * does, or the Claude Code project that already does),
     * and the Hermes Projects found ({@code projects_source}: projects.db or state.db, null when none).
     */
    public record TopicGroups(
            int count,
            List<TopicGroup> items,
            int left_out,
            int considered,
            String projects_source,
            List<String> projects,
            String warning) {}

    /** {@code store}: the home of its sessions (hermes: {@code g1…}; claude: {@code c1…}). */
    public record TopicGroup(
            String cluster_id,
            String store,
            String label,
            int size,
            List<String> session_ids,
            String newest_activity,
            GroupAdvice advice) {}

    /**
     * {@code renames} of a Hermes group are rule G plan items: approve them by item_id, by cluster_id, or all with rule G; those
     * of a Claude Code group are suggestions ({@code item_id} null) for the user's {@code /rename}. {@code kind}
     * {@code claude_project}: the group's Claude Code project (one working directory, {@code project_path}) already lists it.
     */
    public record GroupAdvice(
            String kind,
            String why,
            String prefix,
            String project_path,
            String project_name,
            int gathers,
            List<String> gathers_others,
            List<Rename> renames) {}

    public record Rename(String item_id, String session_id, String from, String to) {}

    /**
     * Rule K in this audit: the keep-days setting and where it came from, how many finished subagents it kept because they
     * are younger or continuable, and when the next young one becomes eligible for deletion.
     */
    public record Retention(
            double keep_days,
            String keep_days_from,
            int kept_young,
            int kept_continuable,
            String next_eligible_at,
            List<String> warnings) {}

    /** The learning store as this audit used it: ok, absent (nothing learned yet) or corrupt (learning paused, file untouched). */
    public record LearningState(String status, String error, String rule_state) {}

    public record Totals(int all, int active, int ended, int archived) {}

    public record Current(String session_id, String found_by) {}

    /** {@code project}: the Claude Code project directory (null for Hermes); {@code message_count_exact}: false when estimated. */
    public record Evidence(
            String source,
            String title,
            int message_count,
            String started_at,
            double started_at_epoch,
            String last_activity,
            double last_activity_epoch,
            String ended_at,
            Double ended_at_epoch,
            String end_reason,
            boolean archived,
            String parent,
            int children,
            String project,
            boolean message_count_exact) {}

    /** {@code question}: new (asked by name in this report), grouped (in one line per rule condition), waiting (asked before,
     * unanswered), collapsed (in one line per rule), status (only in a status line: not asked),
     * later (the user said 'later'), not_asked (over this run's question cap); null when nothing is asked (automatic, report only, kept).
     * {@code takes_along}: the subagents this deletion would take along that would not go on their own (why it is asked). */
    public record Item(
            String item_id,
            String session_id,
            String rule,
            String condition,
            String action,
            String confidence,
            boolean executable,
            String reason,
            String cascade_of,
            String question,
            List<String> takes_along,
            Evidence evidence,
            String store,
            String cluster_id,
            String chain) {}

    public record Group(int count, List<Item> items, int left_out) {}

    public record RuleGroup(String rule, String summary, int count, List<Item> items, int left_out) {}

    public record Groups(
            Group auto,
            List<RuleGroup> confirm,
            Group info,
            Group waiting,
            List<RuleGroup> collapsed,
            Group not_asked,
            Group retained) {}

    /**
     * What this report asks: {@code asked} = lines that ask something (each question by name, each grouped line, the waiting
     * line, each collapsed rule); the others count items. {@code status}: items shown only in a status line (rule D's warning
     * after its collapsed line went unanswered): not asked.
     */
    public record Questions(
            int asked,
            int listed,
            int grouped,
            int waiting,
            int later,
            int collapsed,
            int not_asked,
            int status,
            int cap,
            String digest) {}

    public record TopicOut(String topic, int count, List<String> session_ids) {}

    public record Expected(
            int active_before,
            int active_after_auto,
            int active_after_all_approved,
            int total_before,
            int total_after_auto,
            int total_after_all_approved) {}

    /**
     * One audited store: where it is, its totals, current session and expected figures; for Claude Code the idle
     * time used, its projects (busiest first, capped) and what could not be read.
     */
    public record StoreOut(
            String store,
            String location,
            Totals totals,
            Current current,
            Expected expected,
            Double idle_hours,
            List<ProjectOut> projects,
            int projects_left_out,
            List<String> warnings) {}

    /** A Claude Code project: its directory name, working directory (from its transcripts), sessions, live ones, items. */
    public record ProjectOut(String project, String cwd, int sessions, int live, int subagents, int items) {}
}
