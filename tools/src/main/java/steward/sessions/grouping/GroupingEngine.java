package steward.sessions.grouping;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import steward.sessions.rules.Text;
import steward.text.CodePoints;
import steward.text.TitleAnalyzer;

/**
 * Topic grouping advice (the seed's "maybe the user wants grouping, not housekeeping"): clusters of sessions on one
 * topic ({@link TopicClusterer}) and for each the way Hermes can show them together. A Hermes Project gathers the
 * sessions whose working directory lies under its folder, so it only helps when a cluster has a directory of its own;
 * when the cluster's sessions share their directory with other topics (typically the home directory) a Project would
 * gather them all or none, and a common title prefix ({@code [Topic] …}) is the way: the renames are proposed as plan
 * items that {@code session_apply} runs once approved. An existing Project that already gathers the cluster is named.
 */
public final class GroupingEngine {
    /** Share of a directory's sessions that must belong to the cluster for a Project on it to make sense. */
    static final double PROJECT_PRECISION = 0.75;
    /** Share of the cluster's sessions that must have a working directory (and lie under one folder / project). */
    static final double CWD_COVERAGE = 0.8;

    static final double PREFIX_SHARE = 0.6;
    public static final int MAX_TITLE = 100;
    static final int MAX_LISTED = 10;

    private GroupingEngine() {}

    /**
     * A session as grouping sees it: what it is about and where it ran; {@code project}: the Claude Code project directory
     * it lives in (null for Hermes).
     */
    public record Candidate(String id, String title, String prompt, String cwd, double lastActivity, String project) {
        public Candidate(String id, String title, String prompt, String cwd, double lastActivity) {
            this(id, title, prompt, cwd, lastActivity, null);
        }
    }

    public record Rename(String session_id, String from, String to) {}

    /**
     * The advice for one cluster. {@code kind}: {@code title_prefix} (rename), {@code project} (create a Project on
     * {@code project_path}; {@code gathers} sessions, {@code gathers_others} of them outside the cluster) or
     * {@code existing_project} (Project {@code project_name} already gathers them).
     */
    public record Advice(
            String kind,
            String prefix,
            String project_path,
            String project_name,
            int gathers,
            List<String> gathers_others,
            List<Rename> renames,
            Text why) {}

    public record Cluster(
            String cluster_id, String label, List<String> session_ids, double newest_activity, Advice advice) {}

    /** Hermes sessions' clusters ({@code g1}, {@code g2}, …) with Project or title-prefix advice. */
    public static List<Cluster> group(
            List<Candidate> cands, HermesProjects projects, Set<String> titlesInUse, double threshold) {
        Map<String, List<String>> segments = new HashMap<>();
        for (Candidate c : cands) if (c.cwd() != null) segments.computeIfAbsent(c.cwd(), Paths::segments);
        Set<String> proposed = new HashSet<>();
        return clusters(
                cands,
                threshold,
                "g",
                (members, label) -> advise(members, cands, segments, label, projects, titlesInUse, proposed));
    }

    /**
     * Claude Code sessions' clusters ({@code c1}, {@code c2}, …). Claude Code has no Projects table: a project is one working
     * directory, so a topic that has its directory (nearly) to itself is already shown together ({@code claude_project});
     * otherwise a title prefix is the way, suggested for the user to set with {@code /rename} (Steward does not write
     * Claude Code's titles: see {@link #adviseClaude}).
     */
    public static List<Cluster> groupClaude(List<Candidate> cands, double threshold) {
        Map<String, Integer> perProject = new HashMap<>();
        for (Candidate c : cands) if (c.project() != null) perProject.merge(c.project(), 1, Integer::sum);
        return clusters(cands, threshold, "c", (members, label) -> adviseClaude(members, cands, perProject, label));
    }

    private static List<Cluster> clusters(
            List<Candidate> cands,
            double threshold,
            String idPrefix,
            BiFunction<List<Candidate>, String, Advice> advise) {
        List<TopicClusterer.Doc> docs = new ArrayList<>(cands.size());
        for (Candidate c : cands) docs.add(new TopicClusterer.Doc(c.title(), c.prompt(), c.cwd()));
        List<List<Integer>> raw = TopicClusterer.cluster(docs, threshold);
        List<Cluster> out = new ArrayList<>();
        // clusters in order of newest activity, so the ids follow what the user worked on last
        List<List<Integer>> ordered = new ArrayList<>(raw);
        ordered.sort((a, b) -> Double.compare(newest(cands, b), newest(cands, a)));
        int n = 0;
        for (List<Integer> idx : ordered) {
            List<Candidate> members = idx.stream().map(cands::get).toList();
            String label = label(members);
            if (label == null) continue;
            String id = idPrefix + (++n);
            out.add(new Cluster(
                    id,
                    label,
                    members.stream().map(Candidate::id).toList(),
                    newest(cands, idx),
                    advise.apply(members, label)));
        }
        return out;
    }

