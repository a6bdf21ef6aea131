package steward.recall;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import steward.text.TitleAnalyzer;

/**
 * Content-derived identities. An entry's id is the first 12 hex digits of the SHA-256 of its normalised text: Unicode
 * NFKC, lower case, every run of characters that are neither letters nor digits made one space, trimmed. So an entry
 * keeps its id (and its feedback, cooldown and harmful mark) when it moves, or when only case, spacing or punctuation
 * change; any change of a word, number or name makes it a different fact with a new id. Equal entries in one file get
 * "-2", "-3" … in file order.
 */
public final class Identity {
    private Identity() {}

    public static String normalise(String text) {
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
