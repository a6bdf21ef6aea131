package steward.memory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tartarus.snowball.ext.EnglishStemmer;
import steward.text.TitleAnalyzer;

/**
 * What a short memory text is about, in a form that English and Chinese wordings of the same fact share: weighted
 * concepts. Text is NFKC-folded and lower-cased; <em>anchors</em> (tokens with a digit or an inner {@code / . : @ +},
 * such as versions, hosts, paths, URLs) are kept verbatim; English words are stemmed and mapped through the bilingual
 * concept map {@code concepts.tsv} (phrases first); Chinese runs are segmented by longest match against the same map,
 * and characters it does not cover count as single characters at half weight. Deterministic, dependency-free apart from
 * Lucene's Snowball stemmer, and fast (no model): used by {@code memory_precheck} to find what already carries a text.
 */
public final class Concepts {
    private Concepts() {}

    public static final double ANCHOR = 1.5;
    /** A word the map knows (common vocabulary). */
    public static final double WORD = 1.0;
    /** A word the map does not know: mostly names (zsh, pnpm, Postgres), which tell facts apart more than common words do. */
    public static final double NAME = 1.5;

    public static final double CJK_CHAR = 0.5;
    static final String STOP = "-";
    /** The negation concept: a text that negates must be matched by one that negates too. */
    static final String NOT = "not";

    /**
     * Concept → weight, and which of them are anchors (a text that lacks one of them states another fact); {@code
     * sequence}: the concepts in the order the text names them, each time it names them (what {@link #swapped} reads).
     */
    public record Bag(Map<String, Double> weights, Set<String> anchors, List<String> sequence) {
        public Bag(Map<String, Double> weights, Set<String> anchors) {
            this(weights, anchors, List.of());
        }

        public double total() {
            double t = 0;
            for (double w : weights.values()) t += w;
            return t;
        }

        public boolean isEmpty() {
            return weights.isEmpty();
        }

        /**
         * This bag with {@code other}'s concepts added (a skill's name and description count for each paragraph); the
         * sequence stays this bag's.
         */
        public Bag plus(Bag other) {
            Map<String, Double> w = new LinkedHashMap<>(weights);
            other.weights.forEach(w::putIfAbsent);
            Set<String> a = new LinkedHashSet<>(anchors);
            a.addAll(other.anchors);
            return new Bag(Collections.unmodifiableMap(w), Collections.unmodifiableSet(a), sequence);
        }
    }

    /** What {@link #of} collects: weights, anchors and the sequence of concepts as they come. */
    private record Acc(Map<String, Double> w, Set<String> anchors, List<String> seq) {
        void put(String c, double weight) {
            w.put(c, weight);
            seq.add(c);
        }

        void putIfAbsent(String c, double weight) {
            w.putIfAbsent(c, weight);
            seq.add(c);
        }
    }

    private record Map2(Map<String, List<String>> english, Map<String, List<String>> chinese, int longestChinese) {}

    private static final Map2 MAP = load();

