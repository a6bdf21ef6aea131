package steward.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import steward.StewardError;
import steward.config.HermesConfig;
import steward.memory.lifecycle.Confidence;
import steward.memory.precheck.Checks;
import steward.memory.precheck.GranularityCheck;
import steward.memory.precheck.Outcome;
import steward.memory.precheck.PointerCheck;
import steward.memory.precheck.PrecheckCheck;
import steward.memory.precheck.PrecheckInput;
import steward.memory.precheck.ProcedureCheck;
import steward.text.CodePoints;

/**
 * {@code memory_precheck}: may this be written, and where does it belong? Runs the seed's pre-write checklist
 * (already carried? concrete and frequent? history? procedure? incident? temporary? one unit? fits?) and
 * returns a verdict with every check. Read-only: it reads the memory files and skills, never writes. The
 * checks memory_write also makes (argument cleaning, threat scan, duplicate, size after the write) go through
 * {@link MemoryWriter#compute} and {@link MemoryRules}, the same code path.
 */
public final class MemoryPrecheck {
    public static final List<String> VERDICTS = List.of(
            "write",
            "write_pointer",
            "already_covered",
            "route_skill",
            "route_archive",
            "route_session_search",
            "reject_history",
            "split",
            "needs_compression",
            "reject_threat");
    static final int MAX_CANDIDATES = 5;
    /** Longer than this (Chinese counted double) asks for a split; the granularity check owns the number. */
    public static final int SPLIT_CHARS = GranularityCheck.SPLIT_CHARS;

    public record Answers(String frequency, String consequence) {}

    public record Check(String id, String status, String detail) {}

    public record Candidate(
            int rank, String source, String where, double score, double coverage, double jaccard, String preview) {}

    public record Question(String id, String question, String criteria, List<String> options) {}

    public record Result(
            String verdict,
            boolean is_final,
            String reason,
            String target,
            String file,
            int chars_before,
            int chars_after,
            int limit,
            int percent_after,
            boolean fits,
            List<Check> checks,
            List<Candidate> candidates,
            int candidates_left_out,
            List<Question> questions,
            List<String> warnings,
            String suggested_pointer,
            List<String> split_units,
            List<OverflowAdvisor.Candidate> merge_first) {}

    private final MemoryWriter writer;

    /** Whether {@code c} reads as a procedure (numbered steps, commands, code): it belongs in a skill. */
    public static boolean procedure(String c) {
        return ProcedureCheck.matches(c);
    }

    public MemoryPrecheck(MemoryWriter writer) {
        this.writer = writer;
    }

    /**
     * Content memory_write refuses before anything else it checks (a lone surrogate: half of a character, which no UTF-8
     * file can hold) is refused here too, in memory_write's words, instead of passing the checks as writable.
     */
    public static void refuseUnwritable(String content) {
        int s = CodePoints.loneSurrogate(content);
        if (s >= 0)
            throw new StewardError(
                    "memory_precheck",
                    "memory_write would refuse it: " + CodePoints.loneSurrogateRefusal("content", s));
    }

