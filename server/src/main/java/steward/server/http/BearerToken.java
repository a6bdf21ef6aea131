package steward.server.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import steward.StewardError;

/**
 * The shared secret HTTP clients must present as {@code Authorization: Bearer <token>}. It is kept
 * only as a SHA-256 digest and compared in constant time; {@link #toString()} never shows it.
 */
public final class BearerToken {
    public static final String ENV = "STEWARD_HTTP_TOKEN";
    static final int MIN_LENGTH = 16;
    private final byte[] digest;

    private BearerToken(String token) {
        this.digest = sha256(token);
    }

    public static BearerToken of(String token) {
        String t = token == null ? "" : token.strip();
        if (t.length() < MIN_LENGTH)
            throw new StewardError("token", "a bearer token must have at least " + MIN_LENGTH + " characters");
        if (!t.chars().allMatch(c -> c > 0x20 && c < 0x7f))
            throw new StewardError("token", "a bearer token must be printable ASCII without spaces");
        return new BearerToken(t);
    }

    /** From {@code --token-file} if given, else from {@code $STEWARD_HTTP_TOKEN}, else none (null). */
    public static BearerToken resolve(Path tokenFile, Map<String, String> env) {
        if (tokenFile != null) {
            try {
                return of(Files.readString(tokenFile, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new StewardError(
                        "--token-file " + tokenFile,
                        "cannot read: " + e.getClass().getSimpleName());
            }
        }
        String v = env.get(ENV);
        return v == null || v.isBlank() ? null : of(v);
    }

    /** Whether an {@code Authorization} header value carries this token; constant time in the token. */
    public boolean matches(String authorizationHeader) {
        if (authorizationHeader == null) return false;
        String h = authorizationHeader.strip();
        if (h.length() < 7 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) return false;
        return MessageDigest.isEqual(digest, sha256(h.substring(7).strip()));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "BearerToken[redacted]";
    }
}
