package steward.memory.lifecycle;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A stable key for an entry's evidence: its body without the confidence prefix and a leading tag ({@code [env]}),
 * whitespace collapsed, lower case, hashed. A promotion (which rewrites the prefix) or a re-tag keeps the key; an
 * edit of the words makes a new one.
 */
public final class EntryKey {
    private EntryKey() {}

    private static final Pattern TAG = Pattern.compile("^\\[[A-Za-z][A-Za-z-]{0,11}\\]\\s*");
    private static final Pattern SPACE = Pattern.compile("\\s+");

    public static String normalise(String entry) {
        String body =
                TAG.matcher(Confidence.parse(entry.strip()).body().strip()).replaceFirst("");
        return SPACE.matcher(body).replaceAll(" ").toLowerCase(Locale.ROOT);
    }

    public static String of(String entry) {
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256").digest(normalise(entry).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
