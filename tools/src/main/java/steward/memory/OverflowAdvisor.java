package steward.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import steward.text.CodePoints;

/**
 * The seed's overflow decision tree: compress first; judge a compression by its gain ((before − after) /
 * before: over 30 % removed redundancy, under 10 % is close to losing real information); if usage after a
 * compression is still above 85 % count it, and on the third consecutive time with diminishing gains
 * recommend expansion, with the evidence, the command and the token tax. Steward never raises a limit.
 */
public final class OverflowAdvisor {
    private OverflowAdvisor() {}

    public static final double CHARS_PER_TOKEN = 2.75;
    static final int SIGNAL_COUNT = 3;

    public record Candidate(List<Integer> entries, List<String> previews, double similarity, String reason) {}

    public record LongEntry(int index, int chars, String preview) {}

    public record Guidance(
            String step,
            String advice,
            List<Candidate> redundant_candidates,
            int redundant_left_out,
            List<LongEntry> long_entries,
            int overflows_recorded,
            int consecutive_high_after_compression,
            List<Double> recent_gains_percent,
            boolean expansion_recommended,
            Expansion expansion) {}

    public record CompressionReport(
            int before,
            int after,
            double gain_percent,
            String assessment,
            int after_percent,
            boolean still_above_85,
            int consecutive_high,
            String outcome,
            String advice,
            boolean expansion_recommended,
            Expansion expansion) {}

    public record Tax(int limit, int tokens_per_turn, int per_50_turns, int per_100_turns) {}

    public record Expansion(
            String config_key,
            int current_limit,
            int proposed_limit,
            List<String> commands,
            String applies,
            Tax token_tax_current,
            Tax token_tax_proposed,
            int extra_tokens_per_50_turns,
            int extra_tokens_per_100_turns,
            List<String> evidence,
            String note) {}

    public static Guidance onOverflow(
            MemoryTarget t, int limit, List<String> entries, MemoryHistory.TargetHistory h, int needed) {
        boolean expand = expansionSignal(h);
        int chars = MemoryRules.chars(entries);
        Expansion ex = expand ? expansion(t, limit, chars + Math.max(0, needed), h) : null;
        String advice = expand
                ? "Compression has stopped paying off: " + h.consecutive_high() + " compressions in a row left "
                        + t.fileName
                        + " above 85 % with diminishing gains. Compress once more if something is clearly redundant; otherwise ask the user "
                        + "whether to raise the limit (see expansion: command and token tax). Steward never raises it itself."
                : "Compress first: merge the redundant candidates below with 'replace', remove stale entries, or do it in ONE "
                        + "'operations' batch that removes before it adds (the limit is checked on the final state). Route procedures to a "
                        + "skill and incident stories to an archive instead of squeezing them in.";
        List<Candidate> all = redundantAll(entries);
        List<Candidate> shown = all.size() > 5 ? List.copyOf(all.subList(0, 5)) : all;
        return new Guidance(
                expand ? "consider_expansion" : "compress",
                advice,
                shown,
                all.size() - shown.size(),
                longEntries(entries),
                h.overflows() == null ? 0 : h.overflows().size(),
                h.consecutive_high(),
                recentGains(h),
                expand,
                ex);
    }

    public static CompressionReport onCompression(
            MemoryTarget t, int limit, int chars, MemoryHistory.Compression c, MemoryHistory.TargetHistory h) {
        String assessment =
                c.gain_percent() > 30 ? "redundancy_removed" : c.gain_percent() < 10 ? "near_real_loss" : "partial";
        boolean expand = expansionSignal(h);
        String outcome;
        String advice;
        if (!c.still_high()) {
            outcome = "solved";
            advice = "Usage is back under 85 %: the problem was redundancy and compression solved it.";
        } else if (expand) {
            outcome = "expansion_signal";
            advice = "Third consecutive compression that leaves " + t.fileName
                    + " above 85 % with diminishing gains: the store is "
                    + "genuinely full. Ask the user whether to raise the limit (command and token tax under expansion).";
        } else {
            outcome = "watch";
            advice = "Still above 85 % after compressing (" + h.consecutive_high()
                    + " time(s) in a row): the next write will likely "
                    + "overflow again. Watch it; on the third time with diminishing gains Steward will recommend expansion.";
        }
        if ("near_real_loss".equals(assessment)) {
            advice += " The gain was under 10 %: further compression risks deleting real information.";
        }
        return new CompressionReport(
                c.before(),
                c.after(),
                c.gain_percent(),
                assessment,
                c.after_percent(),
                c.still_high(),
                h.consecutive_high(),
                outcome,
                advice,
                expand,
                expand ? expansion(t, limit, chars, h) : null);
    }

