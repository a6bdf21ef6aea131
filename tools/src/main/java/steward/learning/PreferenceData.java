package steward.learning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The learning store's content ({@code <state dir>/preferences.json}), in the seed's structure:
 * session level, rule level (per rule condition such as {@code B.long}), topic level, contradictions,
 * the active threshold N, a short history of runs and a log of changes made through
 * {@code session_preferences}. Field names are the file's names.
 */
public final class PreferenceData {
    public static final int VERSION = 1;
    public static final int MAX_RUNS = 20;
    public static final int MAX_CHANGES = 50;

    public int version = VERSION;
    public int run_count;
    public SessionLevel session_level = new SessionLevel();
    public Map<String, RuleState> rule_level = new TreeMap<>();
    public TopicLevel topic_level = new TopicLevel();
    public List<Contradiction> feedback_contradictions = new ArrayList<>();
    public double active_threshold = 3;
    public List<Run> runs = new ArrayList<>();
    public List<Change> changes = new ArrayList<>();

    public static final class SessionLevel {
        public List<SessionEntry> retain = new ArrayList<>();
        public List<SessionEntry> delete = new ArrayList<>();
        public Map<String, SessionEntry> rename = new TreeMap<>();
    }

    public static final class SessionEntry {
        public String id;
        public String title;
        public String rule;
        public String date;

        public SessionEntry() {}

        public SessionEntry(String id, String title, String rule, String date) {
            this.id = id;
            this.title = title;
            this.rule = rule;
            this.date = date;
        }
    }

    /** What the user did with one rule condition's recommendations. */
    public static final class RuleState {
        public String base_level;
        public int approvals;
        public int vetoes;
        public int auto_runs;
        public int extra_deletions;
        public int contradictions;
        public int runs_with_decisions;
        public int last_run;
        public String last_decision;
        public boolean locked;
    }

    public static final class TopicLevel {
        public List<ReportedTopic> reported_topics = new ArrayList<>();
        public List<ConsolidatedTopic> consolidated = new ArrayList<>();
    }

    public static final class ReportedTopic {
        public List<String> query_keywords = new ArrayList<>();
        public String match;
        public String session_id;
        public String user_choice;
        public String date;
    }

    public static final class ConsolidatedTopic {
        public String topic;
        public String date;

        public ConsolidatedTopic() {}

        public ConsolidatedTopic(String topic, String date) {
            this.topic = topic;
            this.date = date;
        }
    }

    public static final class Contradiction {
        public String condition;
        public int run;
        public String date;
        public String detail;
    }

    public static final class Run {
        public int run;
        public String date;
        public String plan_id;
        public int executed;
        public int approvals;
        public int vetoes;
        public List<String> summary = new ArrayList<>();
    }

    public static final class Change {
        public String date;
        public String action;
        public String detail;

        public Change() {}

        public Change(String date, String action, String detail) {
            this.date = date;
            this.action = action;
            this.detail = detail;
        }
    }

    public void logChange(String date, String action, String detail) {
        changes.add(new Change(date, action, detail));
        while (changes.size() > MAX_CHANGES) changes.remove(0);
    }
}
