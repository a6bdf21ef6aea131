package steward.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.server.protocol.Cancellations;

class SecurityTest {
    static final String TOKEN = "0123456789abcdef-token";

    @Test
    void hostHeaderParsing() {
        assertEquals("localhost", SecurityFilter.hostName("LOCALHOST:8765"));
        assertEquals("127.0.0.1", SecurityFilter.hostName("127.0.0.1"));
        assertEquals("[::1]", SecurityFilter.hostName("[::1]:8765"));
        assertNull(SecurityFilter.hostName("[::1"));
        assertNull(SecurityFilter.hostName(""));
        assertNull(SecurityFilter.hostName(null));
    }

    @Test
    void originMustNameAnAllowedHost() {
        var f = new SecurityFilter(
                new HttpOptions("127.0.0.1", 0, null, List.of("steward.lan"), true, 4096), new Cancellations());
        assertTrue(f.originAllowed("http://localhost:3000"));
        assertTrue(f.originAllowed("https://127.0.0.1"));
        assertTrue(f.originAllowed("http://[::1]:9"));
        assertTrue(f.originAllowed("http://steward.lan:8765"));
        assertFalse(f.originAllowed("http://evil.example"));
        assertFalse(f.originAllowed("http://localhost.evil.example"));
        assertFalse(f.originAllowed("null"));
        assertFalse(f.originAllowed("file:///etc/passwd"));
        assertFalse(f.originAllowed("::not a uri::"));
    }

    @Test
    void tokenComparesOnlyTheBearerValue() {
        BearerToken t = BearerToken.of(TOKEN);
        assertTrue(t.matches("Bearer " + TOKEN));
        assertTrue(t.matches("bearer " + TOKEN + " "));
        assertFalse(t.matches("Bearer " + TOKEN + "x"));
        assertFalse(t.matches("Basic " + TOKEN));
        assertFalse(t.matches(TOKEN));
        assertFalse(t.matches(null));
        assertFalse(t.toString().contains(TOKEN));
    }

    @Test
    void weakOrMalformedTokensAreRefused() {
        assertThrows(StewardError.class, () -> BearerToken.of("short"));
        assertThrows(StewardError.class, () -> BearerToken.of("has a space in the middle!!"));
    }

    @Test
    void tokenComesFromTheFileElseTheEnvironment(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("token");
        Files.writeString(f, TOKEN + "\n");
        assertTrue(BearerToken.resolve(f, Map.of(BearerToken.ENV, "another-token-0123456789"))
                .matches("Bearer " + TOKEN));
        assertTrue(BearerToken.resolve(null, Map.of(BearerToken.ENV, TOKEN)).matches("Bearer " + TOKEN));
        assertNull(BearerToken.resolve(null, Map.of()));
        StewardError e = assertThrows(StewardError.class, () -> BearerToken.resolve(tmp.resolve("missing"), Map.of()));
        assertTrue(e.getMessage().contains("--token-file"));
    }

    @Test
    void nonLoopbackBindNeedsAToken() {
        StewardError e =
                assertThrows(StewardError.class, () -> new HttpOptions("0.0.0.0", 8765, null, List.of(), true, 4096));
        assertTrue(e.getMessage().contains("non-loopback"), e.getMessage());
        assertThrows(StewardError.class, () -> new HttpOptions("192.168.1.5", 8765, null, List.of(), true, 4096));
        assertThrows(StewardError.class, () -> new HttpOptions("my.host.example", 8765, null, List.of(), true, 4096));
        new HttpOptions("0.0.0.0", 8765, BearerToken.of(TOKEN), List.of(), true, 4096);
        new HttpOptions("127.0.0.1", 8765, null, List.of(), true, 4096);
        new HttpOptions("::1", 8765, null, List.of(), true, 4096);
        new HttpOptions("localhost", 8765, null, List.of(), true, 4096);
        assertThrows(StewardError.class, () -> new HttpOptions("127.0.0.1", 70000, null, List.of(), true, 4096));
    }

    @Test
    void allowedHostsAreLoopbackPlusBindPlusExtras() {
        var o = new HttpOptions("192.168.1.5", 8765, BearerToken.of(TOKEN), List.of("Steward.LAN"), false, 4096);
        assertEquals(
                List.of("localhost", "127.0.0.1", "[::1]", "192.168.1.5", "steward.lan"),
                List.copyOf(o.allowedHosts()));
        var any = new HttpOptions("0.0.0.0", 8765, BearerToken.of(TOKEN), List.of(), false, 4096);
        assertFalse(any.allowedHosts().contains("0.0.0.0"));
    }

    @Test
    void bodiesOverTheLimitAreRejected() throws Exception {
        assertNull(SecurityFilter.readBounded(new ByteArrayInputStream(new byte[5000]), 4096));
        assertEquals(4096, SecurityFilter.readBounded(new ByteArrayInputStream(new byte[4096]), 4096).length);
    }
}
