package steward.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import steward.StewardError;
import steward.config.HermesConfig;
import steward.text.CodePoints;

/**
 * {@code memory_precheck}: may this be written, and where does it belong? Runs the seed's pre-write checklist
 * (already carried? concrete and frequent? history? procedure? incident? temporary? one unit? fits?) and
 * returns a verdict with every check. Read-only: it reads the memory files and skills, never writes. The
 * checks memory_write also makes (argument cleaning, threat scan, duplicate, size after the write) go through
 * {@link MemoryWriter#compute} and {@link MemoryRules}, the same code path.
 */
public final class MemoryPrecheck {
    public static final List<String> VERDICTS = List.of("write", "write_pointer", "already_covered", "route_skill", "route_archive",
            "route_session_search", "reject_history", "split", "needs_compression", "reject_threat");
    public static final int SPLIT_CHARS = 200;
    static final int MAX_CANDIDATES = 5;

    public record Answers(String frequency, String consequence) {}

    public record Check(String id, String status, String detail) {}

    public record Candidate(int rank, String source, String where, double score, double coverage, double jaccard, String preview) {}

    public record Question(String id, String question, String criteria, List<String> options) {}

    public record Result(String verdict, boolean is_final, String reason, String target, String file, int chars_before,
                         int chars_after, int limit, int percent_after, boolean fits, List<Check> checks, List<Candidate> candidates,
                         int candidates_left_out, List<Question> questions, List<String> warnings, String suggested_pointer, List<String> split_units,
                         List<OverflowAdvisor.Candidate> merge_first) {}

    // English and Chinese signals, one pattern per check
    static final Pattern HISTORY = Pattern.compile("(?i)\\b(?:was|were|had been|has been|got)\\s+(?:already\\s+)?(?:fixed|resolved|patched|repaired|solved|"
            + "removed|migrated|upgraded)\\b|\\bused to\\b|\\bno longer\\b|\\bpreviously\\b|\\bformerly\\b|\\bin the past\\b"
            + "|已修复|已解决|已经修复|已经解决|已经处理|曾经|以前是|之前是|已迁移|已废弃|修好了|不再");
    static final Pattern TEMPORARY = Pattern.compile("(?i)\\btodo\\b|\\bwip\\b|\\bin progress\\b|\\bnext steps?\\b|\\bfollow[- ]up\\b|\\bremaining\\b"
            + "|\\bblocked on\\b|\\btomorrow\\b|\\bthis week\\b|\\bcurrently working on\\b|\\bhalf[- ]done\\b"
            + "|待办|进度|下一步|进行中|明天|本周|还没做完|未完成|做到一半");
    static final Pattern NUMBERED = Pattern.compile("(?im)^\\s*(?:\\d+[.)、]|step\\s*\\d+|第[一二三四五六七八九十\\d]+步)");
    static final Pattern PROCEDURE = Pattern.compile("(?i)```|(?m:^\\s*\\$\\s+\\S)|\\S+\\s*&&\\s*\\S+|\\bsteps?:|\\bhow to\\b|步骤[:：]|操作流程|执行以下");
    static final Pattern INCIDENT = Pattern.compile("(?i)\\bincident\\b|\\boutage\\b|\\bpost-?mortem\\b|\\broot cause\\b|\\bturned out\\b"
            + "|\\bwe (?:found|discovered|noticed)\\b|\\bdebugg?ed\\b|\\btroubleshoot|\\bcrashed\\b|\\bafter hours of\\b"
            + "|事故|故障|排障|排查|复盘|根因|踩坑经过|花了.{0,6}才");
    static final Pattern POINTER = Pattern.compile("(?i)\\bsee\\s+(?:the\\s+)?[`'\"]?[\\w./-]+|https?://\\S+|\\bdetails? in\\b|\\bdocumented in\\b"
            + "|详见|参见|见\\s*[`'\"]?[\\w./-]+\\.md|[\\w./-]+/SKILL\\.md|references/[\\w./-]+");
    static final Pattern SENTENCE = Pattern.compile("(?<=[.!?。！？；;])\\s*|\\n+");

    private final MemoryWriter writer;

    public MemoryPrecheck(MemoryWriter writer) {
        this.writer = writer;
    }