    private static Map2 load() {
        Map<String, List<String>> en = new HashMap<>();
        Map<String, List<String>> zh = new HashMap<>();
        int longest = 1;
        try (InputStream in = Concepts.class.getResourceAsStream("concepts.tsv")) {
            if (in == null) throw new IllegalStateException("concepts.tsv is missing from the class path");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.split("\t", -1);
                if (f.length != 3)
                    throw new IllegalStateException("concepts.tsv: expected 3 tab-separated fields: " + line);
                List<String> concepts = List.of(f[0].split("\\+"));
                for (String form : f[1].split(" ")) {
                    if (form.isEmpty()) continue;
                    String key = stemPhrase(form);
                    if (en.putIfAbsent(key, concepts) != null && !en.get(key).equals(concepts)) {
                        throw new IllegalStateException("concepts.tsv: '" + form + "' stems to '" + key
                                + "', already mapped to " + en.get(key));
                    }
                }
                for (String form : f[2].split(" ")) {
                    if (form.isEmpty()) continue;
                    if (zh.put(form, concepts) != null)
                        throw new IllegalStateException("concepts.tsv: '" + form + "' is listed twice");
                    longest = Math.max(longest, form.codePointCount(0, form.length()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Map2(Map.copyOf(en), Map.copyOf(zh), longest);
    }

    private static String stemPhrase(String form) {
        List<String> parts = new ArrayList<>();
        for (String w : form.toLowerCase(Locale.ROOT).split("[_-]")) if (!w.isEmpty()) parts.add(stem(w));
        return String.join("_", parts);
    }

    static String stem(String w) {
        EnglishStemmer s = new EnglishStemmer();
        s.setCurrent(w);
        s.stem();
        return s.getCurrent();
    }

    /** Characters that may continue an ASCII token (paths, hosts, versions, URLs, hyphenated names). */
    private static boolean tokenChar(int cp) {
        return cp < 0x3000
                && !TitleAnalyzer.isCjk(cp)
                && (Character.isLetterOrDigit(cp) || "._-/+#@~".indexOf(cp) >= 0);
    }

    /** A colon joins a token only before a digit or a slash (host:port, 02:00, f:/, http://); "uv: uv venv" is two words. */
    private static boolean tokenCharAt(String s, int i) {
        int cp = s.codePointAt(i);
        if (cp == ':') return i + 1 < s.length() && (Character.isDigit(s.charAt(i + 1)) || s.charAt(i + 1) == '/');
        return tokenChar(cp);
    }

    /** "e.g", "i.e": single letters between dots are abbreviations, not anchors. */
    private static final Pattern ABBREVIATION = Pattern.compile("[a-z](?:\\.[a-z])+");

    private static final Pattern NUMBER_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)([a-z]{1,3})");

    /** The concepts of {@code text}. */
    public static Bag of(String text) {
        Map<String, Double> w = new LinkedHashMap<>();
        Set<String> anchors = new LinkedHashSet<>();
        Acc a = new Acc(w, anchors, new ArrayList<>());
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC)
                .toLowerCase(Locale.ROOT)
                .replace('\\', '/');
        List<String> words = new ArrayList<>(); // the current run of plain English words, for phrase matching
        int i = 0;
        int n = s.length();
        while (i < n) {
            int cp = s.codePointAt(i);
            if (TitleAnalyzer.isCjk(cp)) {
                flushWords(words, a);
                int start = i;
                while (i < n && TitleAnalyzer.isCjk(s.codePointAt(i))) i += Character.charCount(s.codePointAt(i));
                chinese(s.substring(start, i), a);
            } else if (tokenChar(cp)) {
                int start = i;
                while (i < n && tokenCharAt(s, i)) i += Character.charCount(s.codePointAt(i));
                String t = trim(s.substring(start, i));
                if (t.isEmpty() || ABBREVIATION.matcher(t).matches()) continue;
                Matcher m = NUMBER_UNIT.matcher(t);
                if (m.matches()) { // "32gb" reads as "32 gb"
                    flushWords(words, a);
                    anchor(m.group(1), a);
                    words.add(m.group(2));
                } else if (isAnchor(t)) {
                    flushWords(words, a);
                    anchor(t, a);
                } else if (t.indexOf('-') > 0 || t.indexOf('_') > 0) {
                    flushWords(words, a);
                    List<String> c = MAP.english().get(stemPhrase(t));
                    if (c != null) add(c, a);
                    else a.put(t, NAME);
                } else {
                    words.add(t);
                }
            } else {
                // punctuation and spaces: a space keeps a phrase going, anything else ends it
                if (!Character.isWhitespace(cp)) flushWords(words, a);
                i += Character.charCount(cp);
            }
        }
        flushWords(words, a);
        return new Bag(Collections.unmodifiableMap(w), Collections.unmodifiableSet(anchors), List.copyOf(a.seq()));
    }

    private static String trim(String t) {
        int a = 0;
        int b = t.length();
        while (a < b && "._-/:#@~".indexOf(t.charAt(a)) >= 0) a++;
        while (b > a && "._-/:#@~".indexOf(t.charAt(b - 1)) >= 0) b--;
        return t.substring(a, b);
    }

    static boolean isAnchor(String t) {
        for (int k = 0; k < t.length(); k++) {
            char c = t.charAt(k);
            if (Character.isDigit(c) || "/.:@+~".indexOf(c) >= 0) return true;
        }
        return false;
    }

    private static void anchor(String t, Acc a) {
        a.put(t, ANCHOR);
        a.anchors().add(t);
    }

    /** English words: phrases of up to four words first, then single stems through the map; stop words dropped. */
    private static void flushWords(List<String> words, Acc a) {
        List<String> stems = new ArrayList<>(words.size());
        for (String x : words) stems.add(stem(x));
        int k = 0;
        while (k < stems.size()) {
            int taken = 0;
            for (int len = Math.min(4, stems.size() - k); len >= 2 && taken == 0; len--) {
                List<String> c = MAP.english().get(String.join("_", stems.subList(k, k + len)));
                if (c != null) {
                    add(c, a);
                    taken = len;
                }
            }
            if (taken == 0) {
                String st = stems.get(k);
                List<String> c = MAP.english().get(st);
                if (c != null) add(c, a);
                else if (st.length() >= 2) a.putIfAbsent(st, NAME);
                taken = 1;
            }
            k += taken;
        }
        words.clear();
    }

    /** Longest match against the map's Chinese forms; what no form covers counts per character, stop characters dropped. */
    private static void chinese(String run, Acc a) {
        int[] cps = run.codePoints().toArray();
        int k = 0;
        while (k < cps.length) {
            int taken = 0;
            for (int len = Math.min(MAP.longestChinese(), cps.length - k); len >= 1 && taken == 0; len--) {
                List<String> c = MAP.chinese().get(new String(cps, k, len));
                if (c != null) {
                    add(c, a);
                    taken = len;
                }
            }
            if (taken == 0) {
                a.putIfAbsent(new String(cps, k, 1), CJK_CHAR);
                taken = 1;
            }
            k += taken;
        }
    }

    private static void add(List<String> concepts, Acc a) {
        for (String c : concepts) {
            if (c.equals(STOP)) continue;
            a.put(c, WORD);
            if (c.equals(NOT)) a.anchors().add(c);
        }
    }

    /** How much of {@code a}'s weight {@code b} carries (0 when {@code a} is empty). */
    public static double coverage(Bag a, Bag b) {
        double total = a.total();
        if (total == 0) return 0;
        double in = 0;
        for (var e : a.weights().entrySet()) if (b.weights().containsKey(e.getKey())) in += e.getValue();
        return in / total;
    }

    /** Weighted Jaccard: shared weight over the weight of the union. */
    public static double jaccard(Bag a, Bag b) {
        if (a.isEmpty() || b.isEmpty()) return 0;
        double shared = 0;
        double union = b.total();
        for (var e : a.weights().entrySet()) {
            if (b.weights().containsKey(e.getKey())) shared += e.getValue();
            else union += e.getValue();
        }
        return shared / union;
    }

    /**
     * Two concepts that {@code a} and {@code b} name in exchanged places, all else in the same order: "apply before …
     * plan" / "plan before … apply", "db05, replica … db04" / "db04, replica … db05" — the same words in other roles,
     * so another fact. Compared over the concepts both name, each at its first mention; empty when the two orders
     * differ by anything but one exchange (a reworded or reordered sentence is not a swap), or when the two are
     * neighbours or named more than once.
     */
    public static List<String> swapped(Bag a, Bag b) {
        List<String> sa = firstMentions(a.sequence(), Set.copyOf(b.sequence()));
        List<String> sb = firstMentions(b.sequence(), Set.copyOf(a.sequence()));
        if (sa.size() != sb.size()) return List.of();
        int first = -1;
        int second = -1;
        for (int i = 0; i < sa.size(); i++) {
            if (sa.get(i).equals(sb.get(i))) continue;
            if (first < 0) first = i;
            else if (second < 0) second = i;
            else return List.of();
        }
        if (second < 0
                || !sa.get(first).equals(sb.get(second))
                || !sa.get(second).equals(sb.get(first))) return List.of();
        String x = sa.get(first);
        String y = sa.get(second);
        // neighbours trade places in wording alone ("answers in Chinese" / "中文回答"), and a concept named twice may
        // stand in two roles: only two single mentions apart in both texts are an exchange of roles
        if (!apart(a.sequence(), x, y) || !apart(b.sequence(), x, y)) return List.of();
        return List.of(x, y);
    }

    /** {@code x} and {@code y} are each named once in {@code seq}, with another concept between them. */
    private static boolean apart(List<String> seq, String x, String y) {
        int px = seq.indexOf(x);
        int py = seq.indexOf(y);
        return px == seq.lastIndexOf(x) && py == seq.lastIndexOf(y) && Math.abs(px - py) > 1;
    }

    /** The concepts of {@code seq} that {@code keep} holds, each once, in the order of their first mention. */
    private static List<String> firstMentions(List<String> seq, Set<String> keep) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String c : seq) if (keep.contains(c)) out.add(c);
        return new ArrayList<>(out);
    }

    /** {@code a}'s anchors (versions, hosts, paths, numbers, and its negation) that {@code b} lacks. */
    public static List<String> missingAnchors(Bag a, Bag b) {
        List<String> out = new ArrayList<>();
        for (String x : a.anchors()) if (!b.weights().containsKey(x)) out.add(x);
        return out;
    }
}
