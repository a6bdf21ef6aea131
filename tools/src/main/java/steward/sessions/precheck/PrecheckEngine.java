package steward.sessions.precheck;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.sessions.audit.Times;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.SessionHomes;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionSource;
import steward.text.TitleAnalyzer;

/**
 * {@code session_precheck} (L0): before the agent opens a new session, find active titled sessions
 * on the same topic, newest activity first (Hermes lists by start time, which buries old sessions
 * used recently). One shared keyword is a weak match; two, or a repeated-title chain, is strong. A Chinese word
 * shared as several overlapping bigrams counts once ({@link TitleAnalyzer#sharedWords}).
 */
public final class PrecheckEngine {
    public static final int MAX_KEYWORDS = 5;
    public static final int DEFAULT_MAX_MATCHES = 10;
    public static final String DEFAULT_LOCALE = "en";
    private static final Pattern NUMBERED = Pattern.compile("\\s*#\\d+\\s*$");

    private final StewardPaths paths;
    private final Clock clock;

    public PrecheckEngine(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    public record Match(
            String session_id,
            String title,
            String source,
            String strength,
            List<String> matched_keywords,
            boolean repeated_title_chain,
            String last_activity,
            double last_activity_epoch,
            double hours_ago,
            String store,
            String project) {}

    public record Result(
            String request,
            List<String> keywords,
            int match_count,
            List<Match> matches,
            int left_out,
            String suggested_question) {}

    /** 2–5 keywords of a request: distinct tokens, preferring those that occur in active titles. */
    public static List<String> keywords(String text, Set<String> vocabulary) {
        List<String> toks = TitleAnalyzer.tokens(text);
        if (toks.size() <= MAX_KEYWORDS) return toks;
        List<String> out = new ArrayList<>();
        for (String t : toks) if (vocabulary.contains(t) && out.size() < MAX_KEYWORDS) out.add(t);
        for (String t : toks) if (!out.contains(t) && out.size() < MAX_KEYWORDS) out.add(t);
        return out;
    }

    private Path callerCwd = Path.of(System.getProperty("user.dir"));

    /** The working directory whose Claude Code project holds the current session (default: this process's). */
    public PrecheckEngine callerCwd(Path cwd) {
        this.callerCwd = cwd;
        return this;
    }

    public Result precheck(String request, Instant nowArg, String locale, int maxMatches) {
        return precheck(request, nowArg, locale, maxMatches, null);
    }

    /** {@code store}: hermes or claude; null: every home that has sessions. */
    public Result precheck(String request, Instant nowArg, String locale, int maxMatches, String storeName) {
        return precheck(request, nowArg, locale, maxMatches, storeName, null);
    }

    /**
     * As {@link #precheck(String, Instant, String, int, String)}; {@code continued}, when not null, is the session the
     * user chose to continue: one that is not in the homes searched is refused (an answer naming no session records
     * nothing).
     */
    public Result precheck(
            String request, Instant nowArg, String locale, int maxMatches, String storeName, String continued) {
        if (request == null || request.isBlank())
            throw new StewardError("session_precheck", "the request text is empty");
        double now = Times.epoch(nowArg != null ? nowArg : clock.instant());
        int cap = maxMatches <= 0 ? DEFAULT_MAX_MATCHES : maxMatches;
        boolean zh = "zh".equals(locale);
        List<SessionRow> rows = new ArrayList<>();
        for (SessionSource src : SessionHomes.open(
                paths,
                storeName,
                new ClaudeSessions.Options(now, ClaudeSessions.DEFAULT_IDLE_SECONDS, callerCwd, true),
                "session_precheck")) {
            rows.addAll(src.rows());
        }
        Map<String, Integer> baseCount = new HashMap<>();
        Map<String, SessionRow> byId = new HashMap<>();
        Set<String> continuedIds = new HashSet<>();
        for (SessionRow s : rows) {
            byId.put(s.id(), s);
            if (!s.untitled()) baseCount.merge(base(s.title()), 1, Integer::sum);
        }
        if (continued != null && !byId.containsKey(continued))
            throw new StewardError(
                    "session_precheck",
                    "no session '" + continued + "' to continue"
                            + (storeName == null ? "" : " in the " + storeName + " home")
                            + "; pass the session_id of the session the user chose (nothing was recorded)");
        for (SessionRow s : rows) {
            SessionRow p = s.parentSessionId() == null ? null : byId.get(s.parentSessionId());
            if (p != null && ("compression".equals(p.endReason()) || "branched".equals(p.endReason()))) {
                continuedIds.add(s.id());
                continuedIds.add(p.id());
            }
        }
        List<SessionRow> candidates = rows.stream()
                .filter(s -> s.active() && !s.untitled() && !s.subagent())
                .toList();
        Set<String> vocabulary = new HashSet<>();
        Map<String, List<String>> titleTokens = new HashMap<>();
        for (SessionRow s : candidates) {
            List<String> t = TitleAnalyzer.tokens(s.title());
            titleTokens.put(s.id(), t);
            vocabulary.addAll(t);
        }
        List<String> kws = keywords(request, vocabulary);
        List<Match> matches = new ArrayList<>();
        for (SessionRow s : candidates) {
            Set<String> toks = new HashSet<>(titleTokens.get(s.id()));
            String lower = s.title().toLowerCase(Locale.ROOT);
            Set<String> hit = new LinkedHashSet<>();
            for (String k : kws) {
                if (toks.contains(k) || (TitleAnalyzer.cjkToken(k) && lower.contains(k))) hit.add(k);
            }
            if (hit.isEmpty()) continue;
            // overlapping Chinese bigrams of one shared word ("数据" + "据库") are one keyword, as in English
            List<String> words = TitleAnalyzer.sharedWords(request, hit, s.title());
            boolean chain = baseCount.getOrDefault(base(s.title()), 0) >= 2 || continuedIds.contains(s.id());
            String strength = words.size() >= 2 || chain ? "strong" : "weak";
            double hours = Math.max(0, (now - s.lastActivity()) / 3600.0);
            matches.add(new Match(
                    s.id(),
                    s.title(),
                    s.source(),
                    strength,
                    List.copyOf(words),
                    chain,
                    Times.iso(s.lastActivity()),
                    s.lastActivity(),
                    Math.round(hours * 10) / 10.0,
                    s.store(),
                    s.group()));
        }
        matches.sort(Comparator.comparingDouble(Match::last_activity_epoch)
                .reversed()
                .thenComparing(Match::session_id));
        String question = null;
        if (!matches.isEmpty()) {
            Match m = matches.stream()
                    .filter(x -> x.strength().equals("strong"))
                    .findFirst()
                    .orElse(matches.get(0));
            question = zh
                    ? "已有活跃会话讨论相关主题：“" + m.title() + "”（最后活动 " + ago(m.hours_ago(), true) + "）。是否继续其中一条，而不是新建？(Y/id/n)"
                    : "There is already an active session on this topic: \"" + m.title() + "\" (last active "
                            + ago(m.hours_ago(), false)
                            + "). Continue one of them instead of starting a new one? (Y/id/n)";
        }
        return new Result(
                request,
                kws,
                matches.size(),
                List.copyOf(matches.subList(0, Math.min(cap, matches.size()))),
                Math.max(0, matches.size() - cap),
                question);
    }

    static String base(String title) {
        return NUMBERED.matcher(title).replaceFirst("").strip().toLowerCase(Locale.ROOT);
    }

    public static String ago(double hours, boolean zh) {
        long h = Math.round(hours);
        if (h < 48) return zh ? h + " 小时前" : h + " hours ago";
        return zh ? (h / 24) + " 天前" : (h / 24) + " days ago";
    }
}
