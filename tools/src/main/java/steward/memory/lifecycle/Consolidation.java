package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import steward.StewardError;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.Concepts;
import steward.memory.Flock;
import steward.memory.MemoryBackups;
import steward.memory.MemoryDocument;
import steward.memory.MemoryPrecheck;
import steward.memory.MemoryRules;
import steward.memory.MemoryWriter;
import steward.memory.Similarity;
import steward.memory.ThreatScan;
import steward.memory.history.Diffs;
import steward.memory.history.History;
import steward.memory.lifecycle.rules.Change;
import steward.memory.lifecycle.rules.EntryState;
import steward.memory.lifecycle.rules.LifecycleContext;
import steward.memory.lifecycle.rules.LifecycleRules;
import steward.memory.lifecycle.rules.PruneRedundantRule;
import steward.memory.lifecycle.rules.UnreferencedDecayRule;
import steward.state.AtomicFiles;
import steward.state.IoErrors;
import steward.text.CodePoints;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code memory_consolidate}: the seed's six phases as gather → plan → apply. Gather shows the unprocessed log
 * lines of one scope (root or a workspace partition) since its watermark, with explicit signals flagged and the
 * entries each most resembles; the agent judges and answers with proposed entries; plan counts mentions, adds,
 * supersedes, promotes and decays by the lifecycle rules, proposes prunes (never applied without the user's
 * confirmation), moves old logs to the archive and surplus drift {@code .bak.*} files to Steward's backups, rebuilds
 * {@code memory-index.json} and appends the run to its {@code audit_history}; every changed file comes with a
 * diff. Apply needs the plan id, re-checks that nothing changed since, backs up every file it touches and runs
 * the change through the {@link Journal} (old or new state, never a mix), under Hermes' lock on the memory file.
 */
public final class Consolidation {
    public static final int ARCHIVE_AFTER_DAYS = 30;
    public static final int KEEP_BAKS = 2;
    public static final int MAX_EXCERPTS = 150;
    /** The most of one log line gather shows (a line written by hand can be any length; memory_log's are ≤ 240). */
    public static final int MAX_EXCERPT_CHARS = 1000;

    public static final long PLAN_SECONDS = 24 * 3600;
    static final double SAME_FACT = 0.9;
    static final double REDUNDANT = 0.85;
    static final Pattern PLAN_ID = Pattern.compile("mc_[0-9a-f]{16}");
    static final Pattern BAK = Pattern.compile("(.+)\\.bak\\.(\\d+)");
    static final Pattern REF = Pattern.compile("log:(\\d{4}-\\d{2}-\\d{2})#(\\d+)");
    static final Map<String, Pattern> SIGNALS = new LinkedHashMap<>();

    static {
        SIGNALS.put("remember", Pattern.compile("(?i)\\bremember\\b|\\bdon'?t forget\\b|记住|记一下|别忘"));
        SIGNALS.put(
                "decision",
                Pattern.compile(
                        "(?i)\\bdecided\\b|\\bdecision\\b|\\bwe(?:'ll| will) (?:use|go with)\\b|\\bchose\\b|\\bswitch(?:ed)? to\\b"
                                + "|决定|选定|选用|采用|定了|改用"));
        SIGNALS.put(
                "pitfall",
                Pattern.compile(
                        "(?i)\\bpitfall\\b|\\bgotcha\\b|\\bbeware\\b|\\bwatch out\\b|\\blesson\\b|\\btrap\\b|踩坑|坑|教训|注意"));
        SIGNALS.put(
                "correction",
                Pattern.compile(
                        "(?i)\\bactually\\b|\\bcorrection\\b|\\bwrong\\b|\\binstead\\b|\\bno longer\\b|纠正|更正|其实|不是.{0,12}而是|改为|改成|搞错"));
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final StewardPaths paths;
    private final MemoryRoot root;
    private final Clock clock;
    private final ZoneId zone;
    private final EvidenceStore evidence;

    public Consolidation(StewardPaths paths, MemoryRoot root, Clock clock, ZoneId zone) {
        this.paths = paths;
        this.root = root;
        this.clock = clock;
        this.zone = zone;
        this.evidence = new EvidenceStore(paths.stateDir());
    }

    public static Consolidation hermes(StewardPaths paths, Clock clock, ZoneId zone) {
        return new Consolidation(
                paths, new HermesMemoryRoot(paths, new MemoryWriter(paths, clock).config()), clock, zone);
    }

    public MemoryRoot root() {
        return root;
    }

    LocalDate today() {
        return LocalDate.ofInstant(clock.instant(), zone);
    }

    // ------------------------------------------------------------------------------------------------ scopes

    /** A resolved scope, and for a path no partition covers yet, the partition a plan would create. */
    public record Target(Scope scope, boolean create) {}

    /** {@code workspace}: null (root), a partition's name, or a directory path (longest-prefix partition, else a new one). */
    public Target target(String workspace) {
        if (workspace == null || workspace.isBlank() || workspace.strip().equals("root"))
            return new Target(Scope.root(root), false);
        List<Partitions.Workspace> all = Partitions.list(root);
        String w = workspace.strip();
        if (!w.contains("/") && !w.contains("\\")) {
            Partitions.Workspace byName = Partitions.byName(all, w);
            if (byName == null)
                throw new StewardError(
                        "memory_consolidate",
                        "no workspace partition named '" + w + "' (pass its directory path to create one)");
            return new Target(Scope.of(byName), false);
        }
        if (!w.startsWith("/"))
            throw new StewardError("memory_consolidate", "workspace path must be absolute, got '" + w + "'");
        Partitions.Workspace hit = Partitions.resolve(all, w);
        if (hit != null) return new Target(Scope.of(hit), false);
        if (Partitions.normalise(w).equals("/"))
            throw new StewardError(
                    "memory_consolidate",
                    "workspace '/' is no project: a partition for it would take every directory's notes from the root");
        String name = Partitions.slug(w, all);
        return new Target(
                Scope.of(new Partitions.Workspace(
                        name, Partitions.normalise(w), root.workspacesDir().resolve(name))),
                true);
    }

    // ------------------------------------------------------------------------------------------------ gather

    public record Similar(String entry, double confidence, double score) {}

    public record Excerpt(String ref, String time, String text, List<String> signals, List<Similar> similar) {}

    public record Day(String date, List<Excerpt> lines) {}

    public record EntryView(
            int n,
            String text,
            double confidence,
            boolean prefixed,
            String section,
            int mentions,
            String last_activity,
            String decay_due) {}

    public record GatherResult(
            String scope,
            String file,
            String watermark,
            String through,
            List<Day> days,
            int excerpts,
            int left_out,
            List<EntryView> entries,
            int chars,
            int limit,
            String next) {}

    public GatherResult gather(String workspace, Integer maxExcerpts) {
        return gather(workspace, maxExcerpts, Work.NONE);
    }

    /** Read-only: progress per log file read, a safe point after each. */
    public GatherResult gather(String workspace, Integer maxExcerpts, Work work) {
        HermesMemoryRoot.requireHome(root, paths, "memory_consolidate");
        Journal.recover(paths, root.stewardLock());
        Target t = target(workspace);
        Scope s = t.scope();
        int max = maxExcerpts == null ? MAX_EXCERPTS : maxExcerpts;
        ObjectNode index = MemoryIndex.read(root);
        MemoryIndex.Position pos = MemoryIndex.positions(index).getOrDefault(s.id(), MemoryIndex.Position.NONE);
        List<String> entries = MemoryWriter.load(s.file()).doc().entries();
        Map<String, Evidence> ev = evidence.read();
        Map<String, LocalDate> refs = evidence.references();
        List<Set<String>> entryTokens = new ArrayList<>();
        for (String e : entries)
            entryTokens.add(Similarity.tokens(Confidence.parse(e).body()));
        List<Day> days = new ArrayList<>();
        int total = 0, shown = 0;
        // per log file, the last line shown: a plan through them marks exactly the lines shown
        Map<String, Integer> shownThrough = new LinkedHashMap<>();
        var logFiles = DailyLog.files(root.logsDir());
        Set<String> live = live(s);
        int read = 0;
        for (var f : logFiles.entrySet()) {
            work.progress(++read, logFiles.size() + 1, "reading daily logs (" + logFiles.size() + " files)");
            work.checkpoint("memory_consolidate");
            DailyLog.Day d = DailyLog.read(f.getValue(), f.getKey());
            List<Excerpt> lines = new ArrayList<>();
            for (DailyLog.Line l : d.of(s.id(), live)) {
                if (pos.processed(f.getKey().toString(), l.number())) continue;
                total++;
                if (shown >= max) continue;
                shown++;
                shownThrough.put(f.getKey().toString(), l.number());
                lines.add(new Excerpt(
                        "log:" + f.getKey() + "#" + l.number(),
                        l.time() == null ? null : l.time().toString(),
                        // a deleted partition's note, now the root's: shown with its mark
                        shorten(DailyLog.orphan(l, live) ? "@" + l.workspace() + ": " + l.text() : l.text()),
                        signals(l.text()),
                        similar(l.text(), entries, entryTokens)));
            }
            if (!lines.isEmpty()) days.add(new Day(f.getKey().toString(), lines));
        }
        // "" when nothing was shown (never null): gather's through goes back to plan as it came
        String through = shownThrough.isEmpty() ? "" : through(shownThrough);
        List<EntryView> views = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String e = entries.get(i);
            Confidence.Parsed p = Confidence.parse(e);
            Evidence x = ev.get(EntryKey.of(e));
            LocalDate last = lastActivity(x, refs.get(EntryKey.of(e)));
            LocalDate changed = x == null || x.level_changed() == null ? null : LocalDate.parse(x.level_changed());
            String due = last == null
                    ? null
                    : max(last, changed).plusDays(UnreferencedDecayRule.DAYS).toString();
            views.add(new EntryView(
                    i + 1,
                    e,
                    p.level(),
                    p.prefixed(),
                    MemoryIndex.section(e, x == null ? null : x.kind()),
                    x == null ? Confidence.impliedMentions(p.level()) : x.mentions(),
                    last == null ? null : last.toString(),
                    p.level() <= 0.3 ? null : due));
        }
        return new GatherResult(
                s.id(),
                root.relative(s.file()),
                pos.describe(),
                through,
                days,
                shown,
                total - shown,
                views,
                MemoryRules.chars(entries),
                s.limit(),
                through.isEmpty()
                        ? "No unprocessed log lines: nothing to judge. A plan without proposals (through may be left out) "
                                + "still adds missing prefixes (if they all fit the cap), applies decay, archives old logs and "
                                + "rebuilds the index."
                        : "Judge each excerpt (preference, decision, lesson or fact; skip the trivial), then call plan with "
                                + "proposals {text, kind, evidence:[refs], same_as?, supersedes?, user_confirmed?} and through="
                                + through + ".");
    }

