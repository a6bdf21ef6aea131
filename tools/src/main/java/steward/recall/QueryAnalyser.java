package steward.recall;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import steward.text.TitleAnalyzer;

/**
 * What a query asks, read against the index: its analysed terms and their IDF, closed compounds of adjacent words the
 * index knows, names the index has never seen, a date it names, the speaker it is about, and whether it is mostly in
 * CJK script (the embedding model is English).
 */
final class QueryAnalyser {
    private QueryAnalyser() {}

    static final int MAX_QUERY_TERMS = 256;
    /** A message naming something memory has never seen is not about what memory holds: coverage is scaled by this. */
    static final double UNKNOWN_ENTITY_FACTOR = 0.6;

    private static final Pattern LATIN_WORD = Pattern.compile("[A-Za-z]+");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’_-]*|[.?!。？！]");

    /**
     * The analysed query. {@code weights}: the terms searched (query terms and compounds); {@code idf}: the IDF of each
     * query term that counts towards coverage; {@code speakers}: the speaker the query is about (at most one).
     */
    record Analysis(
            String text,
            List<String> terms,
            Map<String, Float> weights,
            Map<String, Double> idf,
            double totalIdf,
            double entityFactor,
            TimeMention when,
            Set<String> speakers,
            boolean cjk,
            double rareIdf) {}

    /** The IDF of a term that one item of {@code n} holds: the unit of information (one rare term's worth). */
    static double rareIdf(int n) {
        return Math.log(1 + (Math.max(1, n) - 1 + 0.5) / 1.5);
    }

    static Analysis analyse(String query, IndexReader r, Set<String> recurringSpeakers) throws IOException {
        List<String> terms = new ArrayList<>(new LinkedHashSet<>(RecallAnalyzer.terms(query)));
        if (terms.size() > MAX_QUERY_TERMS) terms = terms.subList(terms.size() - MAX_QUERY_TERMS, terms.size());
        Map<String, Float> weights = new LinkedHashMap<>();
        for (String t : terms) weights.put(t, 1f);
        for (String c : compounds(query, r)) weights.putIfAbsent(c, 1f);
        Map<String, Double> idf = idf(terms, r);
        double total = idf.values().stream().mapToDouble(Double::doubleValue).sum();
        double entity = unknownEntities(query, r) > 0 ? UNKNOWN_ENTITY_FACTOR : 1.0;
        return new Analysis(
                query,
                List.copyOf(terms),
                weights,
                idf,
                total,
                entity,
                TimeMention.parse(query),
                mentionedSpeakers(terms, recurringSpeakers),
                mostlyCjk(query),
                rareIdf(r.numDocs()));
    }

    /**
     * Closed compounds of adjacent query words that the index knows ("work out" → workout, "home made" → homemade):
     * English writes many compounds open, closed or hyphenated, and a question rarely uses the conversation's form.
     */
    static List<String> compounds(String query, IndexReader r) throws IOException {
        Matcher m = LATIN_WORD.matcher(query);
        int prevEnd = -1;
        List<String> out = new ArrayList<>();
        String prev = null;
        while (m.find()) {
            String w = m.group().toLowerCase(Locale.ROOT);
            if (prev != null && m.start() == prevEnd + 1 && query.charAt(prevEnd) == ' ') {
                for (String t : RecallAnalyzer.terms(prev + w)) {
                    if (t.length() > 4 && r.docFreq(new Term(RecallIndex.F_BODY, t)) > 0) out.add(t);
                }
            }
            prev = w;
            prevEnd = m.end();
        }
        return out;
    }

    static Map<String, Double> idf(List<String> terms, IndexReader r) throws IOException {
        Map<String, Double> out = new HashMap<>();
        int n = Math.max(1, r.numDocs());
        Map<String, Integer> df = new HashMap<>();
        Set<Integer> inKnownBigram = new HashSet<>();
        for (String t : terms) {
            int d = r.docFreq(new Term(RecallIndex.F_BODY, t));
            df.put(t, d);
            if (d > 0 && cjkBigram(t)) t.codePoints().forEach(inKnownBigram::add);
        }
        for (String t : terms) {
            int d = df.get(t);
            // a CJK bigram found nowhere is mostly a segmentation artefact across a word boundary ("得我"), not evidence
            // of an unknown subject: it does not count against coverage (its unigrams still do)
            if (d == 0 && cjkBigram(t)) continue;
            // nor does a CJK character that a bigram the index knows already holds: CJK text is indexed as characters
            // and
            // overlapping bigrams, and counting both weighed a Chinese word three or four times an English one ("继续讨论"
            // alone cleared the information floor that a named subject must clear)
            if (cjkUnigram(t) && inKnownBigram.contains(t.codePointAt(0))) continue;
            out.put(t, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
        }
        return out;
    }

    /**
     * Proper names in the query (capitalised, not sentence-initial) that occur in no indexed item. Names are the
     * strongest sign of what a message is about; one the memory has never seen means the match is on side words.
     */
    static int unknownEntities(String query, IndexReader r) throws IOException {
        int unknown = 0;
        boolean initial = true;
        Matcher m = WORD.matcher(query);
        while (m.find()) {
            String w = m.group();
            if (w.length() == 1 && ".?!。？！".contains(w)) {
                initial = true;
                continue;
            }
            boolean cap = Character.isUpperCase(w.codePointAt(0))
                    && w.codePoints().skip(1).anyMatch(Character::isLowerCase);
            if (cap && !initial) {
                for (String t : RecallAnalyzer.terms(w)) {
                    if (r.docFreq(new Term(RecallIndex.F_BODY, t)) == 0
                            && r.docFreq(new Term(RecallIndex.F_TITLE, t)) == 0) {
                        unknown++;
                        break;
                    }
                }
            }
            initial = false;
        }
        return unknown;
    }

    /** The speaker (as named at the start of their messages) the query is about: the one it names, or the first it names. */
    static Set<String> mentionedSpeakers(List<String> terms, Set<String> speakers) {
        Set<String> out = new HashSet<>();
        Set<String> q = new HashSet<>(terms);
        String first = null;
        int firstPos = Integer.MAX_VALUE;
        for (String s : speakers) {
            List<String> st = RecallAnalyzer.terms(s);
            if (!st.isEmpty() && q.contains(st.get(0))) {
                out.add(s);
                int pos = terms.indexOf(st.get(0));
                if (pos < firstPos) {
                    firstPos = pos;
                    first = s;
                }
            }
        }
        // two people named ("What does Jon tell Gina …?", "… from Caroline's suggestion"): the first is the subject,
        // the
        // one whose messages hold the answer (held-out LoCoMo 3–5: R@10 0.786 → 0.792; 1–2 unchanged)
        return out.size() > 1 ? Set.of(first) : out;
    }

    /**
     * Whether the dense model may be asked to embed this query: not mostly CJK script (the model is English), at least two
     * letters or digits (emoji, punctuation or one character, "a", "x?", "7", embed as noise close to unrelated texts),
     * and a term the lexical analysis keeps (stop words alone, "what is it?", ask nothing the model can place). A query
     * that fails is ranked lexically, or answered "no good match".
     */
    static boolean denseUsable(String query) {
        if (query == null || mostlyCjk(query)) return false;
        if (query.codePoints().filter(Character::isLetterOrDigit).limit(2).count() < 2) return false;
        return !RecallAnalyzer.terms(query).isEmpty();
    }

    /** More CJK than other letters. */
    static boolean mostlyCjk(String text) {
        int cjk = 0, other = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (TitleAnalyzer.isCjk(cp)) cjk++;
            else if (Character.isLetter(cp)) other++;
            i += Character.charCount(cp);
        }
        return cjk > other;
    }

    static boolean cjkUnigram(String t) {
        return t.codePointCount(0, t.length()) == 1 && TitleAnalyzer.isCjk(t.codePointAt(0));
    }

    static boolean cjkBigram(String t) {
        if (t.codePointCount(0, t.length()) != 2) return false;
        return t.codePoints().allMatch(TitleAnalyzer::isCjk);
    }
}