    public Result check(String targetName, String content, Answers answers) {
        MemoryTarget t = MemoryTarget.of(targetName == null ? "memory" : targetName);
        if (t == null)
            throw new StewardError("memory_precheck", "Invalid target '" + targetName + "'. Use 'memory' or 'user'.");
        String c = MemoryRules.clean(content);
        if (c.isEmpty())
            throw new StewardError("memory_precheck", "content is empty: pass the text you intend to write");
        MemoryPrecheck.refuseUnwritable(content);
        if (answers != null) {
            if (answers.frequency() != null && !Set.of("high", "low").contains(answers.frequency())) {
                throw new StewardError("memory_precheck", "answers.frequency must be 'high' or 'low'");
            }
            if (answers.consequence() != null
                    && !Set.of("severe", "recoverable").contains(answers.consequence())) {
                throw new StewardError("memory_precheck", "answers.consequence must be 'severe' or 'recoverable'");
            }
        }
        HermesConfig cfg = writer.config();
        int limit = t.limit(cfg);
        MemoryDocument doc = MemoryWriter.load(t.file(writer.paths())).doc();
        MemoryTarget other = t == MemoryTarget.MEMORY ? MemoryTarget.USER : MemoryTarget.MEMORY;
        MemoryDocument otherDoc;
        try {
            otherDoc = MemoryWriter.load(other.file(writer.paths())).doc();
        } catch (StewardError e) {
            otherDoc = MemoryDocument.parse(null);
        }
        List<String> warnings = new ArrayList<>();
        int before = MemoryRules.chars(doc.entries());

        // the same argument checks and the same add computation as memory_write
        MemoryRequest add = MemoryRequest.add(t.id, content);
        MemoryWriter.Step pre = writer.precheckArguments(add, t, limit);
        String threat = pre != null && "threat".equals(pre.kind())
                ? String.valueOf(pre.record().get("error"))
                : null;
        // precheck advises before anything is written: what Steward's broader check flags (memory_write only warns
        // about
        // it, as Hermes accepts it) is advised against too
        if (threat == null)
            threat = SuspicionScan.firstMatch(c)
                    .map(p -> "looks like a prompt-injection or exfiltration payload (" + p.description()
                            + "; Steward's check '" + p.id() + "'): memory_write would store it with a warning, as"
                            + " Hermes does, and every later prompt would carry it; do not store it unless the user"
                            + " means it")
                    .orElse(null);
        MemoryWriter.Step step = MemoryWriter.compute(add, t, limit, doc);
        int after = step.newEntries() != null
                ? MemoryRules.chars(step.newEntries())
                : "duplicate".equals(step.kind())
                        ? before
                        : MemoryRules.chars(doc.entries()) + (doc.entries().isEmpty() ? 0 : 3) + CodePoints.length(c);
        boolean fits = !"overflow".equals(step.kind());
        Ranked ranked = threat == null ? rank(c, t, doc, other, otherDoc) : new Ranked(List.of(), 0);
        List<Candidate> candidates = ranked.shown();
        Candidate best = candidates.isEmpty() ? null : candidates.get(0);
        boolean exact = "duplicate".equals(step.kind()) || otherDoc.entries().contains(c);
        PrecheckInput in = new PrecheckInput(
                c,
                t.id,
                best == null ? null : best.source(),
                best == null ? null : best.where(),
                best == null ? 0 : best.coverage(),
                exact,
                threat,
                after,
                limit,
                fits,
                answers == null ? null : answers.frequency(),
                answers == null ? null : answers.consequence(),
                ranked.bestMissing(),
                ranked.bestSwapped());

        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        List<Check> checks = new ArrayList<>();
        for (PrecheckCheck k : Checks.ORDERED) {
            Outcome o = k.evaluate(in);
            outcomes.put(k.id(), o);
            if (!o.status().equals("skip")) checks.add(new Check(k.id(), o.status(), o.detail()));
            if (threat != null) break;
        }
        String verdict = Checks.verdict(outcomes);
        if (threat != null) {
            return result(
                    "reject_threat",
                    true,
                    "memory_write would refuse it: " + threat,
                    t,
                    before,
                    before,
                    limit,
                    checks,
                    List.of(),
                    0,
                    List.of(),
                    warnings,
                    null,
                    List.of(),
                    List.of());
        }
        if (fits && MemoryRules.nearLimit(after, limit)) warnings.add(MemoryRules.nearLimitWarning(t, after, limit));
        if ("warn".equals(outcomes.get("tag").status())) warnings.add(MemoryRules.tagWarning());
        // Hermes writes such content as it is and reads it back split at each separator line
        int parts = MemoryDocument.parse(c).entries().size();
        if (parts > 1)
            warnings.add("content holds Hermes' entry separator (a line with only §): it would be read back as " + parts
                    + " entries; write them one at a time, or drop the separator.");
        if (t == MemoryTarget.USER && MemoryRules.singleEntryUserFile(t, doc)) {
            warnings.add(
                    "USER.md is a single entry: an add turns it into several entries (later replace/remove then match entry by entry).");
        }
        List<Question> questions = new ArrayList<>();
        if (answers == null || answers.frequency() == null) {
            questions.add(new Question(
                    "frequency",
                    "Is the operation this affects done at least twice a month, or does the user ask about it often?",
                    "Seed step 3 (频率门槛): ≥ 2 times a month, or not loading it at the right moment would cause a major incident → store; "
                            + "otherwise it belongs in a skill or the archive.",
                    List.of("high", "low")));
        }
        if (answers == null || answers.consequence() == null) {
            questions.add(new Question(
                    "consequence",
                    "If the agent did not know this at the moment it matters, what would happen?",
                    "Seed step 4 (后果评估): an irreversible or severe mistake → store; a recoverable one → a skill is enough. Also ask: "
                            + "would the agent never think of looking it up (触发认知)? Then it must be stored.",
                    List.of("severe", "recoverable")));
        }
        List<String> units = GranularityCheck.units(c);
        List<OverflowAdvisor.Candidate> merge = fits ? List.of() : OverflowAdvisor.redundant(doc.entries());
        String suggested = verdict.equals("write_pointer")
                ? pointerText(c, PointerCheck.skillCarries(in) ? best.where() : null)
                : null;
        String reason = switch (verdict) {
            case "already_covered" ->
                exact
                        ? "an identical entry already exists: nothing to write"
                        : "already carried by " + best.where() + "; update that place instead";
            case "reject_history" -> "a past, already-fixed state: history is not written to memory";
            case "route_session_search" ->
                "temporary TODO or progress: session_search will find it; memory holds durable facts";
            case "route_skill" ->
                outcomes.get("procedure").failed()
                        ? "a procedure: store it as a skill (no size limit) and keep at most a one-line trigger in memory"
                        : "low frequency and recoverable if missed: a skill (or the archive) carries it without costing every turn";
            case "route_archive" ->
                "an incident story / low-frequency troubleshooting: archive it, keep at most a pointer";
            case "write_pointer" ->
                PointerCheck.skillCarries(in)
                        ? "the full text is already in " + best.where() + ": keep only a short pointer"
                        : "the full text lives elsewhere: keep only a short pointer";
            case "split" ->
                CodePoints.length(c) > GranularityCheck.SPLIT_CHARS
                        ? "longer than " + GranularityCheck.SPLIT_CHARS
                                + " characters: split it into independent entries or route part of it"
                        : "several independent units: one entry per decision moment";
            case "needs_compression" ->
                "does not fit: " + MemoryRules.n(after) + "/" + MemoryRules.n(limit)
                        + " chars; merge the listed entries first (one operations batch)";
            default ->
                questions.isEmpty()
                        ? "passes every check"
                        : "passes the structural checks; answer the questions to confirm";
        };
        boolean isFinal = questions.isEmpty()
                || !Set.of("write", "needs_compression", "split", "write_pointer")
                        .contains(verdict);
        return result(
                verdict,
                isFinal,
                reason,
                t,
                before,
                after,
                limit,
                checks,
                candidates,
                ranked.considered() - candidates.size(),
                isFinal ? List.of() : questions,
                warnings,
                suggested,
                verdict.equals("split") ? units : List.of(),
                merge);
    }