    /** {@code date#line} per log file, joined by commas: the last line shown of each file with lines shown. */
    static String through(Map<String, Integer> lastShown) {
        List<String> out = new ArrayList<>();
        lastShown.forEach((d, n) -> out.add(d + "#" + n));
        return String.join(",", out);
    }

    static String shorten(String text) {
        int n = CodePoints.length(text);
        if (n <= MAX_EXCERPT_CHARS) return text;
        return CodePoints.prefix(text, MAX_EXCERPT_CHARS) + "… (" + (n - MAX_EXCERPT_CHARS) + " more characters)";
    }

    static List<String> signals(String text) {
        List<String> out = new ArrayList<>();
        SIGNALS.forEach((k, p) -> {
            if (p.matcher(text).find()) out.add(k);
        });
        return out;
    }

    static List<Similar> similar(String text, List<String> entries) {
        List<Set<String>> ts = new ArrayList<>();
        for (String e : entries) ts.add(Similarity.tokens(Confidence.parse(e).body()));
        return similar(text, entries, ts);
    }

    static List<Similar> similar(String text, List<String> entries, List<Set<String>> entryTokens) {
        var t = Similarity.tokens(text);
        List<Similar> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String e = entries.get(i);
            var et = entryTokens.get(i);
            double score =
                    Math.round((0.7 * Similarity.coverage(t, et) + 0.3 * Similarity.jaccard(t, et)) * 1000) / 1000.0;
            if (score >= 0.2)
                out.add(new Similar(MemoryRules.preview(e), Confidence.parse(e).level(), score));
        }
        out.sort(Comparator.comparingDouble(Similar::score).reversed());
        return out.size() > 2 ? out.subList(0, 2) : out;
    }

    static LocalDate lastActivity(Evidence x, LocalDate ref) {
        LocalDate d = null;
        if (x != null) {
            for (String s : new String[] {x.first_seen(), x.last_seen(), x.last_referenced()}) {
                if (s != null) d = max(d, LocalDate.parse(s));
            }
        }
        return max(d, ref);
    }

    static LocalDate max(LocalDate a, LocalDate b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.isAfter(b) ? a : b;
    }

    // ------------------------------------------------------------------------------------------------ plan

    /** One entry the agent proposes from the logs. */
    public record Proposal(
            String text,
            String kind,
            List<String> evidence,
            String same_as,
            String supersedes,
            Boolean user_confirmed) {}

    public record ChangeView(String action, String entry, Double from, Double to, String rule, String reason) {}

    public record PruneItem(String id, String entry, String rule, String reason, int chars) {}

    public record SkillSuggestion(String text, String skill, String section, List<String> evidence) {}

    public record FileChange(
            String file,
            String op,
            String to,
            Integer bytes_before,
            Integer bytes_after,
            String diff,
            int added,
            int removed) {}

    public record PlanResult(
            String plan_id,
            String expires_at,
            String scope,
            String file,
            boolean creates_workspace,
            int chars_before,
            int chars_after,
            int limit,
            int target,
            boolean fits,
            String health,
            List<ChangeView> changes,
            List<PruneItem> prune,
            List<SkillSuggestion> skill_suggestions,
            List<FileChange> files,
            List<String> warnings,
            String locale,
            String report) {}

    /** One entry while a plan is computed. */
    static final class Item {
        String body;
        double level;
        boolean prefixed;
        String key;
        Evidence ev;
        boolean touched;
        boolean confirmed;
        String supersededBy;
        boolean added;
        LocalDate lastRef;
        final List<String> newSources = new ArrayList<>();
        String originalText;
        String evKey;
        /** The level and evidence before the level rules, for a decay that is put off. */
        double level0;

        Evidence ev0;
        /** This entry's level changes in the plan, and the prefix it gets (an unprefixed entry's). */
        final List<ChangeView> levelViews = new ArrayList<>();

        ChangeView prefixView;
        /** Written back as it was, without a prefix (it reads as [0.5]): its prefix would not fit the cap. */
        boolean bare;

        private Set<String> tokens;
        private Concepts.Bag concepts;
        private String norm;

        /** The entry as the plan writes it. */
        String text() {
            return bare ? originalText : Confidence.format(level, body);
        }

        Concepts.Bag concepts() {
            if (concepts == null) concepts = Concepts.of(body);
            return concepts;
        }

        String norm() {
            if (norm == null) norm = EntryKey.normalise(body);
            return norm;
        }

        Set<String> tokens() {
            if (tokens == null) tokens = Similarity.tokens(body);
            return tokens;
        }
    }

    public PlanResult plan(String workspace, String through, List<Proposal> proposals, String locale) {
        return plan(workspace, through, proposals, locale, Work.NONE);
    }

    /** Progress by phase; a cancellation stops before the plan is saved. */
    public PlanResult plan(String workspace, String through, List<Proposal> proposals, String locale, Work work) {
        HermesMemoryRoot.requireHome(root, paths, "memory_consolidate");
        work.progress(
                0,
                2,
                "checking " + (proposals == null ? 0 : proposals.size()) + " proposals against memory and the logs");
        Journal.recover(paths, root.stewardLock());
        Target t = target(workspace);
        Scope s = t.scope();
        LocalDate today = today();
        MemoryWriter.Loaded loaded = MemoryWriter.load(s.file());
        MemoryDocument doc = loaded.doc();
        if (doc.drifted(s.limit()) && s.isRoot()) {
            throw new StewardError(
                    "memory_consolidate",
                    root.relative(s.file()) + " has drifted (content that does not round-trip through "
                            + "Hermes' memory tool); resolve the drift first, as memory_write would ask");
        }
        Map<String, Evidence> ev = evidence.read();
        Map<String, LocalDate> refs = evidence.references();
        List<Item> items = new ArrayList<>();
        Set<String> liveKeys = new LinkedHashSet<>();
        for (String e : doc.entries()) {
            Item it = new Item();
            Confidence.Parsed p = Confidence.parse(e);
            it.originalText = e;
            it.body = p.body();
            it.level = p.level();
            it.prefixed = p.prefixed();
            it.key = EntryKey.of(e);
            it.ev = ev.get(it.key);
            if (it.ev != null) it.evKey = it.key;
            liveKeys.add(it.key);
            items.add(it);
        }
        // evidence of an entry whose words were edited elsewhere: re-key the orphan that resembles it
        for (Item it : items) {
            if (it.ev != null) continue;
            var tt = it.tokens();
            String bestKey = null;
            double best = 0;
            for (var o : ev.entrySet()) {
                if (liveKeys.contains(o.getKey()) || !s.id().equals(o.getValue().scope())) continue;
                var ot = Similarity.tokens(o.getValue().text());
                double c = Math.min(Similarity.coverage(tt, ot), Similarity.coverage(ot, tt));
                if (c >= 0.8 && c > best) {
                    best = c;
                    bestKey = o.getKey();
                }
            }
            if (bestKey != null) {
                it.ev = ev.get(bestKey);
                it.evKey = bestKey;
                liveKeys.add(bestKey);
            }
            if (it.ev == null) {
                it.ev = new Evidence(
                        s.id(),
                        it.body,
                        it.level,
                        null,
                        Confidence.impliedMentions(it.level),
                        List.of(),
                        today.toString(),
                        null,
                        null,
                        null,
                        false,
                        List.of());
            }
        }
        for (Item it : items) it.lastRef = refs.get(it.key);

        List<SkillSuggestion> skills = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<ChangeView> changes = new ArrayList<>();
        Set<String> live = live(s);
        for (int i = 0; i < (proposals == null ? 0 : proposals.size()); i++) {
            Proposal p = proposals.get(i);
            String pos = "proposals[" + (i + 1) + "]";
            if (p == null || p.text() == null || CodePoints.pyStrip(p.text()).isEmpty())
                throw new StewardError("memory_consolidate", pos + ": text is empty");
            String body = Confidence.parse(CodePoints.pyStrip(p.text())).body().strip();
            if (body.contains(MemoryDocument.DELIMITER.strip()) && body.contains("\n§")) {
                throw new StewardError(
                        "memory_consolidate", pos + ": text contains the entry delimiter '§' on its own line");
            }
            if (CodePoints.length(body) > s.limit())
                throw new StewardError("memory_consolidate", pos + ": text is longer than the whole memory limit");
            var threat = ThreatScan.blockMessage(body);
            if (threat.isPresent()) throw new StewardError("memory_consolidate", pos + ": " + threat.get());
            List<String> refsIn = p.evidence() == null
                    ? List.of()
                    : p.evidence().stream().map(String::strip).distinct().toList();
            if (refsIn.isEmpty())
                throw new StewardError(
                        "memory_consolidate",
                        pos + ": evidence is required (the log refs or session:<id> it comes from)");
            for (String r : refsIn) checkRef(r, s, pos, live);
            boolean confirmed = Boolean.TRUE.equals(p.user_confirmed());
            if (p.supersedes() != null && !p.supersedes().isBlank()) {
                Item old = one(items, p.supersedes(), pos + ".supersedes");
                Item n = newItem(body, p.kind(), refsIn, confirmed, s, today);
                old.supersededBy = body;
                n.ev = withSupersede(
                        n.ev, old, today, root.relative(root.archiveDir().resolve("superseded.md")));
                items.add(n);
                continue;
            }
            Item same = null;
            if (p.same_as() != null && !p.same_as().isBlank()) {
                same = one(items, p.same_as(), pos + ".same_as");
            } else {
                var bt = Similarity.tokens(body);
                String bodyNorm = EntryKey.normalise(body);
                Concepts.Bag bc = null;
                for (Item it : items) {
                    if (it.supersededBy != null) continue;
                    var it2 = it.tokens();
                    if (it.norm().equals(bodyNorm)
                            || bt.size() >= 3
                                    && Math.min(Similarity.coverage(bt, it2), Similarity.coverage(it2, bt)) >= SAME_FACT
                                    // another number, host, version or path, or a negation: another fact
                                    && sameAnchors(bc == null ? bc = Concepts.of(body) : bc, it.concepts())) {
                        same = it;
                        break;
                    }
                }
            }
            if (same != null) {
                int fresh = 0;
                for (String r : refsIn) {
                    if (!same.ev.sources().contains(r) && !same.newSources.contains(r)) {
                        same.newSources.add(r);
                        fresh++;
                    }
                }
                if (fresh == 0 && !confirmed) {
                    warnings.add(pos + ": already counted from the same evidence; no new mention");
                    continue;
                }
                same.touched = true;
                same.confirmed |= confirmed;
                same.ev = mention(same.ev, fresh, same.newSources, today, p.kind());
                changes.add(new ChangeView(
                        "mention",
                        Confidence.format(same.level, same.body),
                        same.level,
                        same.level,
                        null,
                        "mentioned again (" + same.ev.mentions() + " in all)"));
                continue;
            }
            if (MemoryPrecheck.procedure(body) || "lesson".equals(p.kind()) && MemoryPrecheck.procedure(body)) {
                skills.add(new SkillSuggestion(body, bestSkill(body), "pitfalls", refsIn));
                continue;
            }
            items.add(newItem(body, p.kind(), refsIn, confirmed, s, today));
        }

        // level rules over every entry
        int charsNow = MemoryRules.chars(doc.entries());
        LifecycleContext lctx = new LifecycleContext(today, charsNow, s.target());
        List<Item> kept = new ArrayList<>();
        List<Item> superseded = new ArrayList<>();
        for (Item it : items) {
            it.level0 = it.level;
            it.ev0 = it.ev;
            EntryState st = state(it, today, null, false);
            List<Change> cs = LifecycleRules.levels(st, lctx);
            // a new entry's starting level is part of its add, not a change of its own
            List<Change> startedAt = new ArrayList<>();
            for (Change c : cs) {
                if (c.action().equals("supersede")) {
                    superseded.add(it);
                    changes.add(new ChangeView(
                            "supersede", Confidence.format(it.level, it.body), it.level, null, c.rule(), c.en()));
                } else {
                    if (it.added) startedAt.add(c);
                    else {
                        ChangeView v = new ChangeView(
                                c.action(), Confidence.format(c.to(), it.body), c.from(), c.to(), c.rule(), c.en());
                        changes.add(v);
                        it.levelViews.add(v);
                    }
                    it.level = c.to();
                    it.ev = withLevel(it.ev, it.level, today);
                }
            }
            if (it.added) {
                StringBuilder why = new StringBuilder("new, from " + String.join(", ", it.ev.sources()));
                for (Change c : startedAt) why.append("; ").append(c.en());
                changes.add(new ChangeView(
                        "add",
                        Confidence.format(it.level, it.body),
                        null,
                        it.level,
                        startedAt.isEmpty()
                                ? null
                                : startedAt.get(startedAt.size() - 1).rule(),
                        why.toString()));
            } else if (!it.prefixed && it.supersededBy == null) {
                it.prefixView = new ChangeView(
                        "prefix",
                        Confidence.format(it.level, it.body),
                        null,
                        it.level,
                        null,
                        "no confidence prefix: read as [0.5]");
                changes.add(it.prefixView);
            }
            if (it.supersededBy == null) kept.add(it);
        }
        int after = MemoryRules.chars(texts(kept));
        if (s.hermesCap() && after > s.limit()) {
            // Prefixes never take the file over Hermes' cap by themselves: an entry without one reads as [0.5]. The
            // default prefixes go first, then the decay of unprefixed entries this run did not mention (put off: its
            // evidence is kept as it was, so the next plan with room decays it).
            int withPrefixes = after;
            Set<ChangeView> dropped = Collections.newSetFromMap(new IdentityHashMap<>());
            int bare = 0, putOff = 0;
            for (Item it : kept) {
                if (it.prefixView != null && it.levelViews.isEmpty()) {
                    it.bare = true;
                    dropped.add(it.prefixView);
                    bare++;
                }
            }
            after = MemoryRules.chars(texts(kept));
            if (after > s.limit()) {
                for (Item it : kept) {
                    if (it.prefixView != null && !it.bare && !it.touched) {
                        it.bare = true;
                        it.level = it.level0;
                        it.ev = it.ev0;
                        dropped.add(it.prefixView);
                        dropped.addAll(it.levelViews);
                        bare++;
                        putOff++;
                    }
                }
                after = MemoryRules.chars(texts(kept));
            }
            changes.removeIf(dropped::contains);
            if (bare > 0) {
                warnings.add(bare + " entries keep no confidence prefix (one without reads as [0.5])"
                        + (putOff > 0 ? ", and the decay of " + putOff + " of them waits for room" : "")
                        + ": with the prefixes " + root.relative(s.file()) + " would be " + MemoryRules.n(withPrefixes)
                        + "/" + MemoryRules.n(s.limit()) + " chars, over Hermes' cap");
            }
        }
        List<String> newEntries = texts(kept);

        // prune proposals in the seed's order, until the scope is under its target
        List<PruneItem> prune = new ArrayList<>();
        LifecycleContext pctx = new LifecycleContext(today, after, s.target());
        if (pctx.overTarget()) {
            Map<Item, Integer> order = new HashMap<>();
            for (Item it : kept) order.putIfAbsent(it, order.size());
            Map<Item, Change> hits = new LinkedHashMap<>();
            for (Item it : kept) {
                Item k = keeper(it, kept, order, Set.of(), Set.of(), Set.of());
                EntryState st = state(
                        it, today, k == null ? null : MemoryRules.preview(k.body), MemoryPrecheck.procedure(it.body));
                LifecycleRules.prune(st, pctx).ifPresent(c -> hits.put(it, c));
            }
            List<Map.Entry<Item, Change>> ordered = new ArrayList<>(hits.entrySet());
            ordered.sort(Comparator.comparing(e -> e.getValue().rule()));
            // the entry a proposal names as covering another is never proposed itself (confirming both would lose
            // the fact), and a proposed entry covers nothing
            Set<Item> proposed = new HashSet<>();
            Set<Item> keepers = new HashSet<>();
            int sim = after;
            for (var e : ordered) {
                if (sim <= s.target()) break;
                Item it = e.getKey();
                Change ch = e.getValue();
                if (keepers.contains(it)) continue;
                if (ch.rule().equals(REDUNDANT_RULE)) {
                    Item k = keeper(it, kept, order, proposed, keepers, hits.keySet());
                    if (k == null) continue;
                    keepers.add(k);
                    ch = LifecycleRules.prune(
                                    state(it, today, MemoryRules.preview(k.body), MemoryPrecheck.procedure(it.body)),
                                    pctx)
                            .orElseThrow();
                }
                proposed.add(it);
                String text = it.text();
                int c = CodePoints.length(text);
                prune.add(new PruneItem("x" + (prune.size() + 1), text, ch.rule(), ch.en(), c));
                sim -= c + 3;
            }
        }
        boolean fits = !s.hermesCap() || after <= s.limit();
        if (!fits) {
            boolean proposed = proposals != null && !proposals.isEmpty();
            warnings.add(root.relative(s.file()) + " would be " + MemoryRules.n(after) + "/" + MemoryRules.n(s.limit())
                    + " chars, over Hermes' cap"
                    + (charsNow > s.limit() ? " (it is " + MemoryRules.n(charsNow) + " already)" : "") + ": "
                    + (prune.isEmpty()
                            ? (proposed ? "make a plan with fewer proposals, or " : "")
                                    + "shorten or remove entries (memory_write) to bring it under"
                            : "apply needs confirmed prune items" + (proposed ? " (or fewer proposals)" : "")
                                    + " to bring it under"));
        }

        // logs: archive what is old and processed by every scope that has lines in it; drift .bak files
        ObjectNode index = MemoryIndex.read(root);
        Map<LocalDate, Path> logs = DailyLog.files(root.logsDir());
        Map<String, MemoryIndex.Position> wms = new LinkedHashMap<>();
        // a position an earlier Steward wrote (one date and line) is carried over into per-file positions here
        MemoryIndex.positions(index).forEach((k, v) -> wms.put(k, v.carriedOver(logs)));
        MemoryIndex.Position pos = wms.getOrDefault(s.id(), MemoryIndex.Position.NONE);
        // only the lines gather showed are marked, through the last one shown in each file
        for (var e : throughLines(through).entrySet()) pos = pos.through(e.getKey(), e.getValue());
        if (!pos.files().isEmpty() || wms.containsKey(s.id())) wms.put(s.id(), pos);
        if (through == null || through.isBlank()) {
            int open = unprocessed(s, pos, logs);
            if (open > 0)
                warnings.add(open + " unprocessed log lines stay unprocessed: this plan has no through (gather's marks"
                        + " the lines it showed)");
        }
        List<Journal.Op> moves = new ArrayList<>();
        List<FileChange> files = new ArrayList<>();
        Map<LocalDate, Path> staying = new TreeMap<>(logs);
        for (var f : logs.entrySet()) {
            if (!f.getKey().isBefore(today.minusDays(ARCHIVE_AFTER_DAYS))) continue;
            DailyLog.Day d = DailyLog.read(f.getValue(), f.getKey());
            boolean processed = true;
            for (DailyLog.Line l : d.lines()) {
                MemoryIndex.Position w = wms.get(DailyLog.owner(l, live));
                if (w == null || !w.processed(f.getKey().toString(), l.number())) {
                    processed = false;
                    break;
                }
            }
            if (!processed) continue;
            staying.remove(f.getKey());
            Path to = root.archiveDir().resolve("logs").resolve(f.getValue().getFileName());
            byte[] b = readBytes(f.getValue());
            moves.add(Journal.Op.move(f.getValue(), to, Journal.sha(b)));
            files.add(new FileChange(
                    root.relative(f.getValue()), "move", root.relative(to), b.length, b.length, "", 0, 0));
        }
        // positions in archived logs are no longer needed
        wms.replaceAll((k, v) -> v.carriedOver(staying));
        for (Path bak : surplusBaks()) {
            Path to = paths.stateDir()
                    .resolve("backups")
                    .resolve("memory-drift")
                    .resolve(root.relative(bak).replace('/', '_'));
            byte[] b = readBytes(bak);
            moves.add(Journal.Op.move(bak, to, Journal.sha(b)));
            files.add(new FileChange(root.relative(bak), "move", to.toString(), b.length, b.length, "", 0, 0));
        }

        // diffs of the files the plan writes (prunes shown as their own items)
        byte[] mainBefore = loaded.bytes();
        byte[] mainAfter = String.join(MemoryDocument.DELIMITER, newEntries).getBytes(StandardCharsets.UTF_8);
        boolean mainChanged = mainBefore == null ? !newEntries.isEmpty() : !Arrays.equals(mainBefore, mainAfter);
        if (mainChanged) files.add(0, fileChange(s.file(), mainBefore, mainAfter));
        Path supFile = root.archiveDir().resolve("superseded.md");
        byte[] supBefore = readOrNull(supFile);
        byte[] supAfter = null;
        if (!superseded.isEmpty()) {
            StringBuilder sb = new StringBuilder(
                    supBefore == null
                            ? "# Superseded memory entries\n\n"
                            : new String(supBefore, StandardCharsets.UTF_8));
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '\n') sb.append('\n');
            for (Item it : superseded) {
                sb.append("- ")
                        .append(today)
                        .append(" [")
                        .append(s.id())
                        .append("] superseded by: ")
                        .append(oneLine(it.supersededBy))
                        .append('\n')
                        .append("  was: ")
                        .append(oneLine(Confidence.format(it.level, it.body)))
                        .append('\n');
            }
            supAfter = sb.toString().getBytes(StandardCharsets.UTF_8);
            files.add(fileChange(supFile, supBefore, supAfter));
        }

        // evidence after the plan (without prunes; apply marks the confirmed ones)
        Map<String, Evidence> evAfter = new TreeMap<>(ev);
        for (Item it : items) {
            if (it.supersededBy != null) {
                evAfter.remove(it.key);
                continue;
            }
            String k = EntryKey.of(it.body);
            if (it.evKey != null && !it.evKey.equals(k)) evAfter.remove(it.evKey);
            Evidence e = it.ev;
            evAfter.put(
                    k,
                    new Evidence(
                            s.id(),
                            it.body,
                            it.level,
                            e.kind(),
                            e.mentions(),
                            e.sources(),
                            e.first_seen(),
                            e.last_seen(),
                            it.lastRef != null
                                            && (e.last_referenced() == null
                                                    || it.lastRef.toString().compareTo(e.last_referenced()) > 0)
                                    ? it.lastRef.toString()
                                    : e.last_referenced(),
                            e.level_changed(),
                            e.confirmed() || it.confirmed,
                            e.supersedes()));
        }

        String id = "mc_" + HexFormat.of().formatHex(bytes8());
        Instant now = clock.instant();
        String loc = locale(locale, newEntries, proposals);
        ObjectNode plan = Json.MAPPER.createObjectNode();
        plan.put("plan_id", id);
        plan.put("created_at", now.toString());
        plan.put("expires_epoch", now.getEpochSecond() + PLAN_SECONDS);
        plan.put("scope", s.id());
        plan.put("file", enc(s.file()));
        plan.put("limit", s.limit());
        plan.put("hermes_cap", s.hermesCap());
        if (t.create()) {
            plan.put("create_workspace", s.workspace());
            plan.put("workspace_path", s.workspacePath());
        }
        plan.put("locale", loc);
        ObjectNode base = plan.putObject("base");
        base.put(enc(s.file()), mainBefore == null ? "absent" : Journal.sha(mainBefore));
        base.put(enc(supFile), supBefore == null ? "absent" : Journal.sha(supBefore));
        byte[] idxBefore = readOrNull(root.indexFile());
        base.put(enc(root.indexFile()), idxBefore == null ? "absent" : Journal.sha(idxBefore));
        byte[] evBefore = readOrNull(evidence.file());
        base.put(enc(evidence.file()), evBefore == null ? "absent" : Journal.sha(evBefore));
        ArrayNode ents = plan.putArray("entries");
        newEntries.forEach(ents::add);
        plan.put("main_changed", mainChanged);
        plan.put("proposals", proposals == null ? 0 : proposals.size());
        if (supAfter != null) plan.put("superseded_md", new String(supAfter, StandardCharsets.UTF_8));
        ArrayNode pr = plan.putArray("prune");
        for (PruneItem p : prune)
            pr.addObject()
                    .put("id", p.id())
                    .put("entry", p.entry())
                    .put("rule", p.rule())
                    .put("reason", p.reason());
        ArrayNode mv = plan.putArray("moves");
        for (Journal.Op m : moves)
            mv.addObject()
                    .put("from", enc(m.source()))
                    .put("to", enc(m.target()))
                    .put("sha", m.sha());
        plan.set("evidence", Json.MAPPER.valueToTree(evAfter));
        plan.set("watermarks", MemoryIndex.json(wms));
        ObjectNode counts = plan.putObject("counts");
        for (ChangeView c : changes)
            counts.put(c.action(), counts.path(c.action()).asInt(0) + 1);
        counts.put("archived", (int) moves.stream()
                .filter(m -> m.target().startsWith(root.archiveDir()))
                .count());
        counts.put("baks_moved", (int) moves.stream()
                .filter(m -> !m.target().startsWith(root.archiveDir()))
                .count());
        counts.put("skill_suggestions", skills.size());
        work.checkpoint("memory_consolidate"); // the last safe point: the plan is then written whole
        work.progress(1, 2, "saving plan " + id);
        try {
            AtomicFiles_write(
                    plansDir().resolve(id + ".json"),
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(plan));
        } catch (IOException e) {
            throw new StewardError("memory_consolidate", "cannot save the plan: " + e.getMessage());
        }
        String health = after > Scope.URGENT_CHARS ? "urgent" : after > Scope.HEALTHY_CHARS || !fits ? "over" : "ok";
        PlanResult r = new PlanResult(
                id,
                Instant.ofEpochSecond(now.getEpochSecond() + PLAN_SECONDS).toString(),
                s.id(),
                root.relative(s.file()),
                t.create(),
                charsNow,
                after,
                s.limit(),
                s.target(),
                fits,
                health,
                changes,
                prune,
                skills,
                files,
                warnings,
                loc,
                null);
        return withReport(r, Reports.plan(r, loc));
    }

    private static PlanResult withReport(PlanResult r, String report) {
        return new PlanResult(
                r.plan_id(),
                r.expires_at(),
                r.scope(),
                r.file(),
                r.creates_workspace(),
                r.chars_before(),
                r.chars_after(),
                r.limit(),
                r.target(),
                r.fits(),
                r.health(),
                r.changes(),
                r.prune(),
                r.skill_suggestions(),
                r.files(),
                r.warnings(),
                r.locale(),
                report);
    }

    private void checkRef(String r, Scope s, String pos, Set<String> live) {
        Matcher m = REF.matcher(r);
        if (m.matches()) {
            LocalDate d;
            try {
                d = LocalDate.parse(m.group(1));
            } catch (RuntimeException e) {
                throw new StewardError("memory_consolidate", pos + ": evidence '" + r + "' has no valid date");
            }
            Path f = DailyLog.file(root, d);
            if (!Files.isRegularFile(f)) f = root.archiveDir().resolve("logs").resolve(d + ".md");
            DailyLog.Day day = DailyLog.read(f, d);
            // a number past any int names no line (Integer.parseInt would throw)
            int n = m.group(2).length() > 9 ? -1 : Integer.parseInt(m.group(2));
            DailyLog.Line line = day.lines().stream()
                    .filter(l -> l.number() == n)
                    .findFirst()
                    .orElse(null);
            if (line == null)
                throw new StewardError("memory_consolidate", pos + ": evidence '" + r + "' names no log line");
            String owner = DailyLog.owner(line, live);
            if (!owner.equals(s.id())) {
                throw new StewardError(
                        "memory_consolidate",
                        pos + ": evidence '" + r + "' belongs to " + owner + ", not " + s.id()
                                + " (partitions never share entries)");
            }
            return;
        }
        if (r.matches("session:[A-Za-z0-9_.:-]{1,200}")) return;
        throw new StewardError(
                "memory_consolidate", pos + ": evidence '" + r + "' is neither log:YYYY-MM-DD#line nor session:<id>");
    }

    private static Item one(List<Item> items, String needle, String pos) {
        String n = needle.strip();
        List<Item> hits = items.stream()
                .filter(i -> i.supersededBy == null
                        && !i.added
                        && (i.body.contains(n)
                                || Confidence.format(i.level, i.body).contains(n)
                                || i.originalText != null && i.originalText.contains(n)))
                .toList();
        if (hits.isEmpty()) throw new StewardError("memory_consolidate", pos + ": no entry contains '" + n + "'");
        if (hits.size() > 1)
            throw new StewardError(
                    "memory_consolidate", pos + ": '" + n + "' matches " + hits.size() + " entries; be more specific");
        return hits.get(0);
    }

    private static Item newItem(
            String body, String kind, List<String> refs, boolean confirmed, Scope s, LocalDate today) {
        Item n = new Item();
        n.body = body;
        n.level = 0.3;
        n.prefixed = true;
        n.key = null;
        n.added = true;
        n.touched = true;
        n.confirmed = confirmed;
        n.newSources.addAll(refs);
        n.ev = new Evidence(
                s.id(),
                body,
                0.3,
                kind,
                refs.size(),
                bounded(refs),
                today.toString(),
                today.toString(),
                null,
                today.toString(),
                confirmed,
                List.of());
        return n;
    }

    private static Evidence mention(Evidence e, int fresh, List<String> added, LocalDate today, String kind) {
        List<String> src = new ArrayList<>(e.sources());
        for (String a : added) if (!src.contains(a)) src.add(a);
        return new Evidence(
                e.scope(),
                e.text(),
                e.level(),
                e.kind() == null ? kind : e.kind(),
                e.mentions() + fresh,
                bounded(src),
                e.first_seen(),
                today.toString(),
                e.last_referenced(),
                e.level_changed(),
                e.confirmed(),
                e.supersedes());
    }

    private static Evidence withLevel(Evidence e, double level, LocalDate today) {
        return new Evidence(
                e.scope(),
                e.text(),
                level,
                e.kind(),
                e.mentions(),
                e.sources(),
                e.first_seen(),
                e.last_seen(),
                e.last_referenced(),
                today.toString(),
                e.confirmed(),
                e.supersedes());
    }

    private static Evidence withSupersede(Evidence e, Item old, LocalDate today, String archive) {
        List<Evidence.Superseded> l = new ArrayList<>(e.supersedes());
        l.add(new Evidence.Superseded(Confidence.format(old.level, old.body), today.toString(), archive));
        return new Evidence(
                e.scope(),
                e.text(),
                e.level(),
                e.kind(),
                e.mentions(),
                e.sources(),
                e.first_seen(),
                e.last_seen(),
                e.last_referenced(),
                e.level_changed(),
                e.confirmed(),
                l);
    }

    private static List<String> bounded(List<String> l) {
        return l.size() <= Evidence.MAX_SOURCES
                ? List.copyOf(l)
                : List.copyOf(l.subList(l.size() - Evidence.MAX_SOURCES, l.size()));
    }

    static EntryState state(Item it, LocalDate today, String redundantWith, boolean procedure) {
        LocalDate last = lastActivity(it.ev, it.lastRef);
        if (it.touched) last = today;
        LocalDate changed = it.ev.level_changed() == null ? null : LocalDate.parse(it.ev.level_changed());
        return new EntryState(
                it.body,
                it.level,
                it.ev.mentions(),
                it.confirmed,
                last,
                changed == null ? it.ev.first_seen() == null ? today : LocalDate.parse(it.ev.first_seen()) : changed,
                it.touched,
                it.supersededBy,
                procedure,
                redundantWith);
    }

    static final String REDUNDANT_RULE = new PruneRedundantRule().id();

    /** The texts of {@code kept} as the plan writes them, each once. */
    private static List<String> texts(List<Item> kept) {
        List<String> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Item it : kept) {
            String text = it.text();
            if (seen.add(text)) out.add(text);
        }
        return out;
    }

    /** Neither text has a number, host, version, path or negation the other lacks. */
    static boolean sameAnchors(Concepts.Bag a, Concepts.Bag b) {
        return Concepts.missingAnchors(a, b).isEmpty()
                && Concepts.missingAnchors(b, a).isEmpty();
    }

    /**
     * Whether {@code o} covers {@code it} (rule R4): nearly all of its words and every one of its anchors (numbers,
     * hosts, versions, paths, a negation: "host1 runs service 1" is not "host0 runs service 0"); of two with as many
     * words, the earlier covers the later.
     */
    private static boolean covers(Item o, Item it, Map<Item, Integer> order) {
        if (o == it) return false;
        var t = it.tokens();
        var ot = o.tokens();
        return t.size() >= 3
                && Similarity.coverage(t, ot) >= REDUNDANT
                && (ot.size() > t.size() || ot.size() == t.size() && order.get(o) < order.get(it))
                && Concepts.missingAnchors(it.concepts(), o.concepts()).isEmpty();
    }

    /**
     * The entry that covers {@code it} and stays: never one already {@code proposed} for pruning; preferably one
     * that already covers another proposal, then one no rule proposes ({@code candidates} are those some rule
     * proposes), then the first.
     */
    private static Item keeper(
            Item it,
            List<Item> kept,
            Map<Item, Integer> order,
            Set<Item> proposed,
            Set<Item> keepers,
            Set<Item> candidates) {
        Item best = null;
        int bestRank = Integer.MAX_VALUE;
        for (Item o : kept) {
            if (proposed.contains(o) || !covers(o, it, order)) continue;
            int rank = keepers.contains(o) ? 0 : candidates.contains(o) ? 2 : 1;
            if (rank < bestRank) {
                best = o;
                bestRank = rank;
            }
        }
        return best;
    }

    static final Pattern THROUGH = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})#(\\d{1,9})");

    /** {@code through} as gather returns it: per log file {@code date#line}, comma-separated (each may begin with log:). */
    static Map<String, Integer> throughLines(String through) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (through == null || through.isBlank()) return out;
        for (String part : through.split(",")) {
            Matcher m = THROUGH.matcher(part.strip().replaceFirst("^log:", ""));
            boolean date = m.matches();
            try {
                if (date) LocalDate.parse(m.group(1));
            } catch (RuntimeException e) {
                date = false;
            }
            if (!date)
                throw new StewardError(
                        "memory_consolidate",
                        "through must be YYYY-MM-DD#line (per log file, comma-separated) as gather returned it, got '"
                                + part.strip() + "'");
            out.merge(m.group(1), Integer.parseInt(m.group(2)), Math::max);
        }
        return out;
    }

    /** The partitions that exist, with the one scope {@code s} is (a plan may be about to create it). */
    Set<String> live(Scope s) {
        Set<String> out = Partitions.names(root);
        if (s.workspace() != null) out.add(s.workspace());
        return out;
    }

    /** How many lines of scope {@code s} in {@code logs} {@code pos} has not processed. */
    int unprocessed(Scope s, MemoryIndex.Position pos, Map<LocalDate, Path> logs) {
        Set<String> live = live(s);
        int n = 0;
        for (var f : logs.entrySet())
            for (DailyLog.Line l : DailyLog.read(f.getValue(), f.getKey()).lines())
                if (DailyLog.owner(l, live).equals(s.id())
                        && !pos.processed(f.getKey().toString(), l.number())) n++;
        return n;
    }

    /** Drift {@code <file>.bak.<epoch>} files in the memory root and partitions beyond the newest {@value #KEEP_BAKS} per file. */
    List<Path> surplusBaks() {
        List<Path> dirs = new ArrayList<>();
        dirs.add(root.dir());
        for (Partitions.Workspace w : Partitions.list(root)) dirs.add(w.dir());
        List<Path> out = new ArrayList<>();
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) continue;
            Map<String, List<Path>> byBase = new TreeMap<>();
            try (Stream<Path> s = Files.list(d)) {
                s.filter(Files::isRegularFile).forEach(p -> {
                    Matcher m = BAK.matcher(p.getFileName().toString());
                    if (m.matches())
                        byBase.computeIfAbsent(m.group(1), k -> new ArrayList<>())
                                .add(p);
                });
            } catch (IOException e) {
                throw new StewardError("memory_consolidate", "cannot list " + d + ": " + IoErrors.describe(e));
            }
            for (List<Path> l : byBase.values()) {
                l.sort(Comparator.comparing((Path p) -> Long.parseLong(epoch(p)))
                        .reversed());
                for (int i = KEEP_BAKS; i < l.size(); i++) out.add(l.get(i));
            }
        }
        return out;
    }

    private static String epoch(Path p) {
        Matcher m = BAK.matcher(p.getFileName().toString());
        if (!m.matches()) return "0";
        String e = m.group(2);
        return e.length() > 18 ? e.substring(0, 18) : e;
    }

    private String bestSkill(String body) {
        Path skills = paths.skillsDir();
        if (!Files.isDirectory(skills)) return null;
        var t = Similarity.tokens(body);
        String best = null;
        double score = 0;
        try (Stream<Path> s = Files.walk(skills)) {
            for (Path p :
                    s.filter(f -> f.getFileName().toString().equals("SKILL.md")).toList()) {
                double c = Similarity.coverage(
                        t, Similarity.tokens(new String(Files.readAllBytes(p), StandardCharsets.UTF_8)));
                if (c > score) {
                    score = c;
                    best = paths.hermesHome().relativize(p).toString();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return score >= 0.15 ? best : null;
    }

    private FileChange fileChange(Path f, byte[] before, byte[] after) {
        String rel = root.relative(f);
        String d = Diffs.unified(rel, before, after);
        int[] c = Diffs.counts(d);
        return new FileChange(
                rel,
                before == null ? "create" : "write",
                null,
                before == null ? null : before.length,
                after == null ? null : after.length,
                d,
                c[0],
                c[1]);
    }

    static String oneLine(String s) {
        return s.replace('\n', ' ');
    }

    static String locale(String requested, List<String> entries, List<Proposal> proposals) {
        if (requested != null && !requested.isBlank()) {
            String l = requested.strip().toLowerCase(Locale.ROOT);
            if (l.startsWith("zh")) return "zh";
            if (l.startsWith("en")) return "en";
            throw new StewardError("memory_consolidate", "locale must be en or zh");
        }
        StringBuilder sb = new StringBuilder();
        if (proposals != null) for (Proposal p : proposals) if (p != null && p.text() != null) sb.append(p.text());
        if (sb.length() == 0) entries.forEach(sb::append);
        long cjk = sb.codePoints()
                .filter(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN)
                .count();
        long letters = sb.codePoints().filter(Character::isLetter).count();
        return letters > 0 && cjk * 4 >= letters ? "zh" : "en";
    }

    private static byte[] bytes8() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return b;
    }

    Path plansDir() {
        return paths.stateDir().resolve("plans");
    }

    static byte[] readOrNull(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new StewardError("memory_consolidate", "cannot read " + p + ": " + IoErrors.describe(e));
        }
    }

    static byte[] readBytes(Path p) {
        byte[] b = readOrNull(p);
        if (b == null) throw new StewardError("memory_consolidate", p + " disappeared while planning");
        return b;
    }

    private static void AtomicFiles_write(Path p, byte[] b) throws IOException {
        AtomicFiles.write(p, b);
    }

    // ------------------------------------------------------------------------------------------------ apply

    /** What makes {@code plan} (read from {@code <id>.json}) no plan apply may act on, or null when it is whole. */
    static String planDamage(JsonNode plan, String id) {
        if (plan == null || !plan.isObject()) return "not a plan object";
        if (!id.equals(plan.path("plan_id").asString(""))) return "it is not plan " + id;
        if (!plan.path("expires_epoch").canConvertToLong()
                || !plan.path("expires_epoch").isIntegralNumber()) return "no expiry time";
        for (String f : List.of("scope", "file")) if (!plan.path(f).isString()) return "no " + f;
        if (!plan.path("limit").isInt()) return "no limit";
        if (!plan.path("base").isObject()) return "no base files";
        for (var b : plan.path("base").properties())
            if (!b.getValue().isString()) return "base file " + b.getKey() + " without its checksum";
        if (!plan.path("entries").isArray()) return "no entries";
        for (JsonNode e : plan.path("entries")) if (!e.isString()) return "an entry that is not text";
        for (String f : List.of("prune", "moves"))
            if (!plan.path(f).isMissingNode() && !plan.path(f).isArray()) return "no list of " + f;
        for (JsonNode p : plan.path("prune"))
            if (!p.path("id").isString() || !p.path("entry").isString()) return "a prune item without id or entry";
        for (JsonNode m : plan.path("moves"))
            if (!m.path("from").isString()
                    || !m.path("to").isString()
                    || !m.path("sha").isString()) return "a move without its paths or checksum";
        for (var c : plan.path("counts").properties()) if (!c.getValue().isInt()) return "a count that is no number";
        if (plan.has("superseded_md") && !plan.path("superseded_md").isString())
            return "superseded text that is not text";
        if (plan.has("evidence") && !plan.path("evidence").isObject()) return "no evidence";
        if (plan.has("evidence")
                && EvidenceStore.damage(Json.MAPPER.convertValue(
                                plan.path("evidence"),
                                new tools.jackson.core.type.TypeReference<TreeMap<String, Evidence>>() {}))
                        != null) return "evidence that is not whole";
        return null;
    }

    public record ApplyResult(
            String plan_id,
            String scope,
            boolean applied,
            int chars_before,
            int chars_after,
            int limit,
            List<String> pruned,
            List<FileChange> files,
            String backup_dir,
            String version,
            Map<String, Integer> counts,
            String report) {}

    public ApplyResult apply(String planId, List<String> confirmPrune, String client) {
        return apply(planId, confirmPrune, client, Work.NONE);
    }

    /** Progress by phase; a cancellation is honoured only before the journal runs, when nothing has been written. */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    public ApplyResult apply(String planId, List<String> confirmPrune, String client, Work work) {
        HermesMemoryRoot.requireHome(root, paths, "memory_consolidate");
        work.progress(0, 2, "checking plan " + planId);
        Journal.recover(paths, root.stewardLock());
        if (planId == null || !PLAN_ID.matcher(planId).matches()) {
            throw new StewardError(
                    "memory_consolidate",
                    "unknown plan id '" + planId + "' (expected mc_ and 16 hex digits, as plan returned)");
        }
        Path pf = plansDir().resolve(planId + ".json");
        byte[] planBytes = readOrNull(pf);
        if (planBytes == null) {
            if (Files.exists(plansDir().resolve("used").resolve(planId + ".json"))) {
                throw new StewardError(
                        "memory_consolidate", "plan " + planId + " was already applied; make a new plan");
            }
            throw new StewardError(
                    "memory_consolidate", "unknown plan " + planId + " (expired plans are removed; make a new plan)");
        }
        JsonNode plan;
        String damage;
        try {
            plan = Json.MAPPER.readTree(planBytes);
            damage = planDamage(plan, planId);
        } catch (RuntimeException e) {
            plan = null;
            damage = Json.problem(e);
        }
        if (damage != null) {
            // refused whole and left where it is: never applied in part, never read as "expired"
            throw new StewardError(
                    "memory_consolidate",
                    "plan " + planId + " is unreadable: damaged (" + damage + "), or written by another Steward "
                            + "version; nothing was changed; make a new plan");
        }
        Instant now = clock.instant();
        if (now.getEpochSecond() > plan.path("expires_epoch").asLong()) {
            throw new StewardError(
                    "memory_consolidate",
                    "plan " + planId + " expired at "
                            + Instant.ofEpochSecond(plan.path("expires_epoch").asLong()));
        }
        Map<String, String> pruneById = new LinkedHashMap<>();
        for (JsonNode p : plan.path("prune"))
            pruneById.put(p.path("id").asString(), p.path("entry").asString());
        List<String> confirm = confirmPrune == null
                ? List.of()
                : confirmPrune.stream().distinct().toList();
        for (String c : confirm) {
            if (!pruneById.containsKey(c))
                throw new StewardError(
                        "memory_consolidate",
                        "confirm_prune: '" + c + "' is not a prune item of " + planId + " " + pruneById.keySet());
        }
        String scopeId = plan.path("scope").asString();
        Path main = dec(plan.path("file").asString());
        int limit = plan.path("limit").asInt();
        boolean cap = plan.path("hermes_cap").asBoolean();
        List<String> entries = new ArrayList<>();
        plan.path("entries").forEach(n -> entries.add(n.asString()));
        List<String> pruned = new ArrayList<>();
        for (String c : confirm) {
            String e = pruneById.get(c);
            if (entries.remove(e)) pruned.add(e);
        }
        int after = MemoryRules.chars(entries);
        if (cap && after > limit) {
            List<String> ways = new ArrayList<>();
            if (!pruneById.isEmpty()) ways.add("confirm prune items " + pruneById.keySet());
            // a plan saved before the count was kept may have had proposals
            if (plan.path("proposals").asInt(1) > 0) ways.add("make a plan with fewer proposals");
            if (ways.isEmpty()) ways.add("shorten or remove entries (memory_write) and make a new plan");
            throw new StewardError(
                    "memory_consolidate",
                    root.relative(main) + " would be " + MemoryRules.n(after) + "/" + MemoryRules.n(limit)
                            + " chars, over Hermes' cap; " + String.join(" or ", ways) + ". Nothing was changed.");
        }
        Path stewardLock = root.stewardLock();
        try (Flock l1 = Flock.exclusive(stewardLock);
                Flock l2 = Flock.exclusive(root.lockFor(main))) {
            // nothing may have changed since the plan
            for (var b : plan.path("base").properties()) {
                byte[] cur = readOrNull(dec(b.getKey()));
                String sha = cur == null ? "absent" : Journal.sha(cur);
                if (!sha.equals(b.getValue().asString())) {
                    throw new StewardError(
                            "memory_consolidate",
                            relOrAbs(dec(b.getKey())) + " changed since plan " + planId
                                    + " was made; make a new plan. Nothing was changed.");
                }
            }
            for (JsonNode m : plan.path("moves")) {
                byte[] cur = readOrNull(dec(m.path("from").asString()));
                if (cur == null || !Journal.sha(cur).equals(m.path("sha").asString())) {
                    throw new StewardError(
                            "memory_consolidate",
                            relOrAbs(dec(m.path("from").asString())) + " changed since plan " + planId
                                    + " was made; make a new plan. Nothing was changed.");
                }
            }
            byte[] mainBefore = readOrNull(main);
            List<Journal.Op> ops = new ArrayList<>();
            List<FileChange> files = new ArrayList<>();
            byte[] mainAfter = String.join(MemoryDocument.DELIMITER, entries).getBytes(StandardCharsets.UTF_8);
            boolean mainChanged = mainBefore == null ? !entries.isEmpty() : !Arrays.equals(mainBefore, mainAfter);
            if (mainChanged) {
                ops.add(Journal.Op.put(main, mainAfter));
                files.add(fileChange(main, mainBefore, mainAfter));
            }
            if (plan.has("create_workspace")) {
                Path meta = main.getParent().resolve(Partitions.META);
                if (!Files.exists(meta)) {
                    byte[] mb = Partitions.meta(plan.path("workspace_path").asString());
                    ops.add(Journal.Op.put(meta, mb));
                    files.add(fileChange(meta, null, mb));
                }
            }
            Path supFile = root.archiveDir().resolve("superseded.md");
            if (plan.has("superseded_md")) {
                byte[] b = plan.path("superseded_md").asString().getBytes(StandardCharsets.UTF_8);
                ops.add(Journal.Op.put(supFile, b));
                files.add(fileChange(supFile, readOrNull(supFile), b));
            }
            LocalDate today = today();
            if (!pruned.isEmpty()) {
                Path pf2 = root.archiveDir().resolve("pruned.md");
                byte[] before = readOrNull(pf2);
                StringBuilder sb = new StringBuilder(
                        before == null
                                ? "# Pruned memory entries (confirmed by the user)\n\n"
                                : new String(before, StandardCharsets.UTF_8));
                if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '\n') sb.append('\n');
                for (String e : pruned)
                    sb.append("- ")
                            .append(today)
                            .append(" [")
                            .append(scopeId)
                            .append("] ")
                            .append(oneLine(e))
                            .append('\n');
                byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
                ops.add(Journal.Op.put(pf2, b));
                files.add(fileChange(pf2, before, b));
            }
            for (JsonNode m : plan.path("moves")) {
                Path from = dec(m.path("from").asString()),
                        to = dec(m.path("to").asString());
                ops.add(Journal.Op.move(from, to, m.path("sha").asString()));
                byte[] b = readOrNull(from);
                files.add(new FileChange(relOrAbs(from), "move", relOrAbs(to), b.length, b.length, "", 0, 0));
            }
            // evidence, index and audit
            Map<String, Evidence> ev = Json.MAPPER.convertValue(
                    plan.path("evidence"), new tools.jackson.core.type.TypeReference<TreeMap<String, Evidence>>() {});
            for (String e : pruned) ev.remove(EntryKey.of(e));
            Map<String, MemoryIndex.Position> wms = MemoryIndex.positions(plan.path("watermarks"));
            ObjectNode oldIndex = MemoryIndex.read(root);
            ArrayNode audit = oldIndex.path("audit_history") instanceof ArrayNode a
                    ? a.deepCopy()
                    : Json.MAPPER.createArrayNode();
            Map<String, Integer> counts = new LinkedHashMap<>();
            plan.path("counts")
                    .properties()
                    .forEach(e -> counts.put(e.getKey(), e.getValue().asInt()));
            counts.put("pruned", pruned.size());
            ObjectNode run = audit.addObject();
            run.put("at", now.toString());
            run.put("plan_id", planId);
            run.put("scope", scopeId);
            run.put("client", client == null ? "unknown" : client);
            for (String k : List.of(
                    "add",
                    "mention",
                    "promote",
                    "demote",
                    "supersede",
                    "prefix",
                    "archived",
                    "baks_moved",
                    "pruned",
                    "skill_suggestions")) {
                run.put(
                        k.equals("add")
                                ? "added"
                                : k.equals("promote")
                                        ? "promoted"
                                        : k.equals("demote")
                                                ? "demoted"
                                                : k.equals("supersede")
                                                        ? "superseded"
                                                        : k.equals("mention")
                                                                ? "mentioned"
                                                                : k.equals("prefix") ? "prefixed" : k,
                        counts.getOrDefault(k, 0));
            }
            run.put(
                    "chars_before",
                    mainBefore == null
                            ? 0
                            : MemoryRules.chars(MemoryDocument.parse(new String(mainBefore, StandardCharsets.UTF_8))
                                    .entries()));
            run.put("chars_after", after);
            List<MemoryIndex.ScopeEntries> scopes = new ArrayList<>();
            Scope rootScope = Scope.root(root);
            scopes.add(new MemoryIndex.ScopeEntries(
                    rootScope,
                    root.relative(rootScope.file()),
                    scopeId.equals("root")
                            ? entries
                            : MemoryWriter.load(rootScope.file()).doc().entries(),
                    ev));
            List<Partitions.Workspace> wss = new ArrayList<>(Partitions.list(root));
            if (plan.has("create_workspace")
                    && Partitions.byName(wss, plan.path("create_workspace").asString()) == null) {
                wss.add(new Partitions.Workspace(
                        plan.path("create_workspace").asString(),
                        plan.path("workspace_path").asString(),
                        main.getParent()));
            }
            for (Partitions.Workspace w : wss) {
                Scope ws = Scope.of(w);
                scopes.add(new MemoryIndex.ScopeEntries(
                        ws,
                        root.relative(ws.file()),
                        ws.id().equals(scopeId)
                                ? entries
                                : MemoryWriter.load(ws.file()).doc().entries(),
                        ev));
            }
            byte[] idx = MemoryIndex.build(scopes, wms, audit, now.toString());
            ops.add(Journal.Op.put(root.indexFile(), idx));
            files.add(fileChange(root.indexFile(), readOrNull(root.indexFile()), idx));
            ops.add(Journal.Op.put(evidence.file(), EvidenceStore.bytes(ev)));
            ops.add(Journal.Op.move(pf, plansDir().resolve("used").resolve(planId + ".json"), Journal.sha(planBytes)));

            Path backupDir =
                    paths.stateDir().resolve("backups").resolve("consolidate").resolve(planId);
            work.checkpoint("memory_consolidate"); // the last safe point: from here the journal runs to its end
            work.progress(1, 2, "applying " + ops.size() + " file changes through the journal");
            if (mainBefore != null && mainChanged && scopeId.equals("root")) {
                MemoryBackups.snapshot(paths.stateDir(), main.getFileName().toString(), mainBefore, now);
            }
            Map<Path, byte[]> was = new LinkedHashMap<>();
            for (Journal.Op op : ops) {
                if (op.kind().equals("put")) was.put(op.target(), readOrNull(op.target()));
                else {
                    was.put(op.source(), readOrNull(op.source()));
                    was.put(op.target(), null);
                }
            }
            Journal.run(paths, planId, ops, backupDir);
            String version =
                    History.recordQuietly(paths, clock, "memory_consolidate " + planId + " (" + scopeId + ")", was);
            ApplyResult r = new ApplyResult(
                    planId,
                    scopeId,
                    true,
                    run.path("chars_before").asInt(),
                    after,
                    limit,
                    pruned,
                    files,
                    backupDir.toString(),
                    version == null ? null : version.substring(0, 12),
                    counts,
                    null);
            return new ApplyResult(
                    r.plan_id(),
                    r.scope(),
                    r.applied(),
                    r.chars_before(),
                    r.chars_after(),
                    r.limit(),
                    r.pruned(),
                    r.files(),
                    r.backup_dir(),
                    r.version(),
                    r.counts(),
                    Reports.apply(r, plan.path("locale").asString("en")));
        } catch (IOException e) {
            throw new StewardError("memory_consolidate", "cannot lock the memory files: " + e.getMessage(), e);
        }
    }

    /** A path as a plan stores it: relative to the state dir ({@code state:}) or the home ({@code home:}), so a plan names no absolute path. */
    String enc(Path p) {
        Path a = p.toAbsolutePath().normalize();
        if (a.startsWith(paths.stateDir()))
            return "state:" + paths.stateDir().relativize(a).toString().replace('\\', '/');
        if (a.startsWith(paths.hermesHome()))
            return "home:" + paths.hermesHome().relativize(a).toString().replace('\\', '/');
        throw new StewardError("memory_consolidate", p + " is outside the Hermes home and the state dir");
    }

    Path dec(String s) {
        Path p;
        if (s.startsWith("state:")) p = paths.stateDir().resolve(s.substring(6)).normalize();
        else if (s.startsWith("home:"))
            p = paths.hermesHome().resolve(s.substring(5)).normalize();
        else throw new StewardError("memory_consolidate", "the plan names an unknown path '" + s + "'");
        if (!p.startsWith(paths.stateDir()) && !p.startsWith(paths.hermesHome()))
            throw new StewardError("memory_consolidate", "the plan names a path outside the home");
        return p;
    }

    private String relOrAbs(Path p) {
        Path a = p.toAbsolutePath().normalize();
        return a.startsWith(paths.hermesHome()) ? root.relative(a) : a.toString();
    }
}