    /**
     * A Claude Code cluster's advice. {@code claude_project}: every session ran in one project directory and the topic makes
     * up at least {@value #PROJECT_PRECISION} of that project's sessions, so {@code /resume} there already lists them
     * together. Else {@code title_prefix}, with suggested titles only: Claude Code keeps a session's title as a
     * {@code custom-title} line appended to the transcript it is itself appending to, a running Claude Code holds the title
     * in memory and writes it back, and two writers on one append-only file can interleave a line, so Steward offers no
     * rename items for Claude Code; the user sets the prefix with {@code /rename} in each session.
     */
    static Advice adviseClaude(
            List<Candidate> members, List<Candidate> all, Map<String, Integer> perProject, String label) {
        Set<String> projects = new LinkedHashSet<>();
        for (Candidate c : members) projects.add(c.project());
        String where = members.stream()
                .map(Candidate::cwd)
                .filter(w -> w != null && !w.isBlank())
                .findFirst()
                .orElse(members.get(0).project());
        if (projects.size() == 1 && members.get(0).project() != null) {
            String p = members.get(0).project();
            int total = perProject.getOrDefault(p, members.size());
            if (members.size() >= PROJECT_PRECISION * total) {
                Set<String> ids =
                        new HashSet<>(members.stream().map(Candidate::id).toList());
                List<String> others = all.stream()
                        .filter(c -> p.equals(c.project()) && !ids.contains(c.id()))
                        .map(Candidate::id)
                        .limit(MAX_LISTED)
                        .toList();
                return new Advice(
                        "claude_project",
                        null,
                        where,
                        null,
                        total,
                        others,
                        List.of(),
                        new Text(
                                "already shown together: Claude Code keeps the sessions of one working directory as one project, and this topic "
                                        + "has " + where + " to itself (" + members.size() + " of its " + total
                                        + " sessions): `claude --resume` (or /resume) "
                                        + "started there lists them",
                                "已经在一起：Claude Code 把同一工作目录的会话算作一个项目，而此主题几乎独占 " + where + "（" + total + " 条中的 "
                                        + members.size() + " 条）：在该目录运行 `claude --resume`（或 /resume）即可列出它们"));
            }
        }
        String prefix = "[" + label + "]";
        List<Rename> renames = new ArrayList<>();
        for (Candidate c : members) {
            if (c.title() == null || c.title().isBlank()) continue;
            String to = renamed(c.title(), label);
            if (to != null) renames.add(new Rename(c.id(), c.title(), to));
        }
        String how =
                "; Steward does not write Claude Code titles (a running Claude Code keeps its title in memory and writes it back into "
                        + "the transcript), so set it with /rename " + prefix + " … in each session";
        String howZh =
                "；Steward 不改写 Claude Code 的标题（运行中的 Claude Code 把标题留在内存里并会写回记录文件），请在每个会话中用 /rename " + prefix + " … 设置";
        Text why = projects.size() == 1
                ? new Text(
                        "Claude Code groups sessions only by working directory, and these share " + where
                                + " with other topics: the title prefix " + prefix + " sets them apart in /resume"
                                + how,
                        "Claude Code 只按工作目录归组，而这些会话与其他主题共用 " + where + "：标题前缀 " + prefix + " 能在 /resume 中把它们区分出来"
                                + howZh)
                : new Text(
                        "these sessions ran in " + projects.size()
                                + " working directories and a Claude Code project is one directory: the title "
                                + "prefix " + prefix + " finds them together in /resume's search (all projects)" + how,
                        "这些会话分布在 " + projects.size() + " 个工作目录，而 Claude Code 的项目只是一个目录：标题前缀 " + prefix
                                + " 可在 /resume 搜索（全部项目）中把它们找齐" + howZh);
        return new Advice("title_prefix", prefix, null, null, 0, List.of(), renames, why);
    }

