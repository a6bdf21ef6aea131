package steward.memory.claude;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.StewardError;
import steward.memory.MemoryPrecheck;
import steward.memory.MemoryRules;
import steward.memory.Similarity;
import steward.memory.precheck.Checks;
import steward.memory.precheck.GranularityCheck;
import steward.memory.precheck.Outcome;
import steward.memory.precheck.PrecheckCheck;
import steward.memory.precheck.PrecheckInput;

/**
 * {@code memory_precheck} for target {@code claude}: the candidate is checked against every CLAUDE.md file and the
 * auto memory of the project ({@link ClaudeMemoryFiles}) with {@link Checks#CLAUDE} — already covered? a standing rule
 * that belongs in CLAUDE.md? would MEMORY.md grow past the 200 lines Claude Code loads? — plus the content checks the
 * Hermes targets share (threat, history, temporary, pointer, procedure, incident, granularity, value). Read-only.
 * For this target {@code chars_before}, {@code chars_after} and {@code limit} count MEMORY.md lines.
 */
public final class ClaudeMemoryPrecheck {
    public static final String TARGET = "claude";
    public static final int MAX_CANDIDATES = 5;

    public record Scope(
            String project,
            String memory_dir,
            String memory_dir_origin,
            String index,
            int index_lines,
            int window,
            int instruction_files,
            int topics) {}

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
            List<MemoryPrecheck.Check> checks,
            List<MemoryPrecheck.Candidate> candidates,
            int candidates_left_out,
            List<MemoryPrecheck.Question> questions,
            List<String> warnings,
            String suggested_pointer,
            List<String> split_units,
            Scope claude) {}

    private final Path claudeHome;

    public ClaudeMemoryPrecheck(Path claudeHome) {
        this.claudeHome = claudeHome;
    }

    public Result check(Path project, String content, MemoryPrecheck.Answers answers) {
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
        ClaudeMemoryFiles f = ClaudeMemoryFiles.read(claudeHome, project);
        int before = f.indexLines().size();
        String threat = MemoryRules.threat(c).orElse(null);
        List<MemoryPrecheck.Candidate> all = threat == null ? rank(c, f) : List.of();
        List<MemoryPrecheck.Candidate> shown = all.subList(0, Math.min(MAX_CANDIDATES, all.size()));
        MemoryPrecheck.Candidate best = shown.isEmpty() ? null : shown.get(0);
        boolean exact = exact(c, f);
        int after = exact ? before : before + 1;
        int window = ClaudeMemoryFiles.INDEX_WINDOW;
        PrecheckInput in = new PrecheckInput(
                c,
                TARGET,
                best == null ? null : best.source(),
                best == null ? null : best.where(),
                best == null ? 0 : best.coverage(),
                exact,
                threat,
                after,
                window,
                after <= window,
                answers == null ? null : answers.frequency(),
                answers == null ? null : answers.consequence());
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        List<MemoryPrecheck.Check> checks = new ArrayList<>();
        for (PrecheckCheck k : Checks.CLAUDE) {
            Outcome o = k.evaluate(in);
            outcomes.put(k.id(), o);
            if (!o.status().equals("skip")) checks.add(new MemoryPrecheck.Check(k.id(), o.status(), o.detail()));
            if (threat != null) break;
        }
        String verdict = threat != null ? "reject_threat" : Checks.verdict(outcomes);
        List<String> warnings = new ArrayList<>(f.warnings());
        for (var e : outcomes.entrySet()) {
            if (e.getValue().status().equals("warn") && !e.getKey().equals("value"))
                warnings.add(e.getKey() + ": " + e.getValue().detail());
        }
        List<MemoryPrecheck.Question> questions = new ArrayList<>();
        if (threat == null && (answers == null || answers.frequency() == null)) {
            questions.add(new MemoryPrecheck.Question(
                    "frequency",
                    "Does this matter at least twice a month in this project, or does the user ask about it often?",
                    "≥ 2 times a month, or missing it at the right moment causes a major mistake → store; otherwise a skill or nothing.",
                    List.of("high", "low")));
        }
        if (threat == null && (answers == null || answers.consequence() == null)) {
            questions.add(new MemoryPrecheck.Question(
                    "consequence",
                    "If Claude did not know this when it matters, what would happen?",
                    "An irreversible or severe mistake → store; a recoverable one → a skill is enough.",
                    List.of("severe", "recoverable")));
        }
        String reason = switch (verdict) {
            case "reject_threat" -> "memory_write would refuse it: " + threat;
            case "already_covered" ->
                exact
                        ? "identical text already in " + best.where()
                        : "already carried by " + best.where()
                                + ("auto_memory".equals(best.source())
                                        ? ": replace that memory instead"
                                        : ": the user's CLAUDE.md says it");
            case "route_claude_md" ->
                "a standing rule for the project: propose it for CLAUDE.md (memory_write target 'claude_md' shows the diff; it writes only with confirm)";
            case "needs_compression" ->
                "MEMORY.md would have " + after + " lines: Claude Code loads only the first " + window
                        + "; merge or remove memories first";
            case "reject_history" -> "a past, already-fixed state: history is not written to memory";
            case "route_session_search" ->
                "temporary TODO or progress: the transcripts keep it; memory holds durable facts";
            case "route_skill" ->
                "a procedure, or rarely needed and recoverable: a skill carries it without costing every session";
            case "route_archive" -> "an incident story: archive it, keep at most a pointer";
            case "write_pointer" -> "the full text lives elsewhere: keep only a short pointer";
            case "split" -> "several independent units: one memory each";
            default ->
                questions.isEmpty()
                        ? "passes every check"
                        : "passes the structural checks; answer the questions to confirm";
        };
        boolean isFinal = threat != null
                || questions.isEmpty()
                || !Set.of("write", "needs_compression", "split", "write_pointer")
                        .contains(verdict);
        Scope scope = new Scope(
                f.project().toString(),
                f.memoryDir().toString(),
                f.memoryDirOrigin(),
                f.index().toString(),
                before,
                window,
                f.instructions().size(),
                f.topics().size());
        return new Result(
                verdict,
                isFinal,
                reason,
                TARGET,
                f.display(f.index()),
                before,
                after,
                window,
                MemoryRules.percent(after, window),
                after <= window,
                checks,
                shown,
                all.size() - shown.size(),
                isFinal ? List.of() : questions,
                warnings,
                null,
                verdict.equals("split") ? GranularityCheck.units(c) : List.of(),
                scope);
    }

    /** Identical text: a topic's body, an index line or a CLAUDE.md line (list markers aside). */
    static boolean exact(String c, ClaudeMemoryFiles f) {
        for (var t : f.topics()) if (t.body().equals(c)) return true;
        for (String l : f.indexLines()) if (bare(l).equals(bare(c))) return true;
        for (var i : f.instructions())
            for (String l : i.lines()) if (!l.isBlank() && bare(l).equals(bare(c))) return true;
        return false;
    }

    static String bare(String l) {
        return l.strip().replaceFirst("^(?:[-*+]|\\d+[.)])\\s+", "").strip();
    }

    List<MemoryPrecheck.Candidate> rank(String c, ClaudeMemoryFiles f) {
        Set<String> ct = Similarity.tokens(c, true);
        List<MemoryPrecheck.Candidate> all = new ArrayList<>();
        for (var ins : f.instructions()) {
            for (int i = 0; i < ins.lines().size(); i++) {
                String l = ins.lines().get(i);
                if (l.isBlank() || l.strip().startsWith("#") || l.strip().equals("---")) continue;
                add(all, ct, "claude_md", f.display(ins.file()) + ":" + (i + 1), bare(l));
            }
        }
        for (int i = 0; i < f.indexLines().size(); i++) {
            String l = f.indexLines().get(i);
            if (l.isBlank() || l.strip().startsWith("#") || l.contains("]("))
                continue; // index links are covered by their topic files
            add(all, ct, "auto_memory", "memory/MEMORY.md:" + (i + 1), bare(l));
        }
        for (var t : f.topics())
            add(all, ct, "auto_memory", f.display(t.file()), t.name() + " " + t.description() + " " + t.body());
        all.removeIf(x -> x.score() <= 0);
        all.sort(Comparator.comparingDouble(MemoryPrecheck.Candidate::score).reversed());
        List<MemoryPrecheck.Candidate> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            var x = all.get(i);
            out.add(new MemoryPrecheck.Candidate(
                    i + 1, x.source(), x.where(), x.score(), x.coverage(), x.jaccard(), x.preview()));
        }
        return out;
    }

    private static void add(
            List<MemoryPrecheck.Candidate> all, Set<String> ct, String source, String where, String text) {
        Set<String> xt = Similarity.tokens(text, true);
        double cov = Similarity.coverage(ct, xt);
        double jac = Similarity.jaccard(ct, xt);
        double score = Math.round((0.7 * cov + 0.3 * jac) * 1000) / 1000.0;
        all.add(new MemoryPrecheck.Candidate(
                0,
                source,
                where,
                score,
                Math.round(cov * 1000) / 1000.0,
                Math.round(jac * 1000) / 1000.0,
                MemoryRules.preview(text.replace('\n', ' '))));
    }
}
