package steward.sessions.grouping;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import steward.text.TitleAnalyzer;

/**
 * Clusters sessions on one topic from their titles, first prompts and working directories. Each session is a TF-IDF
 * vector over its title words (weight {@value #TITLE_WEIGHT}), the head of its title (first word and first two words,
 * weight {@value #HEAD_WEIGHT}: Hermes' list shows titles by how they start), its first prompt's words (weight
 * {@value #PROMPT_WEIGHT}) and its working directory with two ancestors (weight {@value #CWD_WEIGHT} each; a directory
 * most sessions share weighs almost nothing). Words come from {@link TitleAnalyzer} (English words with plurals folded,
 * CJK bigrams); see {@link #idf} for the weighting.
 * Sessions are merged by average-linkage agglomeration over the dot products of their linking words (words in at most
 * {@value #MIN_LINK_DF} sessions or {@value #MAX_DF_SHARE} of them), until the best average similarity falls below the
 * threshold. Deterministic for a given input order. The weights and {@link #DEFAULT_THRESHOLD} were tuned with
 * {@code steward bench grouping --seed 7 --sweep}.
 */
public final class TopicClusterer {
    static final double TITLE_WEIGHT = 2.0;
    static final double CWD_WEIGHT = 1.0;
    static final double HEAD_WEIGHT = 1.0;
    static final double PROMPT_WEIGHT = 0.5;
    /** A working directory counts with this many of its levels (itself, its parent, …). */
    static final int CWD_LEVELS = 3;
    /**
     * Sessions assumed to exist besides these, for IDF: in a small home a topic's words are a large share of it, and plain
     * IDF would weigh them as little as glue words.
     */
    static final double BACKGROUND = 50;

    static final double IDF_CAP_FACTOR = 3;
    static final double MAX_DF_SHARE = 0.25;
    /** Words in up to this many sessions always link (in a small home a topic is a large share of it; IDF weighs them). */
    static final int MIN_LINK_DF = 20;
    /** Each session keeps this many nearest sessions as merge candidates. */
    static final int NEIGHBOURS = 30;
    /** Average-linkage similarity at which merging stops (tuned on the generated home of seed 7; see bench grouping). */
    public static final double DEFAULT_THRESHOLD = 0.40;

    /** One session as the clusterer sees it. */
    public record Doc(String title, String prompt, String cwd) {}

    private TopicClusterer() {}

    /** Clusters of at least two sessions, as positions in {@code docs}, largest first. */
    public static List<List<Integer>> cluster(List<Doc> docs, double threshold) {
        return agglomerate(docs.size(), similarities(docs), threshold);
    }