    private static double newest(List<Candidate> cands, List<Integer> idx) {
        double m = Double.NEGATIVE_INFINITY;
        for (int i : idx) m = Math.max(m, cands.get(i).lastActivity());
        return m;
    }

    static Advice advise(
            List<Candidate> members,
            List<Candidate> all,
            Map<String, List<String>> segments,
            String label,
            HermesProjects projects,
            Set<String> titlesInUse,
            Set<String> proposed) {
        List<Candidate> withCwd = members.stream()
                .filter(c -> c.cwd() != null && !c.cwd().isBlank())
                .toList();
        boolean covered = withCwd.size() >= 2 && withCwd.size() >= CWD_COVERAGE * members.size();
        if (covered && !projects.projects().isEmpty()) {
            Map<String, Integer> hits = new LinkedHashMap<>();
            Map<String, HermesProjects.Project> byId = new HashMap<>();
            for (Candidate c : withCwd) {
                HermesProjects.Project p = projects.match(c.cwd());
                if (p != null) {
                    hits.merge(p.id(), 1, Integer::sum);
                    byId.put(p.id(), p);
                }
            }
            for (Map.Entry<String, Integer> e : hits.entrySet()) {
                if (e.getValue() >= CWD_COVERAGE * members.size()) {
                    HermesProjects.Project p = byId.get(e.getKey());
                    return new Advice(
                            "existing_project",
                            null,
                            p.folders().isEmpty() ? null : p.folders().get(0),
                            p.name(),
                            e.getValue(),
                            List.of(),
                            List.of(),
                            new Text(
                                    "already shown together by Hermes Project \"" + p.name() + "\" (" + e.getValue()
                                            + " of " + members.size()
                                            + " sessions): switch the sidebar to the Projects view to see them",
                                    "已由 Hermes 项目“" + p.name() + "”归组（" + members.size() + " 条中的 " + e.getValue()
                                            + " 条）：把侧边栏切换到 Projects 视图即可看到"));
                }
            }
        }
        if (covered) {
            List<String> prefix = Paths.commonPrefix(
                    withCwd.stream().map(c -> segments.get(c.cwd())).toList());
            if (!prefix.isEmpty() && !(prefix.size() == 1 && prefix.get(0).isEmpty())) {
                List<String> gathered = new ArrayList<>();
                Set<String> memberIds =
                        new HashSet<>(members.stream().map(Candidate::id).toList());
                List<String> others = new ArrayList<>();
                for (Candidate c : all) {
                    if (c.cwd() == null || !Paths.under(segments.get(c.cwd()), prefix)) continue;
                    gathered.add(c.id());
                    if (!memberIds.contains(c.id())) others.add(c.id());
                }
                int inCluster = gathered.size() - others.size();
                if (inCluster >= 2 && inCluster >= PROJECT_PRECISION * gathered.size()) {
                    String path = surfacePath(withCwd.get(0).cwd(), prefix.size());
                    return new Advice(
                            "project",
                            null,
                            path,
                            label,
                            gathered.size(),
                            List.copyOf(others.subList(0, Math.min(MAX_LISTED, others.size()))),
                            List.of(),
                            new Text(
                                    "these sessions ran under " + path
                                            + ": a Hermes Project with that folder gathers them ("
                                            + gathered.size() + " sessions"
                                            + (others.isEmpty()
                                                    ? ""
                                                    : ", " + others.size() + " of them outside this topic")
                                            + "); create it with `hermes project create \"" + label + "\" " + path
                                            + "` or the sidebar's Create Project "
                                            + "(Add folder), then switch the sidebar to the Projects view",
                                    "这些会话都在 " + path + " 下运行：以该文件夹建一个 Hermes 项目即可归组（共 " + gathered.size() + " 条"
                                            + (others.isEmpty() ? "" : "，其中 " + others.size() + " 条不属于此主题")
                                            + "）：`hermes project create \"" + label
                                            + "\" " + path
                                            + "` 或在侧边栏 Create Project 中 Add folder，然后把侧边栏切换到 Projects 视图"));
                }
            }
        }
        // title prefix: the only way when the directory does not tell the topics apart
        String prefix = "[" + label + "]";
        List<Rename> renames = new ArrayList<>();
        for (Candidate c : members) {
            if (c.title() == null || c.title().isBlank()) continue;
            String to = renamed(c.title(), label);
            if (to == null) continue;
            to = unique(to, titlesInUse, proposed);
            proposed.add(to);
            renames.add(new Rename(c.id(), c.title(), to));
        }
        String where = withCwd.isEmpty() ? null : withCwd.get(0).cwd();
        boolean sameDir = where != null
                && withCwd.stream().allMatch(c -> segments.get(c.cwd()).equals(segments.get(where)));
        Text why = sameDir
                ? new Text(
                        "a Hermes Project groups by working directory, and these sessions share " + where
                                + " with other topics, so a Project cannot tell them apart: give them the title prefix "
                                + prefix,
                        "Hermes 项目按工作目录归组，而这些会话与其他主题共用 " + where + "，项目无法区分它们：请用标题前缀 " + prefix)
                : new Text(
                        "their working directories do not single them out, so a Project would not gather them: give them the title prefix "
                                + prefix,
                        "它们的工作目录无法单独区分出这一主题，项目不能归组：请用标题前缀 " + prefix);
        return new Advice("title_prefix", prefix, null, null, 0, List.of(), renames, why);
    }

