package steward.sessions.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import steward.config.HousekeepingSettings;
import steward.config.StewardSettings;
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
    private final double subagentKeepDays;
    private final HousekeepingSettings housekeeping;
    private final Double lastAutoPrune;
    private final Set<String> unreadSettingRules;
    private final Map<String, String> chainOf;
    private final Map<String, List<String>> chains;

    /** A title keyword (or co-occurring keyword phrase) shared by ≥ 2 active titled sessions. */
    public record Topic(String label, List<String> sessionIds) {
        public int count() {
            return sessionIds.size();
        }
    }

    private RuleContext(
            double now,
            String currentSessionId,
            Collection<SessionRow> sessions,
            Preferences prefs,
            double subagentKeepDays,
            HousekeepingSettings housekeeping,
            Double lastAutoPrune,
            Set<String> unreadSettings) {
        this.now = now;
        this.unreadSettingRules = rulesDependingOn(unreadSettings);
        this.subagentKeepDays = subagentKeepDays;
        this.housekeeping = housekeeping == null ? HousekeepingSettings.defaults() : housekeeping;
        this.lastAutoPrune = lastAutoPrune;
        this.currentSessionId = currentSessionId;
        this.preferences = prefs == null ? Preferences.empty() : prefs;
        this.byId = new HashMap<>(Math.max(16, (int) (sessions.size() / 0.75f) + 1));
        this.children = new HashMap<>();
        this.activeByGroup = new HashMap<>();
        int active = 0;
        for (SessionRow s : sessions) {
            byId.put(s.id(), s);
            // machine sessions (cron, gateway, api, subagent runs) are not the user's conversations: rule D never
            // counts them
            if (s.active() && !MachineSessions.machine(s)) active++;
            if (s.active() && s.group() != null && !s.subagent()) activeByGroup.merge(s.group(), 1, Integer::sum);
        }
        for (SessionRow s : sessions) {
            String parent = s.parentSessionId();
            String df = delegateFrom(s);
            if (parent != null)
                children.computeIfAbsent(parent, k -> new ArrayList<>()).add(s);
            if (df != null && !df.equals(parent))
                children.computeIfAbsent(df, k -> new ArrayList<>()).add(s);
        }
        this.activeCount = active;
        this.threshold = Math.max(MIN_THRESHOLD, Math.min(MAX_THRESHOLD, this.preferences.activeThreshold()));
        this.liveChain = new HashSet<>();
        Map<String, Boolean> memo = new HashMap<>();
        for (SessionRow s : sessions) {
            if (continued(s) && hasLiveContinuation(s, memo, new HashSet<>())) liveChain.add(s.id());
        }
        this.chainOf = new HashMap<>();
        this.chains = new LinkedHashMap<>();
        findChains(sessions);
        this.topics = new ArrayList<>();
        this.topicBySession = new HashMap<>();
        findTopics(sessions);
    }

    public static RuleContext of(
            double now, String currentSessionId, Collection<SessionRow> sessions, Preferences prefs) {
        return of(now, currentSessionId, sessions, prefs, StewardSettings.DEFAULT_SUBAGENT_KEEP_DAYS);
    }

    /** With the subagent keep-days setting ({@code steward.subagent_keep_days}; 0 = no grace period). */
    public static RuleContext of(
            double now,
            String currentSessionId,
            Collection<SessionRow> sessions,
            Preferences prefs,
            double subagentKeepDays) {
        return new RuleContext(now, currentSessionId, sessions, prefs, subagentKeepDays, null, null, Set.of());
    }

    /**
     * With every housekeeping setting: the subagent keep-days, the machine idle times, the cron retention and Hermes' own
     * auto-prune (from config.yaml), when Hermes last ran it ({@code state_meta.last_auto_prune}, null: never), and the
     * config.yaml keys whose value is there but could not be read ({@code StewardConfig.unread()}).
     */
    public static RuleContext of(
            double now,
            String currentSessionId,
            Collection<SessionRow> sessions,
            Preferences prefs,
            double subagentKeepDays,
            HousekeepingSettings housekeeping,
            Double lastAutoPrune,
            Set<String> unreadSettings) {
        return new RuleContext(
                now, currentSessionId, sessions, prefs, subagentKeepDays, housekeeping, lastAutoPrune, unreadSettings);
    }

    /** The rules whose {@link RuleMeta#settings()} name one of these keys (or a prefix of one). */
    private static Set<String> rulesDependingOn(Set<String> unread) {
        if (unread == null || unread.isEmpty()) return Set.of();
        Set<String> out = new HashSet<>();
        for (Rule r : Rules.ORDERED) {
            for (String prefix : r.meta().settings()) {
                for (String key : unread) {
                    if (key.equals(prefix) || key.startsWith(prefix + ".")) out.add(r.id());
                }
            }
        }
        return Set.copyOf(out);
    }

    /** Whether a setting this rule depends on is in config.yaml but could not be read (rule S caps its verdicts). */
    public boolean settingUnread(String ruleId) {
        return unreadSettingRules.contains(ruleId);
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
        String today =
                java.time.LocalDate.ofEpochDay((long) Math.floor(now / 86400.0)).toString();
        // token -> sessions whose title has it, among active titled interactive sessions, in a stable order
        Map<String, List<String>> bearers = new LinkedHashMap<>();
        List<SessionRow> titled = sessions.stream()
                // machine sessions (cron runs, gateway threads, API requests, subagents) repeat their job's title by
                // design:
                // they are no topic the user keeps coming back to
                .filter(s -> s.active() && !s.untitled() && !MachineSessions.machine(s))
                .sorted((a, b) -> a.id().compareTo(b.id()))
                .toList();
        for (SessionRow s : titled) {
            for (String t : TitleAnalyzer.tokens(s.title()))
                bearers.computeIfAbsent(t, k -> new ArrayList<>()).add(s.id());
        }
        // tokens with the same bearer set form one phrase ("claude code"), joined in first-title order
        Map<List<String>, List<String>> phrases = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : bearers.entrySet()) {
            if (e.getValue().size() < 2) continue;
            // the sessions of one compaction chain are one conversation, never duplicates of each other
            if (e.getValue().stream().map(this::chainKey).distinct().count() < 2) continue;
            phrases.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        }
        for (Map.Entry<List<String>, List<String>> e : phrases.entrySet()) {
            List<String> ids = e.getKey();
            List<String> toks = new ArrayList<>(e.getValue());
            String first = byId.get(ids.get(0)).title().toLowerCase(Locale.ROOT);
            toks.sort((a, b) -> Integer.compare(first.indexOf(a), first.indexOf(b)));
            StringBuilder label = new StringBuilder();
            String prev = null;
            for (String t : toks) {
                if (prev != null && !(TitleAnalyzer.cjkToken(prev) && TitleAnalyzer.cjkToken(t))) label.append(' ');
                if (prev != null
                        && TitleAnalyzer.cjkToken(prev)
                        && TitleAnalyzer.cjkToken(t)
                        && prev.endsWith(t.substring(0, 1))) {
                    label.append(t.substring(1)); // bigram overlap: 搜索 + 索咨 -> 搜索咨
                } else {
                    label.append(t);
                }
                prev = t;
            }
            // the user already answered it (consolidated, or not yet within 30 days), also under another label of the
            // same words
            if (preferences.topicAnswered(label.toString(), toks, today)) continue;
            Topic topic = new Topic(label.toString(), List.copyOf(ids));
            topics.add(topic);
        }
        topics.sort((a, b) -> b.count() != a.count()
                ? Integer.compare(b.count(), a.count())
                : a.label().compareTo(b.label()));
        for (Topic t : topics) for (String id : t.sessionIds()) topicBySession.putIfAbsent(id, t);
    }

    /**
     * Compaction chains: a session continued from a parent that ended with Hermes' {@code compression} end reason (not a
     * subagent, branch or tool child, as Hermes' {@code get_compression_lineage}) forms one chain with it. Numbered titles
     * ("… #2", Hermes' {@code get_next_title_in_lineage}) alone never make a chain: the user, a cron job or Steward's own
     * topic renames ("[Weekly report] #2") number titles of unrelated sessions, and Hermes' own continuations carry the
     * parent link anyway.
     */
    private void findChains(Collection<SessionRow> sessions) {
        Map<String, String> up = new HashMap<>();
        for (SessionRow s : sessions) {
            SessionRow p = s.parentSessionId() == null ? null : byId.get(s.parentSessionId());
            if (p == null || !"compression".equals(p.endReason()) || s.subagent() || "tool".equals(s.source()))
                continue;
            if (delegateFrom(s) != null
                    || (s.modelConfig() != null && s.modelConfig().contains("\"_branched_from\""))) continue;
            union(up, s.id(), p.id());
        }
        Map<String, List<SessionRow>> members = new HashMap<>();
        for (String id : up.keySet())
            members.computeIfAbsent(find(up, id), k -> new ArrayList<>()).add(byId.get(id));
        List<List<SessionRow>> all = new ArrayList<>(members.values());
        for (List<SessionRow> l : all)
            l.sort(Comparator.comparingDouble(SessionRow::startedAt).thenComparing(SessionRow::id));
        all.sort(Comparator.comparingDouble((List<SessionRow> l) -> l.get(0).startedAt())
                .thenComparing(l -> l.get(0).id()));
        for (List<SessionRow> l : all) {
            if (l.size() < 2) continue;
            String id = l.get(0).id();
            List<String> ids = l.stream().map(SessionRow::id).toList();
            chains.put(id, ids);
            for (String m : ids) chainOf.put(m, id);
        }
    }

    private static void union(Map<String, String> up, String a, String b) {
        String ra = find(up, a), rb = find(up, b);
        if (!ra.equals(rb)) up.put(ra, rb);
    }

    private static String find(Map<String, String> up, String a) {
        up.putIfAbsent(a, a);
        String r = a;
        while (!up.get(r).equals(r)) r = up.get(r);
        while (!up.get(a).equals(r)) {
            String n = up.get(a);
            up.put(a, r);
            a = n;
        }
        return r;
    }

    private String chainKey(String id) {
        return chainOf.getOrDefault(id, id);
    }

    /** The compaction chain a session belongs to (the id of its oldest member), or null when it is in none. */
    public String chainOf(String id) {
        return chainOf.get(id);
    }

    /** Every compaction chain of two or more sessions: chain id (its oldest member) to members, oldest first. */
    public Map<String, List<String>> chains() {
        return chains;
    }

    /** The machine idle times, cron retention and Hermes' auto-prune settings. */
    public HousekeepingSettings housekeeping() {
        return housekeeping;
    }

    /** When Hermes last ran its auto-prune ({@code state_meta.last_auto_prune}), null when never or unknown. */
    public Double lastAutoPrune() {
        return lastAutoPrune;
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

    /** How many days a finished subagent is kept before rule A may delete it (rule K). */
    public double subagentKeepDays() {
        return subagentKeepDays;
    }
}
