package steward.sessions.inspect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits a session's messages into phases. A new phase starts after a pause (no message for at least the gap
 * threshold) or at a topic shift: a user turn with at least {@value #MIN_SHIFT_TOKENS} content words, none of which
 * any user turn of the current phase used, which the next user turn of the same stretch (if any) follows rather than
 * the old phase. Words are title tokens ({@link steward.text.TitleAnalyzer}): English words and CJK bigrams.
 */
public final class Phases {
    private Phases() {}

    static final int MIN_SHIFT_TOKENS = 3;
    static final int KEYWORDS = 3;
    /** Words that say little about a phase's topic (conversation glue), left out of its keywords only. */
    static final Set<String> GLUE = Set.of(
            "now",
            "add",
            "ok",
            "okay",
            "thanks",
            "thank",
            "sure",
            "next",
            "step",
            "still",
            "yeah",
            "yes",
            "look",
            "show",
            "tell",
            "try",
            "check",
            "good",
            "great",
            "done",
            "start",
            "continue",
            "go",
            "fix");

    /** One message reduced to what phase detection needs; {@code tokens} only for user turns. */
    public record Mark(double timestamp, boolean user, int toolCalls, List<String> tokens, String prompt) {}

    /** A phase: positions {@code [from, to]} in the mark list and why it started. */
    public record Span(int from, int to, String startedBy) {}

    /** A gap between messages {@code index - 1} and {@code index}. */
    public record Gap(int index, double seconds) {}

    public static List<Gap> gaps(List<Mark> marks, double threshold) {
        List<Gap> out = new ArrayList<>();
        for (int i = 1; i < marks.size(); i++) {
            double d = marks.get(i).timestamp() - marks.get(i - 1).timestamp();
            if (d >= threshold) out.add(new Gap(i, d));
        }
        return out;
    }

    public static List<Span> split(List<Mark> marks, double threshold) {
        List<Span> out = new ArrayList<>();
        if (marks.isEmpty()) return out;
        int start = 0;
        String by = "start";
        Set<String> phaseWords = new HashSet<>();
        boolean phaseHasUser = false;
        for (int i = 0; i < marks.size(); i++) {
            Mark m = marks.get(i);
            boolean pause = i > 0 && m.timestamp() - marks.get(i - 1).timestamp() >= threshold;
            if (pause) {
                out.add(new Span(start, i - 1, by));
                start = i;
                by = "pause";
                phaseWords = new HashSet<>();
                phaseHasUser = false;
            } else if (m.user() && phaseHasUser && shifts(marks, i, phaseWords, threshold)) {
                out.add(new Span(start, i - 1, by));
                start = i;
                by = "topic_shift";
                phaseWords = new HashSet<>();
                phaseHasUser = false;
            }
            if (m.user()) {
                phaseWords.addAll(m.tokens());
                phaseHasUser = true;
            }
        }
        out.add(new Span(start, marks.size() - 1, by));
        return out;
    }

    private static boolean shifts(List<Mark> marks, int i, Set<String> phaseWords, double threshold) {
        List<String> t = marks.get(i).tokens();
        if (t.size() < MIN_SHIFT_TOKENS) return false;
        for (String w : t) if (phaseWords.contains(w)) return false;
        // the next user turn before any pause confirms the shift when it follows the new words rather than the old
        // phase
        for (int j = i + 1; j < marks.size(); j++) {
            if (marks.get(j).timestamp() - marks.get(j - 1).timestamp() >= threshold) break;
            if (!marks.get(j).user()) continue;
            List<String> next = marks.get(j).tokens();
            if (next.size() < MIN_SHIFT_TOKENS) return true; // "ok", "go on": follows whatever was said last
            int withNew = 0, withOld = 0;
            Set<String> nw = new HashSet<>(t);
            for (String w : next) {
                if (nw.contains(w)) withNew++;
                if (phaseWords.contains(w)) withOld++;
            }
            return withNew >= withOld;
        }
        return true;
    }

    /** The phase's most used user words (ties in order of first use). */
    public static List<String> keywords(List<Mark> marks, Span s) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = s.from(); i <= s.to(); i++) {
            Mark m = marks.get(i);
            if (m.user()) for (String w : m.tokens()) if (!GLUE.contains(w)) counts.merge(w, 1, Integer::sum);
        }
        Map<String, Integer> order = new HashMap<>();
        int k = 0;
        for (String w : counts.keySet()) order.put(w, k++);
        return counts.entrySet().stream()
                .sorted((a, b) -> !a.getValue().equals(b.getValue())
                        ? Integer.compare(b.getValue(), a.getValue())
                        : Integer.compare(order.get(a.getKey()), order.get(b.getKey())))
                .limit(KEYWORDS)
                .map(Map.Entry::getKey)
                .toList();
    }
}
