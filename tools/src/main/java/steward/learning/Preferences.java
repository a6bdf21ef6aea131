package steward.learning;

import java.time.LocalDate;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import steward.learning.rules.PromotionRule;
import steward.learning.rules.SettledTopicsRule;
import steward.text.TitleAnalyzer;

/**
 * What the rule engine may ask of the learning store (rule F and rule D's threshold). A store that could
 * not be read yields no preferences at all — learning is paused — and says so in {@link #problem()}.
 */
public final class Preferences {
    private final PreferenceData data;
    private final String problem;
    /** Session ids kept / asked to delete, as sets: rule F asks once per session, so a list scan would be O(sessions × preferences). */
    private final Set<String> kept = new HashSet<>();

    private final Map<String, PreferenceData.SessionMark> deleted = new HashMap<>();

    private final Map<String, String> renamed = new HashMap<>(), rejectedOn = new HashMap<>();
    private final Map<String, PreferenceData.Waiting> waiting = new HashMap<>();

    public Preferences(PreferenceData data, String problem) {
        this.data = problem == null ? data : new PreferenceData();
        this.problem = problem;
        for (var m : this.data.session_level.retain) kept.add(m.id);
        for (var m : this.data.session_level.delete) deleted.put(m.id, m);
        for (var m : this.data.session_level.rename) renamed.put(m.id, m.title);
        if (this.data.session_level.rejected != null)
            for (var m : this.data.session_level.rejected)
                rejectedOn.merge(m.id, m.date, (a, b) -> a.compareTo(b) >= 0 ? a : b);
        if (this.data.waiting != null) for (var w : this.data.waiting) waiting.put(waitingKey(w.session_id, w.key), w);
    }

    static String waitingKey(String sessionId, String key) {
        return sessionId + "|" + key;
    }

    public static Preferences empty() {
        return new Preferences(new PreferenceData(), null);
    }

    public String problem() {
        return problem;
    }

    public boolean kept(String sessionId) {
        return kept.contains(sessionId);
    }

    /** The user renamed it instead of letting housekeeping delete it (kept under its new name). */
    public boolean renamed(String sessionId) {
        return renamed.containsKey(sessionId);
    }

    /**
     * The day the user last rejected, restored or renamed this session, if within the kept window: such a session is
     * never deleted without being asked about by name. Null otherwise.
     */
    public String keptOn(String sessionId) {
        return rejectedOn.get(sessionId);
    }

    /** Kept by name: in kept_ids, renamed, or rejected within the kept window. */
    public boolean protectedSession(String sessionId) {
        return kept.contains(sessionId) || renamed.containsKey(sessionId) || rejectedOn.containsKey(sessionId);
    }

    /** The question about this session under this rule condition that is still waiting for an answer, if any. */
    public PreferenceData.Waiting waiting(String sessionId, String key) {
        return waiting.get(waitingKey(sessionId, key));
    }

    /** A condition gone quiet: the user always kept its items; they are listed, not asked. */
    public boolean quiet(String key) {
        PreferenceData.RuleState s = data.rule_level.get(key);
        return s != null && s.quiet && !s.locked;
    }

    /** Consecutive runs in which rule D's questions were all left unanswered. */
    public int warningIgnoredRuns() {
        return data.warning_ignored_runs;
    }

    /**
     * The user's request to delete this session (approved when it could not run), with the session as they saw it then;
     * null when none.
     */
    public PreferenceData.SessionMark deleteRequest(String sessionId) {
        return deleted.get(sessionId);
    }

    /**
     * The session is as the user saw it when they asked to delete it: same title (or untitled), messages, newest activity
     * and state, and the request has nothing this build does not understand (a newer Steward's condition on it would
     * narrow it: such a request does not act).
     */
    public static boolean asSeen(PreferenceData.SessionMark asked, Listing.Now s) {
        if (asked == null || asked.messages == null || asked.last_activity == null || asked.ended == null) return false;
        if (!asked.unknown.isEmpty()) return false;
        boolean titled = asked.title != null && !asked.title.isBlank();
        boolean untitledNow = s.title() == null || s.title().isBlank();
        return asked.messages == s.messages()
                && Math.abs(asked.last_activity - s.lastActivity()) < 0.001
                && asked.ended == s.ended()
                && titled != untitledNow
                && (!titled || asked.title.equals(s.title()));
    }

    public double activeThreshold() {
        return data.active_threshold;
    }

    public boolean consolidated(String topic) {
        String t = topic.toLowerCase(Locale.ROOT);
        return data.topic_level.consolidated.stream()
                .anyMatch(m -> m.topic.toLowerCase(Locale.ROOT).equals(t));
    }