    private static Result result(
            String verdict,
            boolean isFinal,
            String reason,
            MemoryTarget t,
            int before,
            int after,
            int limit,
            List<Check> checks,
            List<Candidate> cands,
            int leftOut,
            List<Question> qs,
            List<String> warnings,
            String pointer,
            List<String> units,
            List<OverflowAdvisor.Candidate> merge) {
        return new Result(
                verdict,
                isFinal,
                reason,
                t.id,
                t.fileName,
                before,
                after,
                limit,
                MemoryRules.percent(after, limit),
                after <= limit,
                checks,
                cands,
                leftOut,
                qs,
                warnings,
                pointer,
                units,
                merge);
    }

    static String pct(double d) {
        return Math.round(d * 100) + " %";
    }

    static String pointerText(String c, String where) {
        List<String> u = GranularityCheck.units(c);
        String first = u.isEmpty() ? c : u.get(0);
        String head = CodePoints.length(first) > 80 ? CodePoints.prefix(first, 77) + "..." : first;
        return where == null ? head + " (details: see the referenced document)" : head + " → see " + where;
    }

    record Ranked(List<Candidate> shown, int considered, List<String> bestMissing, List<String> bestSwapped) {
        Ranked(List<Candidate> shown, int considered) {
            this(shown, considered, List.of(), List.of());
        }
    }

    /**
     * A scored candidate with what it lacks of the content's anchors and its concepts (not shown: the check's detail
     * names what matters).
     */
    private record Scored(Candidate c, List<String> missing, Concepts.Bag concepts) {
        double score() {
            return c.score();
        }
    }