    public Result check(String targetName, String content, Answers answers) {
        MemoryTarget t = MemoryTarget.of(targetName == null ? "memory" : targetName);
        if (t == null) throw new StewardError("memory_precheck", "Invalid target '" + targetName + "'. Use 'memory' or 'user'.");
        String c = MemoryRules.clean(content);
        if (c.isEmpty()) throw new StewardError("memory_precheck", "content is empty: pass the text you intend to write");
        if (answers != null) {
            if (answers.frequency() != null && !Set.of("high", "low").contains(answers.frequency())) {
                throw new StewardError("memory_precheck", "answers.frequency must be 'high' or 'low'");
            }
            if (answers.consequence() != null && !Set.of("severe", "recoverable").contains(answers.consequence())) {
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

        List<Check> checks = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        int before = MemoryRules.chars(doc.entries());

        // the same argument checks and the same add computation as memory_write
        MemoryRequest add = MemoryRequest.add(t.id, content);
        MemoryWriter.Step pre = writer.precheckArguments(add, t, limit);
        if (pre != null && "threat".equals(pre.kind())) {
            checks.add(new Check("threat_scan", "fail", String.valueOf(pre.record().get("error"))));
            return result("reject_threat", true, "memory_write would refuse it: " + pre.record().get("error"), t, before, before, limit,
                    checks, List.of(), 0, List.of(), warnings, null, List.of(), List.of());
        }
        checks.add(new Check("threat_scan", "pass", "no injection or exfiltration pattern"));
        MemoryWriter.Step step = MemoryWriter.compute(add, t, limit, doc);
        int after = step.newEntries() != null ? MemoryRules.chars(step.newEntries()) : "duplicate".equals(step.kind()) ? before
                : MemoryRules.chars(doc.entries()) + (doc.entries().isEmpty() ? 0 : 3) + CodePoints.length(c);
        boolean fits = !"overflow".equals(step.kind());

        // 1. carried already? ranked candidates from both stores and the skills
        Ranked ranked = rank(c, t, doc, other, otherDoc);
        List<Candidate> candidates = ranked.shown();
        Candidate best = candidates.isEmpty() ? null : candidates.get(0);
        int contentTokens = Similarity.tokens(c).size();
        boolean exact = "duplicate".equals(step.kind()) || otherDoc.entries().contains(c);
        boolean covered = exact || best != null && best.coverage() >= 0.85 && contentTokens >= 3;
        boolean pointer = !covered && best != null && best.source().equals("skill") && best.coverage() >= 0.5 && contentTokens >= 3;
        checks.add(new Check("already_carried", covered ? "fail" : pointer ? "warn" : "pass", exact ? "an identical entry exists"
                : best == null ? "no related entry or skill" : "best candidate " + best.where() + " covers " + pct(best.coverage())
                + " of the content's words (score " + best.score() + ")"));

        // 2..6: the seed's structural checks
        boolean history = HISTORY.matcher(c).find();
        checks.add(new Check("history_state", history ? "fail" : "pass", history ? "describes a past, already-fixed state: history is not stored"
                : "no past-state wording"));
        boolean temporary = TEMPORARY.matcher(c).find();
        checks.add(new Check("temporary", temporary ? "fail" : "pass", temporary ? "temporary TODO or progress: session_search finds it later"
                : "not a TODO or progress note"));
        int numbered = count(NUMBERED.matcher(c));
        boolean procedure = numbered >= 2 || PROCEDURE.matcher(c).find();
        checks.add(new Check("procedure", procedure ? "fail" : "pass", procedure ? "a procedure (commands, code or numbered steps) belongs in a skill"
                : "not a procedure"));
        boolean incident = INCIDENT.matcher(c).find();
        checks.add(new Check("incident_story", incident ? "fail" : "pass", incident
                ? "an incident story or one-off troubleshooting: archive it (ops-lessons-archive), keep at most a pointer"
                : "not an incident narrative"));
        List<String> units = units(c);
        int len = CodePoints.length(c);
        boolean split = len > SPLIT_CHARS || units.size() >= 3;
        checks.add(new Check("granularity", split ? "fail" : "pass", len > SPLIT_CHARS ? len + " characters (> " + SPLIT_CHARS
                + "): split it, or route part of it elsewhere" : units.size() >= 3 ? units.size() + " independent units: one entry per decision moment"
                : len + " characters, " + units.size() + " unit(s)"));
        boolean mentionsElsewhere = POINTER.matcher(c).find();

        // 7. judgment: frequency and consequence come back as questions until answered
        List<Question> questions = new ArrayList<>();
        if (answers == null || answers.frequency() == null) {
            questions.add(new Question("frequency", "Is the operation this affects done at least twice a month, or does the user ask about it often?",
                    "Seed step 3 (频率门槛): ≥ 2 times a month, or not loading it at the right moment would cause a major incident → store; "
                            + "otherwise it belongs in a skill or the archive.", List.of("high", "low")));
        }
        if (answers == null || answers.consequence() == null) {
            questions.add(new Question("consequence", "If the agent did not know this at the moment it matters, what would happen?",
                    "Seed step 4 (后果评估): an irreversible or severe mistake → store; a recoverable one → a skill is enough. Also ask: "
                            + "would the agent never think of looking it up (触发认知)? Then it must be stored.", List.of("severe", "recoverable")));
        }
        boolean lowValue = answers != null && "low".equals(answers.frequency()) && "recoverable".equals(answers.consequence());
        checks.add(new Check("value", questions.isEmpty() ? (lowValue ? "fail" : "pass") : "question", questions.isEmpty()
                ? (lowValue ? "low frequency and recoverable: not worth a place in every system prompt" : "frequent or costly to miss")
                : "needs the agent's judgment: answer the questions and call again with answers"));

        // 8. size after the write (memory_write's own arithmetic)
        checks.add(new Check("capacity", fits ? (MemoryRules.nearLimit(after, limit) ? "warn" : "pass") : "fail",
                MemoryRules.n(after) + "/" + MemoryRules.n(limit) + " chars after the write (" + MemoryRules.percent(after, limit) + " %)"));
        if (fits && MemoryRules.nearLimit(after, limit)) warnings.add(MemoryRules.nearLimitWarning(t, after, limit));
        // 9. tags (MEMORY.md only)
        if (t == MemoryTarget.MEMORY) {
            boolean tagged = MemoryRules.hasTag(c);
            checks.add(new Check("tag", tagged ? "pass" : "warn", tagged ? "starts with a tag" : MemoryRules.tagWarning()));
            if (!tagged) warnings.add(MemoryRules.tagWarning());
        }
        if (t == MemoryTarget.USER && MemoryRules.singleEntryUserFile(t, doc)) {
            warnings.add("USER.md is a single entry: an add turns it into several entries (later replace/remove then match entry by entry).");
        }

        List<OverflowAdvisor.Candidate> merge = fits ? List.of() : OverflowAdvisor.redundant(doc.entries());
        String verdict;
        String reason;
        String suggested = null;
        if (covered) {
            verdict = "already_covered";
            reason = exact ? "an identical entry already exists: nothing to write" : "already carried by " + best.where() + "; update that place instead";
        } else if (history) {
            verdict = "reject_history";
            reason = "a past, already-fixed state: history is not written to memory";
        } else if (temporary) {
            verdict = "route_session_search";
            reason = "temporary TODO or progress: session_search will find it; memory holds durable facts";
        } else if (procedure) {
            verdict = "route_skill";
            reason = "a procedure: store it as a skill (no size limit) and keep at most a one-line trigger in memory";
        } else if (incident) {
            verdict = "route_archive";
            reason = "an incident story / low-frequency troubleshooting: archive it, keep at most a pointer";
        } else if (pointer || mentionsElsewhere && len > 100) {
            verdict = "write_pointer";
            suggested = pointerText(c, pointer ? best.where() : null);
            reason = pointer ? "the full text is already in " + best.where() + ": keep only a short pointer"
                    : "the full text lives elsewhere: keep only a short pointer";
        } else if (split) {
            verdict = "split";
            reason = len > SPLIT_CHARS ? "longer than " + SPLIT_CHARS + " characters: split it into independent entries or route part of it"
                    : "several independent units: one entry per decision moment";
        } else if (lowValue) {
            verdict = incident ? "route_archive" : "route_skill";
            reason = "low frequency and recoverable if missed: a skill (or the archive) carries it without costing every turn";
        } else if (!fits) {
            verdict = "needs_compression";
            reason = "does not fit: " + MemoryRules.n(after) + "/" + MemoryRules.n(limit) + " chars; merge the listed entries first (one operations batch)";
        } else {
            verdict = "write";
            reason = questions.isEmpty() ? "passes every check" : "passes the structural checks; answer the questions to confirm";
        }
        boolean isFinal = questions.isEmpty() || !verdict.equals("write") && !verdict.equals("needs_compression") && !verdict.equals("split")
                && !verdict.equals("write_pointer");
        return result(verdict, isFinal, reason, t, before, after, limit, checks, candidates, ranked.considered() - candidates.size(),
                isFinal ? List.of() : questions, warnings,
                suggested, split ? units : List.of(), merge);
    }

    private static Result result(String verdict, boolean isFinal, String reason, MemoryTarget t, int before, int after, int limit,
                                 List<Check> checks, List<Candidate> cands, int leftOut, List<Question> qs, List<String> warnings, String pointer,
                                 List<String> units, List<OverflowAdvisor.Candidate> merge) {
        return new Result(verdict, isFinal, reason, t.id, t.fileName, before, after, limit, MemoryRules.percent(after, limit),
                after <= limit, checks, cands, leftOut, qs, warnings, pointer, units, merge);
    }

    static String pct(double d) {
        return Math.round(d * 100) + " %";
    }

    static int count(Matcher m) {
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    static List<String> units(String c) {
        List<String> out = new ArrayList<>();
        for (String s : SENTENCE.split(c)) {
            String x = CodePoints.pyStrip(s.replaceFirst("^\\s*[-*•]\\s*", ""));
            if (CodePoints.length(x) >= 4) out.add(x);
        }
        return out;
    }

    static String pointerText(String c, String where) {
        String first = units(c).isEmpty() ? c : units(c).get(0);
        String head = CodePoints.length(first) > 80 ? CodePoints.prefix(first, 77) + "..." : first;
        return where == null ? head + " (details: see the referenced document)" : head + " → see " + where;
    }

    record Ranked(List<Candidate> shown, int considered) {}

    Ranked rank(String c, MemoryTarget t, MemoryDocument doc, MemoryTarget other, MemoryDocument otherDoc) {
        var ct = Similarity.tokens(c);
        List<Candidate> all = new ArrayList<>();
        addEntries(all, ct, t, doc);
        addEntries(all, ct, other, otherDoc);
        Path skills = writer.paths().skillsDir();
        if (Files.isDirectory(skills)) {
            try (Stream<Path> s = Files.walk(skills)) {
                for (Path p : s.filter(f -> f.getFileName().toString().equals("SKILL.md") && Files.isRegularFile(f)).toList()) {
                    skillCandidate(all, ct, p, writer.paths().hermesHome().relativize(p).toString());
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // skills are optional evidence: an unreadable tree only narrows the candidates
            }
        }
        all.sort(Comparator.comparingDouble(Candidate::score).reversed());
        List<Candidate> out = new ArrayList<>();
        int considered = (int) all.stream().filter(x -> x.score() > 0).count();
        for (int i = 0; i < Math.min(MAX_CANDIDATES, considered); i++) {
            Candidate x = all.get(i);
            out.add(new Candidate(i + 1, x.source(), x.where(), x.score(), x.coverage(), x.jaccard(), x.preview()));
        }
        return new Ranked(out, considered);
    }

    private static void addEntries(List<Candidate> all, java.util.Set<String> ct, MemoryTarget t, MemoryDocument d) {
        for (int i = 0; i < d.entries().size(); i++) {
            String e = d.entries().get(i);
            all.add(candidate(ct, Similarity.tokens(e), t.id, t.fileName + " entry " + (i + 1), e));
        }
    }

    private static void skillCandidate(List<Candidate> all, java.util.Set<String> ct, Path file, String rel) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return;
        }
        Candidate best = null;
        StringBuilder block = new StringBuilder();
        int start = 1;
        for (int i = 0; i <= lines.size(); i++) {
            String l = i < lines.size() ? lines.get(i) : "";
            if (l.isBlank() || i == lines.size()) {
                if (block.length() > 0) {
                    Candidate x = candidate(ct, Similarity.tokens(block.toString()), "skill", rel + ":" + start, block.toString().strip());
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

    private static Candidate candidate(java.util.Set<String> ct, java.util.Set<String> xt, String source, String where, String text) {
        double cov = Similarity.coverage(ct, xt);
        double jac = Similarity.jaccard(ct, xt);
        double score = Math.round((0.7 * cov + 0.3 * jac) * 1000) / 1000.0;
        return new Candidate(0, source, where, score, Math.round(cov * 1000) / 1000.0, Math.round(jac * 1000) / 1000.0,
                MemoryRules.preview(text.replace('\n', ' ')));
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
