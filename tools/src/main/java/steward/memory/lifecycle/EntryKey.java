package steward.memory.lifecycle;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * A stable key for an entry's evidence: its body without the confidence prefix, whitespace collapsed, lower case,
 * hashed. A promotion (which rewrites the prefix) keeps the key; an edit of the words makes a new one.
 */
public final class EntryKey {
    private EntryKey() {}

    public static String normalise(String entry) {
        return Confidence.parse(entry.strip()).body().strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    public static String of(String entry) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(normalise(entry).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
