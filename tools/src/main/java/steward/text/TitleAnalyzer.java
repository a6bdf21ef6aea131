package steward.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A small, dependency-free analyzer for session titles and short requests in English and Chinese
 * (and other CJK scripts). Latin/digit runs become lower-cased words; CJK runs become overlapping
 * bigrams (a single CJK character stays a unigram). English and Chinese stop words, pure numbers,
 * single Latin letters and Hermes' duplicate-title suffix ({@code "#2"}) are dropped.
 */
public final class TitleAnalyzer {
    private TitleAnalyzer() {}

    static final Set<String> EN_STOP = Set.of(
            "a",
            "an",
            "the",
            "and",
            "or",
            "but",
            "of",
            "to",
            "in",
            "on",
            "at",
            "for",
            "with",
            "by",
            "from",
            "about",
            "into",
            "is",
            "are",
            "was",
            "were",
            "be",
            "been",
            "it",
            "its",
            "this",
            "that",
            "these",
            "those",
            "as",
            "i",
            "me",
            "my",
            "we",
            "our",
            "you",
            "your",
            "he",
            "she",
            "they",
            "them",
            "his",
            "her",
            "do",
            "does",
            "did",
            "how",
            "what",
            "why",
            "when",
            "where",
            "which",
            "who",
            "can",
            "could",
            "should",
            "would",
            "will",
            "please",
            "help",
            "need",
            "want",
            "some",
            "any",
            "new",
            "not",
            "no",
            "yes",
            "so",
            "if",
            "then",
            "than",
            "up",
            "out",
            "just",
            "also",
            "get",
            "let",
            "make",
            "use",
            "using",
            "vs",
            "via",
            "cont",
            "part",
            "again",
            "there",
            "here",
            "have",
            "has",
            "had",
            "all",
            "more",
            "most",
            "other",
            "one",
            "two",
            "like",
            "discuss",
            "discussion",
            "discussing");

    /** Chinese function words and conversational anchors (compared against unigrams and bigrams). */
    static final Set<String> ZH_STOP = Set.of(
            "的", "了", "和", "是", "在", "我", "你", "他", "她", "它", "吗", "呢", "吧", "啊", "也", "都", "与", "及", "或", "我们", "你们",
            "他们", "这个", "那个", "什么", "怎么", "怎样", "如何", "为什么", "可以", "能否", "一下", "帮我", "请问", "看看", "一个", "问题", "关于", "还是",
            "然后", "就是", "已经", "现在", "需要", "想要", "怎么办", "的话", "是否", "以及", "或者", "但是", "因为", "所以", "继续", "一些", "没有", "不是",
            "我想", "你好", "谢谢", "告诉", "一起", "之前", "之后", "讨论", "聊聊");

    /** Single characters that split a CJK run (particles and pronouns); other stop words are dropped as bigrams. */
    static final Set<String> ZH_SPLIT =
            Set.of("的", "了", "和", "是", "在", "我", "你", "他", "她", "它", "吗", "呢", "吧", "啊", "也", "都", "与", "及", "或");

