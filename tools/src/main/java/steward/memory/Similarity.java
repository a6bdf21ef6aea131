package steward.memory;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import steward.text.TitleAnalyzer;

/**
 * Token overlap for English and Chinese text: lower-case ASCII words (stop words dropped) and CJK
 * character bigrams. Used to rank duplicate / related candidates; never a single hard cut-off.
 */
public final class Similarity {
    private Similarity() {}

    private static final Set<String> STOP = Set.of(
            "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "is", "are", "be", "with", "at", "by", "it",
            "as", "this", "that", "use", "uses", "not", "no", "from", "user", "when", "then", "was", "were", "has",
            "have", "do", "does", "its", "into", "via", "see", "all", "any", "we", "you", "i");

    public static Set<String> tokens(String s) {
        return tokens(s, false);
    }

    /**
     * Like {@link #tokens(String)}; with {@code cjkUnigrams} every CJK character is a token as well as its bigrams, so
     * a one-character insertion ("前" → "之前") costs a Chinese text little, as a one-word change costs an English one.
     */
    public static Set<String> tokens(String s, boolean cjkUnigrams) {
        Set<String> out = new HashSet<>();
        String t = s.toLowerCase(Locale.ROOT);
        StringBuilder word = new StringBuilder();
        int prevCjk = -1;
        for (int i = 0; i < t.length(); ) {
            int cp = t.codePointAt(i);
            i += Character.charCount(cp);
            if (TitleAnalyzer.isCjk(cp)) {
                flush(word, out);
                if (prevCjk >= 0) out.add(new String(Character.toChars(prevCjk)) + new String(Character.toChars(cp)));
                if (prevCjk < 0 || cjkUnigrams) out.add(new String(Character.toChars(cp)));
                prevCjk = cp;
                continue;
            }
            prevCjk = -1;
            if (Character.isLetterOrDigit(cp) || cp == '_' || cp == '.' && word.length() > 0) {
                word.appendCodePoint(cp);
            } else {
                flush(word, out);
            }
        }
        flush(word, out);
        return out;
    }

    private static void flush(StringBuilder word, Set<String> out) {
        if (word.length() == 0) return;
        String w = word.toString();
        while (w.endsWith(".")) w = w.substring(0, w.length() - 1);
        word.setLength(0);
        if (w.length() >= 2 && !STOP.contains(w)) out.add(w);
    }

    /** |A∩B| / |A∪B|. */
    public static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) return 0;
        int inter = intersection(a, b);
        return (double) inter / (a.size() + b.size() - inter);
    }

    /** How much of {@code a} is found in {@code b}: |A∩B| / |A|. */
    public static double coverage(Set<String> a, Set<String> b) {
        if (a.isEmpty()) return 0;
        return (double) intersection(a, b) / a.size();
    }

    private static int intersection(Set<String> a, Set<String> b) {
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> big = small == a ? b : a;
        int n = 0;
        for (String x : small) if (big.contains(x)) n++;
        return n;
    }
}
