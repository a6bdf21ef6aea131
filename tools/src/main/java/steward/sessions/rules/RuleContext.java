package steward.sessions.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import steward.learning.Preferences;
import steward.sessions.store.SessionRow;
import steward.text.TitleAnalyzer;

/**
 * Everything the rules may look at besides the session itself: the time, the current session, the
 * active count and threshold N, lineage (children, live continuation chains), repeated title topics
 * and the user's preferences. Built once per audit from the full session listing.
 */
public final class RuleContext {
    public static final double DEFAULT_THRESHOLD = 3;
    public static final double MIN_THRESHOLD = 2;
    public static final double MAX_THRESHOLD = 6;
    public static final double STALE_SECONDS = 3 * 86400.0;

    private final double now;
    private final String currentSessionId;
    private final int activeCount;
    private final double threshold;
    private final Map<String, SessionRow> byId;
    private final Map<String, Integer> activeByGroup;
    private final Map<String, List<SessionRow>> children;
    private final Set<String> liveChain;
    private final List<Topic> topics;
    private final Map<String, Topic> topicBySession;
    private final Preferences preferences;

    /** A title keyword (or co-occurring keyword phrase) shared by ≥ 2 active titled sessions. */
    public record Topic(String label, List<String> sessionIds) {
        public int count() {
            return sessionIds.size();
        }
    }

    private RuleContext(double now, String currentSessionId, Collection<SessionRow> sessions, Preferences prefs) {
        this.now = now;
        this.currentSessionId = currentSessionId;
        this.preferences = prefs == null ? Preferences.empty() : prefs;
        this.byId = new HashMap<>();
        this.children = new HashMap<>();
        this.activeByGroup = new HashMap<>();
        int active = 0;
        for (SessionRow s : sessions) {
            byId.put(s.id(), s);
            if (s.active()) active++;
            if (s.active() && s.group() != null && !s.subagent()) activeByGroup.merge(s.group(), 1, Integer::sum);
        }
        for (SessionRow s : sessions) {
            String parent = s.parentSessionId();
            String df = delegateFrom(s);
            if (parent != null) children.computeIfAbsent(parent, k -> new ArrayList<>()).add(s);
            if (df != null && !df.equals(parent)) children.computeIfAbsent(df, k -> new ArrayList<>()).add(s);
        }
        this.activeCount = active;
        this.threshold = Math.max(MIN_THRESHOLD, Math.min(MAX_THRESHOLD, this.preferences.activeThreshold()));
        this.liveChain = new HashSet<>();
        Map<String, Boolean> memo = new HashMap<>();
        for (SessionRow s : sessions) {
            if (continued(s) && hasLiveContinuation(s, memo, new HashSet<>())) liveChain.add(s.id());
        }
        this.topics = new ArrayList<>();
        this.topicBySession = new HashMap<>();
        findTopics(sessions);
    }

    public static RuleContext of(double now, String currentSessionId, Collection<SessionRow> sessions, Preferences prefs) {
        return new RuleContext(now, currentSessionId, sessions, prefs);
    }

    /** A continuation child is live when it is active, titled (never auto-deleted) or itself heads a live chain. */
    private boolean hasLiveContinuation(SessionRow s, Map<String, Boolean> memo, Set<String> visiting) {
        Boolean known = memo.get(s.id());
        if (known != null) return known;
        if (!visiting.add(s.id())) return false;
        boolean live = false;
        if (continued(s)) {
            for (SessionRow c : children.getOrDefault(s.id(), List.of())) {
                if (c.subagent() || !s.id().equals(c.parentSessionId())) continue;
                if (c.active() || !c.untitled() || hasLiveContinuation(c, memo, visiting)) {
                    live = true;
                    break;
                }
            }
        }
        memo.put(s.id(), live);
        return live;
    }

    /** {@code model_config._delegate_from}: a plain scan for Hermes' own shape, the JSON parser otherwise. */
    static String delegateFrom(SessionRow s) {
        String mc = s.modelConfig();
        if (mc == null) return null;
        int k = mc.indexOf("\"_delegate_from\"");
        if (k < 0) return null;
        int colon = mc.indexOf(':', k + 16);
        int q1 = colon < 0 ? -1 : mc.indexOf('"', colon);
        int q2 = q1 < 0 ? -1 : mc.indexOf('"', q1 + 1);
        if (q1 > 0 && q2 > q1 && mc.substring(colon + 1, q1).isBlank()) {
            String v = mc.substring(q1 + 1, q2);
            if (v.indexOf('\\') < 0) return v;
        }
        return s.delegateFrom();
    }