    /** The distinct tokens of {@code text}, in order of first appearance. */
    public static List<String> tokens(String text) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        if (text == null) return new ArrayList<>();
        String s = text.toLowerCase(Locale.ROOT);
        int i = 0;
        int n = s.length();
        while (i < n) {
            int cp = s.codePointAt(i);
            if (isCjk(cp)) {
                List<String> run = new ArrayList<>();
                while (i < n && isCjk(s.codePointAt(i))) {
                    int c = s.codePointAt(i);
                    run.add(new String(Character.toChars(c)));
                    i += Character.charCount(c);
                }
                addCjk(run, out);
            } else if (Character.isLetterOrDigit(cp)) {
                int start = i;
                while (i < n) {
                    int c = s.codePointAt(i);
                    if (!Character.isLetterOrDigit(c) || isCjk(c)) break;
                    i += Character.charCount(c);
                }
                // a "#2" suffix is Hermes' duplicate-title numbering, not a topic
                boolean numbered = start > 0 && s.charAt(start - 1) == '#';
                addWord(s.substring(start, i), numbered, out);
            } else {
                i += Character.charCount(cp);
            }
        }
        return new ArrayList<>(out);
    }

    private static void addWord(String w, boolean numbered, Set<String> out) {
        if (numbered) return;
        if (w.chars().allMatch(Character::isDigit)) return;
        if (w.codePointCount(0, w.length()) < 2) return;
        if (EN_STOP.contains(w)) return;
        out.add(w);
    }

    /** A CJK run split at the stop characters, so that "的" never glues two topics together. */
    private static List<List<String>> pieces(List<String> run) {
        List<List<String>> pieces = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        for (String c : run) {
            if (ZH_SPLIT.contains(c)) {
                if (!cur.isEmpty()) pieces.add(cur);
                cur = new ArrayList<>();
            } else {
                cur.add(c);
            }
        }
        if (!cur.isEmpty()) pieces.add(cur);
        return pieces;
    }

    /** The CJK pieces of {@code text} (lower-cased, split at stop characters), each as its characters. */
    private static List<List<String>> cjkPieces(String text) {
        List<List<String>> out = new ArrayList<>();
        String s = text.toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < s.length()) {
            if (!isCjk(s.codePointAt(i))) {
                i += Character.charCount(s.codePointAt(i));
                continue;
            }
            List<String> run = new ArrayList<>();
            while (i < s.length() && isCjk(s.codePointAt(i))) {
                int c = s.codePointAt(i);
                run.add(new String(Character.toChars(c)));
                i += Character.charCount(c);
            }
            out.addAll(pieces(run));
        }
        return out;
    }

    /**
     * The words {@code text} shares with {@code other}, given {@code hits}: those of its tokens found in {@code other}.
     * A Chinese word splits into several overlapping bigrams ("数据库" → 数据, 据库): a run of overlapping bigrams that
     * is contiguous in both texts is one shared word (named by the whole run, which may reach past {@code hits}), as a
     * shared English word is one token. In the order of {@code hits}; other tokens stay as they are.
     */
    public static List<String> sharedWords(String text, Collection<String> hits, String other) {
        Set<String> hit = new LinkedHashSet<>(hits);
        String o = other == null ? "" : other.toLowerCase(Locale.ROOT);
        Map<String, String> wordOf = new HashMap<>();
        for (List<String> p : cjkPieces(text == null ? "" : text)) {
            int start = -1;
            for (int k = 0; k < p.size(); k++) {
                String bi = k + 1 < p.size() ? p.get(k) + p.get(k + 1) : null;
                boolean on = bi != null && !ZH_STOP.contains(bi) && o.contains(bi);
                boolean joins = on && start >= 0 && o.contains(p.get(k - 1) + bi);
                if (start >= 0 && !joins) {
                    String word = String.join("", p.subList(start, k + 1));
                    for (int j = start; j < k; j++) wordOf.putIfAbsent(p.get(j) + p.get(j + 1), word);
                    start = -1;
                }
                if (on && start < 0) start = k;
            }
        }
        List<String> out = new ArrayList<>();
        for (String h : hit) {
            String w = wordOf.getOrDefault(h, h);
            if (!out.contains(w)) out.add(w);
        }
        return out;
    }

    private static void addCjk(List<String> run, Set<String> out) {
        for (List<String> p : pieces(run)) {
            if (p.size() == 1) {
                if (!ZH_STOP.contains(p.get(0))) out.add(p.get(0));
                continue;
            }
            for (int k = 0; k + 1 < p.size(); k++) {
                String bi = p.get(k) + p.get(k + 1);
                if (!ZH_STOP.contains(bi)) out.add(bi);
            }
        }
    }

    public static boolean isCjk(int cp) {
        Character.UnicodeScript sc = Character.UnicodeScript.of(cp);
        return sc == Character.UnicodeScript.HAN
                || sc == Character.UnicodeScript.HIRAGANA
                || sc == Character.UnicodeScript.KATAKANA
                || sc == Character.UnicodeScript.HANGUL;
    }

    /** Whether a token is a CJK bigram/unigram (for rendering: CJK tokens are not separated by spaces). */
    public static boolean cjkToken(String t) {
        return !t.isEmpty() && isCjk(t.codePointAt(0));
    }
}