    /** The similarity of every two sessions that share a linking word (absent = 0). */
    static List<Map<Integer, Double>> similarities(List<Doc> docs) {
        int n = docs.size();
        Map<String, Integer> dict = new HashMap<>();
        List<Integer> df = new ArrayList<>();
        List<Map<Integer, Double>> tf = new ArrayList<>(n);
        for (Doc d : docs) {
            Map<Integer, Double> m = new HashMap<>();
            List<String> title = TitleAnalyzer.tokens(
                    d.title() == null ? null : d.title().replaceFirst("^\\s*[\\[【]([^\\]】]*)[\\]】]", "$1 "));
            for (String t : title) m.merge(id(dict, df, stem(t)), TITLE_WEIGHT, Double::sum);
            // how a title starts is how Hermes' list shows it: a shared head ("Claude Code …") is a topic signal of its
            // own
            if (!title.isEmpty()) m.merge(id(dict, df, "\u0001head:" + title.get(0)), HEAD_WEIGHT, Double::sum);
            if (title.size() > 1)
                m.merge(id(dict, df, "\u0001head:" + title.get(0) + " " + title.get(1)), HEAD_WEIGHT, Double::sum);
            for (String t : TitleAnalyzer.tokens(d.prompt()))
                m.merge(id(dict, df, stem(t)), PROMPT_WEIGHT, Double::sum);
            if (d.cwd() != null && !d.cwd().isBlank()) {
                // the directory and its ancestors: sessions in a repository and in its subfolders share the repository
                List<String> seg = Paths.segments(d.cwd());
                for (int k = seg.size(); k >= 1 && seg.size() - k < CWD_LEVELS; k--) {
                    m.merge(id(dict, df, "\u0000cwd:" + String.join("/", seg.subList(0, k))), CWD_WEIGHT, Double::sum);
                }
            }
            for (Integer k : m.keySet()) df.set(k, df.get(k) + 1);
            tf.add(m);
        }
        // TF-IDF vectors, L2-normalised; only words shared by a few sessions link sessions (an inverted index of them)
        double maxDf = Math.max(MIN_LINK_DF, MAX_DF_SHARE * n);
        int[][] ids = new int[n][];
        double[][] ws = new double[n][];
        int[] postingSize = new int[dict.size()];
        for (int i = 0; i < n; i++) {
            Map<Integer, Double> m = tf.get(i);
            int[] keys = new int[m.size()];
            int j = 0;
            for (Integer k : m.keySet()) keys[j++] = k;
            Arrays.sort(keys);
            double[] w = new double[keys.length];
            double norm = 0;
            for (int k = 0; k < keys.length; k++) {
                w[k] = m.get(keys[k]) * idf(n, df.get(keys[k]));
                norm += w[k] * w[k];
                if (linking(df.get(keys[k]), maxDf)) postingSize[keys[k]]++;
            }
            norm = Math.sqrt(norm);
            if (norm > 0) for (int k = 0; k < w.length; k++) w[k] /= norm;
            ids[i] = keys;
            ws[i] = w;
        }
        int[][] postDoc = new int[dict.size()][];
        double[][] postW = new double[dict.size()][];
        for (int t = 0; t < postDoc.length; t++) {
            postDoc[t] = new int[postingSize[t]];
            postW[t] = new double[postingSize[t]];
        }
        int[] fill = new int[dict.size()];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < ids[i].length; k++) {
                int t = ids[i][k];
                if (!linking(df.get(t), maxDf)) continue;
                postDoc[t][fill[t]] = i;
                postW[t][fill[t]++] = ws[i][k];
            }
        }
        // similarities: the dot product over linking words, accumulated per session through the inverted index
        List<Map<Integer, Double>> sim = new ArrayList<>(n);
        for (int i = 0; i < n; i++) sim.add(new HashMap<>());
        double[] acc = new double[n];
        boolean[] seen = new boolean[n];
        int[] touched = new int[n];
        for (int i = 0; i < n; i++) {
            int nt = 0;
            for (int k = 0; k < ids[i].length; k++) {
                int t = ids[i][k];
                if (!linking(df.get(t), maxDf)) continue;
                int[] pd = postDoc[t];
                double[] pw = postW[t];
                for (int p = 0; p < pd.length; p++) {
                    int j = pd[p];
                    if (j <= i) continue;
                    if (!seen[j]) {
                        seen[j] = true;
                        touched[nt++] = j;
                    }
                    acc[j] += ws[i][k] * pw[p];
                }
            }
            for (int q = 0; q < nt; q++) {
                int j = touched[q];
                double v = acc[j];
                acc[j] = 0;
                seen[j] = false;
                if (v > 0) {
                    sim.get(i).put(j, v);
                    sim.get(j).put(i, v);
                }
            }
        }
        return nearest(sim, NEIGHBOURS);
    }

    /**
     * Keeps each session's {@code k} most similar sessions (a pair stays when either side keeps it): a topic has a few
     * dozen sessions at most, and a home of look-alike titles would otherwise make every pair a candidate.
     */
    static List<Map<Integer, Double>> nearest(List<Map<Integer, Double>> sim, int k) {
        int n = sim.size();
        List<Map<Integer, Double>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(new HashMap<>());
        for (int i = 0; i < n; i++) {
            Map<Integer, Double> row = sim.get(i);
            List<Map.Entry<Integer, Double>> top = new ArrayList<>(row.entrySet());
            if (top.size() > k) {
                top.sort((a, b) -> !a.getValue().equals(b.getValue())
                        ? Double.compare(b.getValue(), a.getValue())
                        : Integer.compare(a.getKey(), b.getKey()));
                top = top.subList(0, k);
            }
            for (Map.Entry<Integer, Double> e : top) {
                out.get(i).put(e.getKey(), e.getValue());
                out.get(e.getKey()).put(i, e.getValue());
            }
        }
        return out;
    }

    /**
     * IDF as if {@value #BACKGROUND} other sessions existed (so that in a small home a topic's words are not flattened),
     * but never above {@value #IDF_CAP_FACTOR} times the plain IDF (so that what nearly every session has weighs nearly nothing).
     */
    static double idf(int n, int df) {
        return Math.min(Math.log((n + BACKGROUND) / df), IDF_CAP_FACTOR * Math.log((double) n / df));
    }

    /** English plurals fold onto the singular ("refunds" → "refund"); CJK bigrams and short words stay as they are. */
    static String stem(String t) {
        if (t.length() > 3 && t.endsWith("s") && !t.endsWith("ss") && !TitleAnalyzer.cjkToken(t))
            return t.substring(0, t.length() - 1);
        return t;
    }

    private static boolean linking(int df, double maxDf) {
        return df >= 2 && df <= maxDf;
    }

    private static int id(Map<String, Integer> dict, List<Integer> df, String t) {
        Integer k = dict.get(t);
        if (k != null) return k;
        dict.put(t, dict.size());
        df.add(0);
        return dict.size() - 1;
    }

    private record Candidate(double avg, int a, int b, int va, int vb) {}

    /** Average linkage over sparse similarities: pairs without a similarity count as 0. */
    static List<List<Integer>> agglomerate(int n, List<Map<Integer, Double>> sim, double threshold) {
        List<List<Integer>> members = new ArrayList<>(n);
        List<Map<Integer, Double>> sums = new ArrayList<>(n); // cluster -> (other cluster -> sum of similarities)
        int[] version = new int[n];
        boolean[] alive = new boolean[n];
        PriorityQueue<Candidate> pq = new PriorityQueue<>((x, y) -> x.avg() != y.avg()
                ? Double.compare(y.avg(), x.avg())
                : x.a() != y.a() ? Integer.compare(x.a(), y.a()) : Integer.compare(x.b(), y.b()));
        for (int i = 0; i < n; i++) {
            members.add(new ArrayList<>(List.of(i)));
            sums.add(new HashMap<>(sim.get(i)));
            alive[i] = true;
        }
        for (int i = 0; i < n; i++) {
            for (Map.Entry<Integer, Double> e : sim.get(i).entrySet()) {
                if (e.getKey() > i && e.getValue() >= threshold)
                    pq.add(new Candidate(e.getValue(), i, e.getKey(), 0, 0));
            }
        }
        while (!pq.isEmpty()) {
            Candidate c = pq.poll();
            if (c.avg() < threshold) break;
            if (!alive[c.a()] || !alive[c.b()] || version[c.a()] != c.va() || version[c.b()] != c.vb()) continue;
            int a = c.a(), b = c.b();
            // merge b into a
            members.get(a).addAll(members.get(b));
            alive[b] = false;
            version[a]++;
            Map<Integer, Double> sa = sums.get(a);
            sa.remove(b);
            for (Map.Entry<Integer, Double> e : sums.get(b).entrySet()) {
                int k = e.getKey();
                if (k == a) continue;
                sa.merge(k, e.getValue(), Double::sum);
            }
            sums.set(b, Map.of());
            for (Map.Entry<Integer, Double> e : sa.entrySet()) {
                int k = e.getKey();
                if (!alive[k]) continue;
                Map<Integer, Double> sk = sums.get(k);
                sk.remove(b);
                sk.put(a, e.getValue());
                double avg = e.getValue()
                        / ((double) members.get(a).size() * members.get(k).size());
                if (avg >= threshold) {
                    int lo = Math.min(a, k), hi = Math.max(a, k);
                    pq.add(new Candidate(avg, lo, hi, version[lo], version[hi]));
                }
            }
        }
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (alive[i] && members.get(i).size() >= 2) {
                List<Integer> m = new ArrayList<>(members.get(i));
                m.sort(Integer::compare);
                out.add(m);
            }
        }
        out.sort((x, y) ->
                x.size() != y.size() ? Integer.compare(y.size(), x.size()) : Integer.compare(x.get(0), y.get(0)));
        return out;
    }
}