    /** Three consecutive compressions left usage above 85 %, with gains that did not grow. */
    static boolean expansionSignal(MemoryHistory.TargetHistory h) {
        if (h.consecutive_high() < SIGNAL_COUNT
                || h.compressions() == null
                || h.compressions().size() < SIGNAL_COUNT) return false;
        List<MemoryHistory.Compression> c = h.compressions();
        List<MemoryHistory.Compression> last = c.subList(c.size() - SIGNAL_COUNT, c.size());
        for (MemoryHistory.Compression x : last) if (!x.still_high()) return false;
        for (int i = 1; i < last.size(); i++)
            if (last.get(i).gain_percent() > last.get(i - 1).gain_percent()) return false;
        return true;
    }

    static List<Double> recentGains(MemoryHistory.TargetHistory h) {
        List<Double> out = new ArrayList<>();
        if (h.compressions() == null) return out;
        List<MemoryHistory.Compression> c = h.compressions();
        for (int i = Math.max(0, c.size() - 5); i < c.size(); i++)
            out.add(c.get(i).gain_percent());
        return out;
    }

    static Expansion expansion(MemoryTarget t, int limit, int neededChars, MemoryHistory.TargetHistory h) {
        int proposed = (int) (Math.ceil(Math.max(limit + 100, neededChars / 0.70) / 100.0) * 100);
        String key = t == MemoryTarget.USER ? "memory.user_char_limit" : "memory.memory_char_limit";
        Tax cur = tax(limit);
        Tax prop = tax(proposed);
        List<String> evidence = new ArrayList<>();
        evidence.add(h.consecutive_high() + " consecutive compressions left usage above 85 % of " + limit);
        if (h.compressions() != null) {
            List<MemoryHistory.Compression> c = h.compressions();
            for (int i = Math.max(0, c.size() - SIGNAL_COUNT); i < c.size(); i++) {
                MemoryHistory.Compression x = c.get(i);
                evidence.add(x.at() + ": " + x.before() + " → " + x.after() + " chars (gain " + x.gain_percent()
                        + " %, " + x.after_percent() + " % of the limit after)");
            }
        }
        evidence.add((h.overflows() == null ? 0 : h.overflows().size()) + " overflows recorded for " + t.fileName);
        return new Expansion(
                key,
                limit,
                proposed,
                List.of("hermes config set " + key + " " + proposed, "/reset"),
                "The limit is read once when the agent starts: run /reset (or restart Hermes) after changing it.",
                cur,
                prop,
                prop.per_50_turns() - cur.per_50_turns(),
                prop.per_100_turns() - cur.per_100_turns(),
                evidence,
                "Steward never raises a limit itself; every character of limit is paid in system-prompt tokens on every turn.");
    }

    static Tax tax(int limit) {
        int perTurn = (int) Math.round(limit / CHARS_PER_TOKEN);
        return new Tax(limit, perTurn, perTurn * 50, perTurn * 100);
    }

    /** Pairs of entries that share most of their words: the first things to merge (top 5). */
    public static List<Candidate> redundant(List<String> entries) {
        List<Candidate> all = redundantAll(entries);
        return all.size() > 5 ? List.copyOf(all.subList(0, 5)) : all;
    }

    static List<Candidate> redundantAll(List<String> entries) {
        List<Set<String>> toks = new ArrayList<>();
        for (String e : entries) toks.add(Similarity.tokens(e));
        List<Candidate> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            for (int j = i + 1; j < entries.size(); j++) {
                double jac = Similarity.jaccard(toks.get(i), toks.get(j));
                double cov = Math.max(
                        Similarity.coverage(toks.get(i), toks.get(j)), Similarity.coverage(toks.get(j), toks.get(i)));
                double score = Math.max(jac, cov * 0.9);
                if (score >= 0.3) {
                    out.add(new Candidate(
                            List.of(i, j),
                            List.of(MemoryRules.preview(entries.get(i)), MemoryRules.preview(entries.get(j))),
                            Math.round(score * 100) / 100.0,
                            cov >= 0.8
                                    ? "one entry is (almost) contained in the other"
                                    : "overlapping words: candidates to merge into one shorter entry"));
                }
            }
        }
        out.sort(Comparator.comparingDouble(Candidate::similarity).reversed());
        return out;
    }

    static List<LongEntry> longEntries(List<String> entries) {
        List<LongEntry> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            int n = CodePoints.length(entries.get(i));
            if (n > 200) out.add(new LongEntry(i, n, MemoryRules.preview(entries.get(i))));
        }
        return out;
    }
}
