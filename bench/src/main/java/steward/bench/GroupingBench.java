package steward.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.learning.Preferences;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.AuditResult;
import steward.sessions.grouping.GroupingEngine;
import steward.sessions.grouping.HermesProjects;
import steward.sessions.grouping.TopicClusterer;
import steward.state.FileTrees;
import steward.text.TitleAnalyzer;

/**
 * Topic grouping on a generated home with known topics ({@link GroupingHome}): precision and recall of the clusters
 * session_audit reports, measured end to end on the written state.db, against a baseline (sessions grouped by the first
 * word of their title) measured in the same command. {@code --sweep} also scores a range of thresholds in memory
 * (that is how the default was tuned, on seed 7; the default seed 42 was not used for tuning).
 */
@Command(name = "grouping", description = "Topic grouping precision/recall on a generated home with known clusters.")
public final class GroupingBench implements Callable<Integer> {
    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "generator seed (default 42; the threshold was tuned on seed 7)")
    long seed;

    @Option(names = "--topics", defaultValue = "60", description = "topics to generate (default 60)")
    int topics;

    @Option(names = "--noise", defaultValue = "0.3", description = "share of one-off sessions (default 0.3)")
    double noise;

    @Option(names = "--sweep", description = "also score thresholds 0.10-0.80 in memory")
    boolean sweep;

    /** Scores of one clustering against the truth. */
    public record Score(
            int clusters,
            double pairPrecision,
            double pairRecall,
            double clusterPrecision,
            double clusterRecall,
            int adviceChecked,
            int adviceRight) {
        double pairF1() {
            return pairPrecision + pairRecall == 0 ? 0 : 2 * pairPrecision * pairRecall / (pairPrecision + pairRecall);
        }
    }

    @Override
    public Integer call() throws Exception {
        GroupingHome.Truth truth = GroupingHome.generate(seed, topics, noise);
        List<GroupingHome.Session> ss = truth.sessions();
        long oneOff = ss.stream().filter(s -> s.topic() < 0).count();
        long own = truth.topicKind().values().stream()
                .filter(k -> k.equals("project"))
                .count();
        Printer.println(String.format(
                Locale.ROOT,
                "generated home: seed %d, %d topics (%d with a directory of their own), %d sessions (%d one-off)",
                seed,
                topics,
                own,
                ss.size(),
                oneOff));
        Path work = Files.createTempDirectory("steward-bench-grouping-");
        try {
            Path home = work.resolve("hermes-home");
            GroupingHome.write(home, ss, Fixtures.locateHermesHome().resolve("state.db"));
            Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);
            AuditEngine engine = new AuditEngine(StewardPaths.of(home), clock, Preferences.empty());
            engine.audit(new AuditRequest(null, null, "interactive", "en", 5)); // warm-up
            long t0 = System.nanoTime();
            AuditResult r = engine.audit(new AuditRequest(null, null, "interactive", "en", 10_000))
                    .result();
            double auditMs = (System.nanoTime() - t0) / 1e6;
            List<List<String>> found = new ArrayList<>();
            Map<List<String>, String> kinds = new HashMap<>();
            for (AuditResult.TopicGroup g : r.topic_groups().items()) {
                found.add(g.session_ids());
                kinds.put(g.session_ids(), g.advice().kind());
            }
            Score s = score(truth, found, kinds);
            // like for like: each grouping alone, in memory, median of 7 runs after warm-up
            List<GroupingEngine.Candidate> cands = ss.stream()
                    .map(x -> new GroupingEngine.Candidate(x.id(), x.title(), x.prompt(), x.cwd(), x.lastActivity()))
                    .toList();
            Set<String> titles = new HashSet<>();
            for (GroupingHome.Session x : ss) if (x.title() != null) titles.add(x.title());
            double groupMs = median(
                    () -> GroupingEngine.group(cands, HermesProjects.NONE, titles, TopicClusterer.DEFAULT_THRESHOLD));
            double baseMs = median(() -> firstWordBaseline(ss));
            Score b = score(truth, firstWordBaseline(ss), Map.of());
            Printer.println(String.format(
                    "%-40s %8s %7s %7s %9s %9s %10s %9s",
                    "variant", "clusters", "pair P", "pair R", "cluster P", "cluster R", "advice ok", "ms"));
            row("topic grouping (session_audit, t=" + TopicClusterer.DEFAULT_THRESHOLD + ")", s, groupMs);
            row("baseline: same first title word", b, baseMs);
            Printer.println(String.format(
                    Locale.ROOT,
                    "(cluster P/R: a found cluster matches a topic when their Jaccard overlap is >= 0.5; advice ok: "
                            + "matched clusters advised a Project exactly when their topic has a directory of its own; ms: the grouping alone in memory, "
                            + "median of 7; the scores come from the whole session_audit on the written state.db, which took %.0f ms)",
                    auditMs));
            claude(truth, work, clock, b);
            if (sweep) {
                for (double t = 0.10; t <= 0.801; t += 0.05) {
                    List<GroupingEngine.Cluster> cs = GroupingEngine.group(cands, HermesProjects.NONE, titles, t);
                    List<List<String>> f =
                            cs.stream().map(GroupingEngine.Cluster::session_ids).toList();
                    Map<List<String>, String> k = new HashMap<>();
                    for (GroupingEngine.Cluster c : cs)
                        k.put(c.session_ids(), c.advice().kind());
                    row(String.format(Locale.ROOT, "  threshold %.2f (in memory)", t), score(truth, f, k), Double.NaN);
                }
            }
        } finally {
            FileTrees.delete(work);
        }
        return 0;
    }

    /**
     * The same sessions as a Claude Code home ({@link ClaudeGroupingHome}), audited with {@code store: claude}. Advice is
     * right when a matched cluster is called {@code claude_project} exactly when its topic has one working directory to
     * itself (at least 3/4 of that directory's sessions); baselines: the first title word, and the project directory
     * (what Claude Code's /resume already shows).
     */
    private static void claude(GroupingHome.Truth truth, Path work, Clock clock, Score firstWord) throws Exception {
        Path home = work.resolve("claude-home");
        Map<String, String> uuids = ClaudeGroupingHome.write(home, truth.sessions());
        Map<String, String> back = new HashMap<>();
        uuids.forEach((k, v) -> back.put(v, k));
        StewardPaths paths =
                StewardPaths.claudeOnly(work.resolve("no-hermes"), home).withStateDir(work.resolve("claude-state"));
        AuditEngine engine = new AuditEngine(paths, clock, Preferences.empty()).callerCwd(work.resolve("elsewhere"));
        engine.audit(new AuditRequest(null, null, "interactive", "en", 5, "claude", 0)); // warm-up (and the scan cache)
        long t0 = System.nanoTime();
        AuditResult r = engine.audit(new AuditRequest(null, null, "interactive", "en", 10_000, "claude", 0))
                .result();
        double auditMs = (System.nanoTime() - t0) / 1e6;
        List<List<String>> found = new ArrayList<>();
        Map<List<String>, String> kinds = new HashMap<>();
        for (AuditResult.TopicGroup g : r.topic_groups().items()) {
            List<String> ids = g.session_ids().stream().map(back::get).toList();
            found.add(ids);
            kinds.put(
                    ids,
                    g.advice().kind().equals("claude_project")
                            ? "project"
                            : g.advice().kind());
        }
        // the truth for Claude Code: a topic is already shown together when its sessions ran in one directory that is
        // (nearly) its own
        Map<String, Integer> perDir = new HashMap<>();
        Map<Integer, Set<String>> dirs = new HashMap<>();
        Map<Integer, Integer> sizes = new HashMap<>();
        for (GroupingHome.Session x : truth.sessions()) {
            perDir.merge(x.cwd(), 1, Integer::sum);
            if (x.topic() < 0) continue;
            dirs.computeIfAbsent(x.topic(), k -> new HashSet<>()).add(x.cwd());
            sizes.merge(x.topic(), 1, Integer::sum);
        }
        Map<Integer, String> claudeKinds = new HashMap<>();
        for (Map.Entry<Integer, Set<String>> e : dirs.entrySet()) {
            boolean own = e.getValue().size() == 1
                    && sizes.get(e.getKey())
                            >= 0.75 * perDir.get(e.getValue().iterator().next());
            claudeKinds.put(e.getKey(), own ? "project" : "title_prefix");
        }
        GroupingHome.Truth claudeTruth = new GroupingHome.Truth(truth.sessions(), claudeKinds);
        Score s = score(claudeTruth, found, kinds);
        Map<String, List<String>> byDir = new LinkedHashMap<>();
        for (GroupingHome.Session x : truth.sessions())
            byDir.computeIfAbsent(x.cwd(), k -> new ArrayList<>()).add(x.id());
        Score dirBase = score(
                claudeTruth, byDir.values().stream().filter(l -> l.size() >= 2).toList(), Map.of());
        long own =
                claudeKinds.values().stream().filter(k -> k.equals("project")).count();
        Printer.println(String.format(
                Locale.ROOT,
                "Claude Code home: the same %d sessions as transcripts in %d project directories (%d topics have one "
                        + "directory to themselves)",
                truth.sessions().size(),
                byDir.size(),
                own));
        row("topic grouping (session_audit --store claude)", s, Double.NaN);
        row("baseline: same first title word", firstWord, Double.NaN);
        row("baseline: same project directory", dirBase, Double.NaN);
        long projectAdvice = r.topic_groups().items().stream()
                .filter(g -> g.advice().kind().equals("claude_project"))
                .count();
        long suggested = r.topic_groups().items().stream()
                .mapToLong(g -> g.advice().renames().size())
                .sum();
        Printer.println(String.format(
                Locale.ROOT,
                "(advice ok: matched clusters called claude_project exactly when their topic has one directory "
                        + "to itself; %d of %d clusters claude_project, the rest title_prefix with %d suggested /rename titles and no plan item; "
                        + "considered %d sessions; the whole session_audit of the Claude Code home took %.0f ms)",
                projectAdvice,
                r.topic_groups().count(),
                suggested,
                r.topic_groups().considered(),
                auditMs));
    }

    private static double median(Runnable r) {
        for (int i = 0; i < 3; i++) r.run();
        List<Double> t = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            long t0 = System.nanoTime();
            r.run();
            t.add((System.nanoTime() - t0) / 1e6);
        }
        t.sort(Double::compare);
        return t.get(3);
    }

    private static void row(String name, Score s, double ms) {
        Printer.println(String.format(
                Locale.ROOT,
                "%-40s %8d %7.3f %7.3f %9.3f %9.3f %10s %9s",
                name,
                s.clusters(),
                s.pairPrecision(),
                s.pairRecall(),
                s.clusterPrecision(),
                s.clusterRecall(),
                s.adviceChecked() == 0 ? "-" : s.adviceRight() + "/" + s.adviceChecked(),
                Double.isNaN(ms) ? "" : String.format(Locale.ROOT, "%.1f", ms)));
    }

    /** The naive grouping: sessions whose titles start with the same word. */
    static List<List<String>> firstWordBaseline(List<GroupingHome.Session> ss) {
        Map<String, List<String>> by = new LinkedHashMap<>();
        for (GroupingHome.Session s : ss) {
            List<String> t = TitleAnalyzer.tokens(s.title());
            if (!t.isEmpty())
                by.computeIfAbsent(t.get(0), k -> new ArrayList<>()).add(s.id());
        }
        return by.values().stream().filter(l -> l.size() >= 2).toList();
    }

    public static Score score(GroupingHome.Truth truth, List<List<String>> found, Map<List<String>, String> kinds) {
        Map<String, Integer> topicOf = new HashMap<>();
        Map<Integer, Set<String>> topics = new HashMap<>();
        for (GroupingHome.Session s : truth.sessions()) {
            topicOf.put(s.id(), s.topic());
            if (s.topic() >= 0)
                topics.computeIfAbsent(s.topic(), k -> new HashSet<>()).add(s.id());
        }
        long truePairs = 0;
        for (Set<String> t : topics.values()) truePairs += (long) t.size() * (t.size() - 1) / 2;
        long foundPairs = 0, correct = 0;
        for (List<String> c : found) {
            foundPairs += (long) c.size() * (c.size() - 1) / 2;
            Map<Integer, Integer> counts = new HashMap<>();
            for (String id : c) {
                int t = topicOf.getOrDefault(id, -1);
                if (t >= 0) counts.merge(t, 1, Integer::sum);
            }
            for (int n : counts.values()) correct += (long) n * (n - 1) / 2;
        }
        int matchedFound = 0, checked = 0, right = 0;
        Set<Integer> matchedTopics = new HashSet<>();
        for (List<String> c : found) {
            Integer best = null;
            double bestJ = 0;
            for (Map.Entry<Integer, Set<String>> e : topics.entrySet()) {
                int inter = 0;
                for (String id : c) if (e.getValue().contains(id)) inter++;
                double j = inter == 0
                        ? 0
                        : (double) inter / (c.size() + e.getValue().size() - inter);
                if (j > bestJ) {
                    bestJ = j;
                    best = e.getKey();
                }
            }
            if (best != null && bestJ >= 0.5) {
                matchedFound++;
                matchedTopics.add(best);
                String k = kinds.get(c);
                if (k != null) {
                    checked++;
                    boolean wantProject = "project".equals(truth.topicKind().get(best));
                    if (wantProject == k.equals("project")) right++;
                }
            }
        }
        return new Score(
                found.size(),
                foundPairs == 0 ? 0 : (double) correct / foundPairs,
                truePairs == 0 ? 0 : (double) correct / truePairs,
                found.isEmpty() ? 0 : (double) matchedFound / found.size(),
                topics.isEmpty() ? 0 : (double) matchedTopics.size() / topics.size(),
                checked,
                right);
    }
}