    Ranked rank(String c, MemoryTarget t, MemoryDocument doc, MemoryTarget other, MemoryDocument otherDoc) {
        Concepts.Bag ct = simTokens(c);
        List<Scored> all = new ArrayList<>();
        addEntries(all, ct, t, doc);
        addEntries(all, ct, other, otherDoc);
        Path skills = writer.paths().skillsDir();
        if (Files.isDirectory(skills)) {
            try (Stream<Path> s = Files.walk(skills)) {
                for (Path p : s.filter(f -> f.getFileName().toString().equals("SKILL.md") && Files.isRegularFile(f))
                        .toList()) {
                    skillCandidate(
                            all,
                            ct,
                            p,
                            writer.paths().hermesHome().relativize(p).toString());
                }
            } catch (IOException | UncheckedIOException e) {
                // skills are optional evidence: an unreadable tree only narrows the candidates
            }
        }
        all.sort(Comparator.comparingDouble(Scored::score).reversed());
        List<Candidate> out = new ArrayList<>();
        int considered = (int) all.stream().filter(x -> x.score() > 0).count();
        for (int i = 0; i < Math.min(MAX_CANDIDATES, considered); i++) {
            Candidate x = all.get(i).c();
            out.add(new Candidate(i + 1, x.source(), x.where(), x.score(), x.coverage(), x.jaccard(), x.preview()));
        }
        if (considered == 0) return new Ranked(out, 0);
        // the best match's words in exchanged roles state another fact
        return new Ranked(
                out,
                considered,
                all.get(0).missing(),
                Concepts.swapped(ct, all.get(0).concepts()));
    }

    private static void addEntries(List<Scored> all, Concepts.Bag ct, MemoryTarget t, MemoryDocument d) {
        for (int i = 0; i < d.entries().size(); i++) {
            String e = d.entries().get(i);
            all.add(candidate(ct, simTokens(e), t.id, t.fileName + " entry " + (i + 1), e));
        }
    }

    private static void skillCandidate(List<Scored> all, Concepts.Bag ct, Path file, String rel) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return;
        }
        Scored best = null;
        StringBuilder block = new StringBuilder();
        int start = 1;
        // every paragraph belongs to its skill: the skill's name and description words count for each of them
        StringBuilder about = new StringBuilder();
        for (String l : lines) {
            if (l.startsWith("name:") || l.startsWith("description:"))
                about.append(l.substring(l.indexOf(':') + 1)).append('\n');
        }
        Concepts.Bag skillWords = Concepts.of(about.toString());
        for (int i = 0; i <= lines.size(); i++) {
            String l = i < lines.size() ? lines.get(i) : "";
            if (l.isBlank() || i == lines.size()) {
                if (block.length() > 0) {
                    Concepts.Bag bt = simTokens(block.toString()).plus(skillWords);
                    Scored x = candidate(
                            ct, bt, "skill", rel + ":" + start, block.toString().strip());
                    if (best == null || x.score() > best.score()) best = x;
                    block.setLength(0);
                }
                start = i + 2;
            } else {
                block.append(l).append('\n');
            }
        }
        if (best != null) all.add(best);
    }

    /** Concepts for similarity, English and Chinese alike ({@link Concepts}): without the confidence prefix and the leading tag. */
    static Concepts.Bag simTokens(String text) {
        String body =
                Confidence.parse(text.strip()).body().strip().replaceFirst("^\\[[A-Za-z][A-Za-z-]{0,11}\\]\\s*", "");
        return Concepts.of(body);
    }

    private static Scored candidate(Concepts.Bag ct, Concepts.Bag xt, String source, String where, String text) {
        double cov = Concepts.coverage(ct, xt);
        double jac = Concepts.jaccard(ct, xt);
        double score = Math.round((0.7 * cov + 0.3 * jac) * 1000) / 1000.0;
        return new Scored(
                new Candidate(
                        0,
                        source,
                        where,
                        score,
                        Math.round(cov * 1000) / 1000.0,
                        Math.round(jac * 1000) / 1000.0,
                        MemoryRules.preview(text.replace('\n', ' '))),
                Concepts.missingAnchors(ct, xt),
                xt);
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