    /**
     * Whether the user already answered this topic — the same cluster under any label: every word of {@code words} (the
     * topic's title words) is a word of topics they said are consolidated, or of topics they said are not consolidated yet
     * within the last {@link PreferenceData#TOPIC_NOT_YET_DAYS} days ({@code today}: yyyy-MM-dd). "react" and "hooks"
     * answered, "react hooks" is not raised again.
     */
    public boolean topicAnswered(String label, Collection<String> words, String today) {
        if (consolidated(label)) return true;
        if (words.isEmpty()) return false;
        if (answeredWords == null) {
            answeredWords = new HashSet<>();
            for (var m : data.topic_level.consolidated) answeredWords.addAll(TitleAnalyzer.tokens(m.topic));
            notYetWords = new HashMap<>();
            if (data.topic_level.not_yet != null) {
                for (var m : data.topic_level.not_yet) {
                    for (String w : TitleAnalyzer.tokens(m.topic))
                        notYetWords.merge(w, m.date, (a, b) -> a.compareTo(b) >= 0 ? a : b);
                }
            }
        }
        String cut = today == null
                ? null
                : LocalDate.parse(today)
                        .minusDays(PreferenceData.TOPIC_NOT_YET_DAYS)
                        .toString();
        for (String w : words) {
            if (answeredWords.contains(w)) continue;
            String on = notYetWords.get(w);
            if (on == null || cut == null || on.compareTo(cut) < 0) return false;
        }
        return true;
    }

    private Set<String> answeredWords;
    private Map<String, String> notYetWords;

    /** The learning key of a deletion question that would take a subagent along which is {@code kind} (kept, running, titled, other). */
    public static String alongKey(String rule, String kind) {
        return RuleKey.of(rule, RuleKey.ALONG_PREFIX + kind);
    }

    /**
     * A deletion question whose subagents it would take along are all of kinds the user always answered "keep both" for
     * (QuietRule): it is listed, not asked, and both stay. Never the other way round: no answer makes a child go unasked.
     */
    public boolean alongQuiet(String rule, Collection<String> kinds) {
        if (kinds == null || kinds.isEmpty()) return false;
        for (String k : kinds) if (!quiet(alongKey(rule, k))) return false;
        return true;
    }

    /** Rule D's collapsed line went unanswered too: the warning is a status line that asks nothing. */
    public boolean warningIsStatus() {
        return data.warning_status_runs >= 1;
    }

    /** The confidence to use for a rule condition whose own confidence is {@code base}, and why it differs. */
    public record Adjusted(Level level, String note, boolean locked) {}

    public Adjusted adjust(String rule, String condition, Level base) {
        PreferenceData.RuleState s = data.rule_level.get(RuleKey.of(rule, condition));
        if (s == null) return new Adjusted(base, null, false);
        if (s.locked) {
            return new Adjusted(
                    Level.LOW,
                    "locked at LOW after contradictory decisions; not executed automatically until you trust rule "
                            + RuleKey.of(rule, condition) + " again",
                    true);
        }
        if (s.quiet && RuleKey.of(rule, condition).equals(SettledTopicsRule.RULE)) {
            return new Adjusted(
                    Level.LOW,
                    "you said every topic so far was consolidated (" + s.approvals + "): listed, no longer asked",
                    false);
        }
        if (s.quiet)
            return new Adjusted(Level.LOW, "you kept " + s.vetoes + " like this: listed, no longer asked", false);
        Level level = s.level == null ? base : s.level;
        // a level above the rule's own that the user's approvals did not reach (a hand edit, or written before
        // approvals
        // were counted per run) is not used: what runs automatically is what the user approved
        if (level.ordinal() < base.ordinal() && !approvedUpTo(s, level)) level = base;
        String note = null;
        if (level != base) {
            note = level.ordinal() < base.ordinal()
                    ? "promoted to " + level + " (you approved " + s.approvals + " similar ones)"
                    : (s.vetoes >= 2 ? "you kept similar ones before" : "lowered to " + level);
        }
        if (s.vetoes > 0 && level == Level.HIGH) {
            level = Level.MEDIUM; // HIGH needs no veto, ever
            note = s.vetoes >= 2 ? "you kept similar ones before" : "you kept one like this before";
        }
        return new Adjusted(level, note, false);
    }

    /** The approvals promotion needs for {@code level}: MEDIUM one, HIGH two, in two runs (PromotionRule). */
    static boolean approvedUpTo(PreferenceData.RuleState s, Level level) {
        if (level == Level.HIGH)
            return s.approvals >= PromotionRule.APPROVALS_FOR_HIGH && s.approval_runs >= PromotionRule.RUNS_FOR_HIGH;
        return s.approvals >= 1;
    }

    public PreferenceData data() {
        return data;
    }
}
