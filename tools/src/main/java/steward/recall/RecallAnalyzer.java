package steward.recall;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * One analysis chain for Chinese/Japanese/Korean and English text: Unicode word segmentation, width
 * folding, lower case, CJK bigrams plus unigrams (so one-character queries still match), English
 * possessives, stop words (English function and question words, a few Chinese particles), Porter stemming.
 */
public final class RecallAnalyzer extends Analyzer {
    public static final CharArraySet STOP_WORDS = new CharArraySet(
            List.of(
                    "a",
                    "an",
                    "and",
                    "are",
                    "as",
                    "at",
                    "be",
                    "but",
                    "by",
                    "for",
                    "if",
                    "in",
                    "into",
                    "is",
                    "it",
                    "no",
                    "not",
                    "of",
                    "on",
                    "or",
                    "such",
                    "that",
                    "the",
                    "their",
                    "then",
                    "there",
                    "these",
                    "they",
                    "this",
                    "to",
                    "was",
                    "will",
                    "with",
                    "what",
                    "when",
                    "where",
                    "who",
                    "whom",
                    "which",
                    "why",
                    "how",
                    "did",
                    "do",
                    "does",
                    "done",
                    "doing",
                    "has",
                    "have",
                    "had",
                    "having",
                    "were",
                    "am",
                    "been",
                    "being",
                    "i",
                    "you",
                    "me",
                    "my",
                    "your",
                    "yours",
                    "he",
                    "she",
                    "him",
                    "her",
                    "his",
                    "hers",
                    "its",
                    "we",
                    "us",
                    "our",
                    "them",
                    "can",
                    "could",
                    "would",
                    "should",
                    "shall",
                    "may",
                    "might",
                    "must",
                    "about",
                    "from",
                    "so",
                    "than",
                    "too",
                    "very",
                    "just",
                    "also",
                    "ever",
                    "any",
                    "some",
                    "all",
                    "up",
                    "out",
                    "over",
                    "s",
                    "t",
                    "m",
                    "re",
                    "ve",
                    "ll",
                    "d",
                    "don",
                    "oh",
                    "yeah",
                    "yes",
                    "hey",
                    "hi",
                    "wow",
                    "really",
                    "lot",
                    "much",
                    "more",
                    "most",
                    "kind",
                    "like",
                    "get",
                    "got",
                    "thing",
                    "things",
                    "something",
                    "anything",
                    "one",
                    "been",
                    "here",
                    "those",
                    "other",
                    "after",
                    "before",
                    "during",
                    "while",
                    "both",
                    "each",
                    "own",
                    "same",
                    "only",
                    "again",
                    "once",
                    "im",
                    "it's",
                    "的",
                    "了",
                    "吗",
                    "呢",
                    "吧",
                    "啊",
                    "是",
                    "在",
                    "和",
                    "与",
                    "也",
                    "就",
                    "都",
                    "而",
                    "及",
                    "着",
                    "么",
                    "什么",
                    "怎么",
                    "我们",
                    "你们",
                    "他们",
                    "一个",
                    "我",
                    "你",
                    "他",
                    "她",
                    "它",
                    "这",
                    "那",
                    "有",
                    "很",
                    "会",
                    "要",
                    "把",
                    "被",
                    "让",
                    "给",
                    "对",
                    "从",
                    "还",
                    "又",
                    "过",
                    "得",
                    "地",
                    "嗯",
                    "哦",
                    // refer-back cues ask to recall; they say nothing about what
                    "上次",
                    "之前",
                    "以前",
                    "记得",
                    "还记",
                    "上",
                    "次",
                    "之",
                    "前",
                    "以",
                    "记"),
            true);

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        StandardTokenizer src = new StandardTokenizer();
        TokenStream ts = new CJKWidthFilter(src);
        ts = new LowerCaseFilter(ts);
        ts = new CJKBigramFilter(
                ts,
                CJKBigramFilter.HAN | CJKBigramFilter.HIRAGANA | CJKBigramFilter.KATAKANA | CJKBigramFilter.HANGUL,
                true);
        ts = new EnglishPossessiveFilter(ts);
        ts = new StopFilter(ts, STOP_WORDS);
        ts = new PorterStemFilter(ts);
        return new TokenStreamComponents(src, ts);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
        return new LowerCaseFilter(new CJKWidthFilter(in));
    }

    private static final RecallAnalyzer SHARED = new RecallAnalyzer();

    public static RecallAnalyzer shared() {
        return SHARED;
    }

    /** The analysed terms of {@code text}, in order, duplicates kept. */
    public static List<String> terms(String text) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isEmpty()) return out;
        try (TokenStream ts = SHARED.tokenStream("body", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) out.add(term.toString());
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