    /** The original spelling of the first {@code n} segments of {@code cwd}. */
    static String surfacePath(String cwd, int n) {
        String s = cwd.strip();
        int seen = 0;
        int i = 0;
        boolean abs = s.startsWith("/") || s.startsWith("\\");
        if (abs) seen = 1; // the root segment
        while (i < s.length() && seen < n) {
            while (i < s.length() && (s.charAt(i) == '/' || s.charAt(i) == '\\')) i++;
            while (i < s.length() && s.charAt(i) != '/' && s.charAt(i) != '\\') i++;
            seen++;
        }
        return s.substring(0, i);
    }

    /** {@code "Claude Code 插件"} with label "Claude Code" → {@code "[Claude Code] 插件"}; null when already prefixed. */
    static String renamed(String title, String label) {
        String t = title.strip();
        String lowT = t.toLowerCase(Locale.ROOT);
        String lowL = label.toLowerCase(Locale.ROOT);
        if (lowT.startsWith("[" + lowL + "]") || lowT.startsWith("【" + lowL + "】")) return null;
        String rest = t;
        if (lowT.startsWith(lowL)) rest = t.substring(label.length()).replaceFirst("^[\\s:：\\-—|·,，]+", "");
        String to = rest.isEmpty() ? "[" + label + "]" : "[" + label + "] " + rest;
        return CodePoints.length(to) > MAX_TITLE ? CodePoints.prefix(to, MAX_TITLE) : to;
    }

    /** Hermes' numbering for a title in use: {@code "title #2"}. */
    static String unique(String t, Set<String> inUse, Set<String> proposed) {
        if (!inUse.contains(t) && !proposed.contains(t)) return t;
        for (int k = 2; ; k++) {
            String suffix = " #" + k;
            String base = CodePoints.length(t) + suffix.length() > MAX_TITLE
                    ? CodePoints.prefix(t, MAX_TITLE - suffix.length())
                    : t;
            String c = base + suffix;
            if (!inUse.contains(c) && !proposed.contains(c)) return c;
        }
    }

    /**
     * A short name for the cluster: the title prefix most of its titles share, else the words most of its titles
     * contain (as written in a title), else the first prompts' most shared word. Null if nothing is shared.
     */
    static String label(List<Candidate> members) {
        List<String> titles = members.stream()
                .map(Candidate::title)
                .filter(t -> t != null && !t.isBlank())
                .map(String::strip)
                .toList();
        int need = Math.max(2, (int) Math.ceil(PREFIX_SHARE * titles.size()));
        if (titles.size() >= 2) {
            String p = commonTokenPrefix(titles, need);
            if (p != null) return p;
            String w = sharedWords(titles, need);
            if (w != null) return w;
            w = sharedWords(titles, 2);
            if (w != null) return w;
        }
        List<String> prompts = members.stream()
                .map(Candidate::prompt)
                .filter(t -> t != null && !t.isBlank())
                .toList();
        return sharedWords(prompts, 2);
    }