    private static boolean continued(SessionRow s) {
        return "compression".equals(s.endReason()) || "branched".equals(s.endReason());
    }

    private void findTopics(Collection<SessionRow> sessions) {
        // token -> sessions whose title has it, among active titled sessions, in a stable order
        Map<String, List<String>> bearers = new LinkedHashMap<>();
        List<SessionRow> titled = sessions.stream().filter(s -> s.active() && !s.untitled())
                .sorted((a, b) -> a.id().compareTo(b.id())).toList();
        for (SessionRow s : titled) {
            for (String t : TitleAnalyzer.tokens(s.title())) bearers.computeIfAbsent(t, k -> new ArrayList<>()).add(s.id());
        }
        // tokens with the same bearer set form one phrase ("claude code"), joined in first-title order
        Map<List<String>, List<String>> phrases = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : bearers.entrySet()) {
            if (e.getValue().size() < 2) continue;
            phrases.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        }
        for (Map.Entry<List<String>, List<String>> e : phrases.entrySet()) {
            List<String> ids = e.getKey();
            List<String> toks = new ArrayList<>(e.getValue());
            String first = byId.get(ids.get(0)).title().toLowerCase(java.util.Locale.ROOT);
            toks.sort((a, b) -> Integer.compare(first.indexOf(a), first.indexOf(b)));
            StringBuilder label = new StringBuilder();
            String prev = null;
            for (String t : toks) {
                if (prev != null && !(TitleAnalyzer.cjkToken(prev) && TitleAnalyzer.cjkToken(t))) label.append(' ');
                if (prev != null && TitleAnalyzer.cjkToken(prev) && TitleAnalyzer.cjkToken(t) && prev.endsWith(t.substring(0, 1))) {
                    label.append(t.substring(1)); // bigram overlap: 搜索 + 索咨 -> 搜索咨
                } else {
                    label.append(t);
                }
                prev = t;
            }
            if (preferences.consolidated(label.toString())) continue; // the user said it is in memory or a skill already
            Topic topic = new Topic(label.toString(), List.copyOf(ids));
            topics.add(topic);
        }
        topics.sort((a, b) -> b.count() != a.count() ? Integer.compare(b.count(), a.count()) : a.label().compareTo(b.label()));
        for (Topic t : topics) for (String id : t.sessionIds()) topicBySession.putIfAbsent(id, t);
    }

    public double now() {
        return now;
    }

    public String currentSessionId() {
        return currentSessionId;
    }

    public boolean isCurrent(SessionRow s) {
        return s.id().equals(currentSessionId);
    }

    public int activeCount() {
        return activeCount;
    }

    /**
     * The active sessions rule D weighs against N for {@code s}: those of its group (the live sessions of its Claude
     * Code project, subagents not counted), or all active sessions of a home without groups (Hermes).
     */
    public int activeCount(SessionRow s) {
        return s.group() == null ? activeCount : activeByGroup.getOrDefault(s.group(), 0);
    }

    /** N: rule D applies while more than N sessions are active (learned within 2–6; may be fractional, e.g. 3.5). */
    public double threshold() {
        return threshold;
    }

    public SessionRow session(String id) {
        return byId.get(id);
    }

    /** Sessions whose parent (or {@code _delegate_from}) is {@code id}. */
    public List<SessionRow> children(String id) {
        return children.getOrDefault(id, List.of());
    }

    /** Subagent children, which Hermes deletes together with their parent. */
    public List<SessionRow> subagentChildren(String id) {
        List<SessionRow> c = children.get(id);
        if (c == null) return List.of();
        return c.stream().filter(SessionRow::subagent).toList();
    }

    public boolean hasLiveDescendant(SessionRow s) {
        return liveChain.contains(s.id());
    }

    public List<Topic> topics() {
        return topics;
    }

    /** The most repeated topic of this session's title, if any. */
    public Topic topicOf(SessionRow s) {
        return topicBySession.get(s.id());
    }

    public Preferences preferences() {
        return preferences;
    }
}
