package steward.learning;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The preference store's content, in the seed's structure ({@code session_level}, {@code rule_level},
 * {@code topic_level}, {@code feedback_contradictions}, {@code active_threshold}) plus a short history
 * of runs and a trail of every change made through {@code session_preferences}. Versioned.
 */
public final class PreferenceData {
    public static final int CURRENT_VERSION = 1;
    public static final double DEFAULT_THRESHOLD = 3.0;
    public static final double MIN_THRESHOLD = 2.0;
    public static final double MAX_THRESHOLD = 6.0;
    public static final int MAX_RUNS = 20;
    public static final int MAX_CHANGES = 200;
    /** How long a session the user rejected (kept, restored or renamed) is never deleted without being asked by name. */
    public static final int KEPT_WINDOW_DAYS = 90;
    /**
     * A delete request whose session is gone or changed since the user asked is dropped after this many housekeeping runs
     * in a row found it so (a session listed differently once, e.g. a Claude Code session's idle time, is not enough).
     */
    public static final int STALE_RUNS = 2;
    /** How long "later" puts off the questions still waiting. */
    public static final int LATER_DAYS = 7;
    /** How long a topic the user said is not consolidated yet is not raised again (the same cluster, under any label). */
    public static final int TOPIC_NOT_YET_DAYS = 30;

    /**
     * Properties this build does not model, at this level (each nested object has its own): a store of this version
     * written by a newer Steward, a sibling tool or a hand edit keeps them, with their values, on every rewrite.
     */
    @JsonAnySetter
    @JsonAnyGetter
    public Map<String, JsonNode> unknown = new LinkedHashMap<>();

    public int version = CURRENT_VERSION;
    public SessionLevel session_level = new SessionLevel();
    public Map<String, RuleState> rule_level = new LinkedHashMap<>();
    public TopicLevel topic_level = new TopicLevel();
    public List<Contradiction> feedback_contradictions = new ArrayList<>();
    public double active_threshold = DEFAULT_THRESHOLD;
    /** Consecutive runs in which rule D's "too many active sessions" questions were all left unanswered. */
    public int warning_ignored_runs;
    /**
     * Consecutive runs in which rule D's collapsed line (the warning at N's cap) was left unanswered too: from then on the
     * warning is a status line that asks nothing, until the user answers one of its sessions by id.
     */
    public int warning_status_runs;
    /** Questions asked by name and not answered yet: not asked again word for word, but grouped. */
    public List<Waiting> waiting = new ArrayList<>();

    public int run_count;
    public List<RunEntry> runs = new ArrayList<>();
    public List<Change> changes = new ArrayList<>();

    public static final class SessionLevel {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public List<SessionMark> retain = new ArrayList<>();
        public List<SessionMark> delete = new ArrayList<>();
        public List<SessionMark> rename = new ArrayList<>();
        /** Every rejection, restore or rename of the last {@link #KEPT_WINDOW_DAYS} days (the kept window). */
        public List<SessionMark> rejected = new ArrayList<>();
    }

    public static final class Waiting {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public String session_id;
        /** The rule condition it was asked under, e.g. B/long. */
        public String key;

        public String since;
        public int runs;
        /** The user said "later": not shown until this day (yyyy-MM-dd); null when not put off. */
        public String later_until;
    }

    public static final class SessionMark {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public String id;
        public String title;
        public String date;
        public String rule;
        /**
         * For a deletion the user asked for: the session as they saw it (message count, newest activity, ended). The request
         * holds only while the session is still so; null in older stores (then it does not hold: the rules ask again).
         */
        public Integer messages;

        public Double last_activity;
        public Boolean ended;

        /**
         * A delete request that can no longer act: since this day (yyyy-MM-dd) the runs found its session {@code gone} or
         * {@code changed} since the user saw it. Null while it holds. Dropped, with a change record, once stale in
         * {@link #STALE_RUNS} runs in a row; never turned into a deletion of anything else.
         */
        public String stale_since;

        public String stale_reason;
        /** Runs in a row that found it stale (0 while it holds). */
        public int stale_runs;

        public SessionMark() {}

        public SessionMark(String id, String title, String date, String rule) {
            this.id = id;
            this.title = title;
            this.date = date;
            this.rule = rule;
        }
    }

    public static final class RuleState {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public String rule;
        public String condition;
        /** The rule's own confidence for this condition, before any learning. */
        public Level base_level;
        /** The learned confidence. */
        public Level level;

        public int approvals;
        public int vetoes;
        public int extra_deletes;
        public int unanswered;
        /** Items of this condition that ran automatically (never counted as approvals: silence is not approval). */
        public int auto_runs;
        /** Automatic executions the user took back with session_restore (each is also a veto). */
        public int restores;
        /** Approved deletions the user restored (each takes its approval back: Outcome.WITHDRAWN). */
        public int withdrawn;
        /** Items the user renamed instead (an answer, neither approval nor veto). */
        public int renames;

        public int runs;
        /**
         * Runs with at least one explicit approval: promotion needs approvals in two of them (a run the user left
         * unanswered is no approval, so it never completes a promotion). Absent in older stores: 0, so a condition
         * approved there needs approvals in two runs again before it runs automatically.
         */
        public int approval_runs;
        /** "+" when the last decided run approved, "-" when it vetoed; null before any. */
        public String last_polarity;

        public int contradictions;
        public boolean locked;
        /** Rejected again and again, never approved (or not since the last approval): listed, no longer asked (QuietRule). */
        public boolean quiet;
        /** Vetoes since the last explicit approval (all of them when never approved). */
        public int vetoes_since_approval;
        /** Learning passes (runs or restores) with a veto since the last explicit approval. */
        public int veto_runs_since_approval;
        /** Rule E: topics the user said are not consolidated yet (SettledTopicsRule: one keeps rule E asked). */
        public int not_yet;

        public String updated;
    }

    public static final class TopicLevel {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public List<TopicChoice> precheck = new ArrayList<>();
        public List<TopicMark> consolidated = new ArrayList<>();
        /** Topics the user said are not consolidated yet: not raised again for {@link #TOPIC_NOT_YET_DAYS} days. */
        public List<TopicMark> not_yet = new ArrayList<>();
    }

    public static final class TopicChoice {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public String topic;
        public String choice;
        public String session_id;
        public String date;
    }

    public static final class TopicMark {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public String topic;
        public String date;

        public TopicMark() {}

        public TopicMark(String topic, String date) {
            this.topic = topic;
            this.date = date;
        }
    }

    public static final class Contradiction {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public String rule_key;
        public String date;
        public String detail;
    }

    public static final class RunEntry {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public int run;
        public String date;
        public String plan_id;
        public int decisions;
        public List<String> summary = new ArrayList<>();
    }

    public static final class Change {
        /** Properties this build does not model: kept as they are on every rewrite ({@link PreferenceData#unknown}). */
        @JsonAnySetter
        @JsonAnyGetter
        public Map<String, JsonNode> unknown = new LinkedHashMap<>();

        public String date;
        public String action;
        public String detail;
    }
}
