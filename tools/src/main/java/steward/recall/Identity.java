package steward.recall;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import steward.memory.lifecycle.Confidence;
import steward.text.TitleAnalyzer;

/**
 * Content-derived identities. An entry's id is the first 12 hex digits of the SHA-256 of its normalised text: Unicode
 * NFKC, lower case, words of letters and digits, and the symbols that change what a fact says each a word of its own
 * (see {@link #meaningful}: {@code < > = + # % & @ $ ~ |}, the other math and currency symbols, {@code !} before
 * {@code =}, {@code -} before a digit that starts a number), everything else (punctuation, spacing) one space, trimmed.
 * So an entry keeps its id (and its feedback, cooldown and harmful mark) when it moves, or when only case, spacing or
 * punctuation change; any change of a word, number, name or such a symbol makes it a different fact with a new id
 * ("replica count must be > 3" and "… < 3", "C++" and "C#"). A leading confidence prefix ({@code [0.3]} … {@code [0.9]},
 * which consolidation rewrites on promotion) is not part of the fact: "[0.5] X" and "[0.7] X" are one entry. A text without such symbols normalises as it did before
 * symbols counted, so its id did not change. Equal entries (the same normalised text) in one file get "-2", "-3" … in
 * file order: an id only ever passes between entries that say the same.
 */
public final class Identity {
    private Identity() {}

    public static String normalise(String text) {
        return normalWords(
                Confidence.parse(text == null ? "" : text.stripLeading()).body());
    }

    /**
     * The normalisation of the previous release, which kept a confidence prefix ({@code [0.5] }) as words: for moving
     * stored feedback and matching harmful marks stored then.
     */
    static String prefixedNormalise(String text) {
        return normalWords(text == null ? "" : text);
    }

    private static String normalWords(String text) {
        String t = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder(t.length());
        boolean space = false;
        int prev = -1;
        for (int i = 0; i < t.length(); ) {
            int cp = t.codePointAt(i);
            i += Character.charCount(cp);
            int next = i < t.length() ? t.codePointAt(i) : -1;
            if (Character.isLetterOrDigit(cp)) {
                if (space && b.length() > 0) b.append(' ');
                space = false;
                b.appendCodePoint(cp);
            } else if (meaningful(cp, prev, next)) { // a word of its own: "> 3", ">3" and "> 3" are one fact
                if (b.length() > 0) b.append(' ');
                b.appendCodePoint(cp);
                space = true;
            } else {
                space = true;
            }
            prev = cp;
        }
        return b.toString();
    }

    /**
     * Whether a character that is neither letter nor digit changes what a text says: math and currency symbols
     * ({@code < > = + ~ | $ €} …), {@code # % & @}, {@code !} before {@code =}, and {@code -} as the sign of a number
     * ({@code -5}, not the hyphen of {@code 1-2} or {@code re-run}). Punctuation otherwise does not.
     */
    static boolean meaningful(int cp, int prev, int next) {
        switch (Character.getType(cp)) {
            case Character.MATH_SYMBOL:
            case Character.CURRENCY_SYMBOL:
                return true;
            default:
                break;
        }
        switch (cp) {
            case '#':
            case '%':
            case '&':
            case '@':
                return true;
            case '!':
                return next == '=';
            case '-':
                return next >= 0 && Character.isDigit(next) && (prev < 0 || !Character.isLetterOrDigit(prev));
            default:
                return false;
        }
    }

    /** The normalisation ids were derived from before symbols counted (only letters and digits), for migrating feedback. */
    static String legacyNormalise(String text) {
        String t = Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFKC)
                .toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder(t.length());
        boolean space = false;
        for (int i = 0; i < t.length(); ) {
            int cp = t.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp)) {
                if (space && b.length() > 0) b.append(' ');
                space = false;
                b.appendCodePoint(cp);
            } else {
                space = true;
            }
        }
        return b.toString();
    }

    /** The id a text had before symbols counted. */
    static String legacyId(String text) {
        return HexFormat.of().formatHex(sha256(legacyNormalise(text))).substring(0, 12);
    }

    /** The id a text had in the previous release (its confidence prefix counted). */
    static String prefixedId(String text) {
        return HexFormat.of().formatHex(sha256(prefixedNormalise(text))).substring(0, 12);
    }

    /** The normal hash of the previous release (its confidence prefix counted): harmful marks stored then. */
    public static long prefixedNormalHash(String text) {
        return toLong(sha256(prefixedNormalise(text)));
    }

    /** The 12-hex-digit id of a text. */
    public static String id(String text) {
        return HexFormat.of().formatHex(sha256(normalise(text))).substring(0, 12);
    }

    /** A 64-bit hash of the exact text (the key of its vector). */
    public static long textHash(String text) {
        return toLong(sha256(text == null ? "" : text));
    }

    /** A 64-bit hash of the normalised text (equal for texts that differ only in case, spacing or punctuation). */
    public static long normalHash(String text) {
        return toLong(sha256(normalise(text)));
    }

    /** Lower-cased words of letters and digits, each CJK character a word of its own (cheap: no stemming, no stop words). */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        String t = text == null ? "" : text;
        for (int i = 0; i < t.length(); ) {
            int cp = t.codePointAt(i);
            i += Character.charCount(cp);
            boolean cjk = TitleAnalyzer.isCjk(cp);
            if (Character.isLetterOrDigit(cp) && !cjk) {
                w.appendCodePoint(Character.toLowerCase(cp));
                continue;
            }
            if (w.length() > 0) out.add(w.toString());
            w.setLength(0);
            if (cjk) out.add(new String(Character.toChars(cp)));
        }
        if (w.length() > 0) out.add(w.toString());
        return out;
    }

    /** A 64-bit SimHash of the words: near-duplicates differ in few bits. */
    public static long simHash(List<String> terms) {
        int[] v = new int[64];
        for (String t : terms) {
            long h = fnv(t);
            for (int i = 0; i < 64; i++) v[i] += (h >>> i & 1) != 0 ? 1 : -1;
        }
        long out = 0;
        for (int i = 0; i < 64; i++) if (v[i] > 0) out |= 1L << i;
        return out;
    }

    /** FNV-1a over the UTF-16 units, finished with a 64-bit mix (fast; only SimHash uses it). */
    static long fnv(String t) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < t.length(); i++) {
            h ^= t.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }

    private static long toLong(byte[] d) {
        long h = 0;
        for (int i = 0; i < 8; i++) h = h << 8 | (d[i] & 0xff);
        return h;
    }

    private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    static byte[] sha256(String s) {
        return SHA.get().digest(s.getBytes(StandardCharsets.UTF_8));
    }
}