    private static String commonTokenPrefix(List<String> titles, int need) {
        List<List<String>> toks =
                titles.stream().map(t -> TitleAnalyzer.tokens(stripBracket(t))).toList();
        int k = 0;
        List<String> best = List.of();
        while (true) {
            Map<List<String>, Integer> counts = new LinkedHashMap<>();
            for (List<String> t : toks) if (t.size() > k) counts.merge(t.subList(0, k + 1), 1, Integer::sum);
            List<String> top = null;
            int topN = 0;
            for (Map.Entry<List<String>, Integer> e : counts.entrySet()) {
                if (e.getValue() > topN && (k == 0 || e.getKey().subList(0, k).equals(best))) {
                    top = e.getKey();
                    topN = e.getValue();
                }
            }
            if (top == null || topN < need) break;
            best = top;
            k++;
        }
        if (best.isEmpty()) return null;
        for (String t : titles) {
            String s = stripBracket(t);
            List<String> tt = TitleAnalyzer.tokens(s);
            if (tt.size() >= best.size() && tt.subList(0, best.size()).equals(best)) {
                // the prefix must start the title (a stop word before it would make it a shared word, not a prefix)
                int end = surfaceEnd(s, best, true);
                if (end > 0) return clean(s.substring(0, end));
            }
        }
        return null;
    }

    private static String stripBracket(String t) {
        return t.replaceFirst("^\\s*[\\[【][^\\]】]*[\\]】]\\s*", "");
    }

    /** The end of {@code words} (in order) in {@code s}; with {@code anchored}, the first word must start {@code s}. */
    private static int surfaceEnd(String s, List<String> words, boolean anchored) {
        String low = s.toLowerCase(Locale.ROOT);
        int from = 0;
        int end = -1;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            int at = find(low, w, from);
            if (at < 0) return -1;
            if (i == 0 && anchored && !low.substring(0, wordStart(low, at)).isBlank()) return -1;
            from = at + 1;
            end = at + w.length();
        }
        return end;
    }

    /** The first occurrence of token {@code w} at or after {@code from}; a Latin word must not be part of a longer word. */
    static int find(String low, String w, int from) {
        boolean latin = !TitleAnalyzer.cjkToken(w);
        for (int at = low.indexOf(w, Math.max(0, from)); at >= 0; at = low.indexOf(w, at + 1)) {
            if (!latin) return at;
            int end = at + w.length();
            boolean before = at > 0
                    && Character.isLetterOrDigit(low.codePointBefore(at))
                    && !TitleAnalyzer.isCjk(low.codePointBefore(at));
            boolean after = end < low.length()
                    && Character.isLetterOrDigit(low.codePointAt(end))
                    && !TitleAnalyzer.isCjk(low.codePointAt(end));
            if (!before && !after) return at;
        }
        return -1;
    }

    /** Where the word around {@code at} starts: letters and digits the analyser dropped ("B" of "B站") belong to it. */
    static int wordStart(String s, int at) {
        int i = at;
        while (i > 0 && Character.isLetterOrDigit(s.codePointBefore(i)) && !TitleAnalyzer.isCjk(s.codePointBefore(i))) {
            i -= Character.charCount(s.codePointBefore(i));
        }
        return i;
    }

    /** The words shared by at least {@code need} texts, as one phrase if they stand together in a text. */
    private static String sharedWords(List<String> texts, int need) {
        Map<String, Integer> df = new LinkedHashMap<>();
        List<List<String>> toks = texts.stream().map(TitleAnalyzer::tokens).toList();
        for (List<String> t : toks) for (String w : t) df.merge(w, 1, Integer::sum);
        String top = null;
        int topN = 0;
        for (Map.Entry<String, Integer> e : df.entrySet()) {
            if (e.getValue() > topN) {
                top = e.getKey();
                topN = e.getValue();
            }
        }
        if (top == null || topN < need) return null;
        // extend with neighbours that every text holding the top word also holds right after/before it
        for (String t : texts) {
            String low = t.toLowerCase(Locale.ROOT);
            int at = find(low, top, 0);
            if (at < 0) continue;
            int start = wordStart(low, at), end = at + top.length();
            List<String> tt = TitleAnalyzer.tokens(t);
            int pos = tt.indexOf(top);
            while (pos + 1 < tt.size() && df.get(tt.get(pos + 1)) >= topN) {
                int nx = find(low, tt.get(pos + 1), end - 1);
                if (nx < 0 || !low.substring(end, Math.max(end, nx)).isBlank()) break;
                end = nx + tt.get(pos + 1).length();
                pos++;
            }
            return clean(t.substring(start, end));
        }
        return clean(top);
    }

    private static String clean(String s) {
        String t = s.strip().replaceAll("^[\\[【(（\"“'\\s]+", "").replaceAll("[\\]】)）\"”'\\s:：\\-—|·,，.]+$", "");
        return t.isEmpty() ? null : t;
    }
}
