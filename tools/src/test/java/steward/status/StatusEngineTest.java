package steward.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import steward.config.StewardPaths;
import steward.testing.TestHomes;

class StatusEngineTest {
    @TempDir
    Path tmp;

    @Test
    void reportsTheFixtureHome() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        StatusReport r = new StatusEngine(StewardPaths.of(home)).status();
        assertFalse(r.failed(), r.errors().toString());
        assertEquals(62, r.sessions().total());
        assertEquals(21, r.state_db().schema_version());
        assertEquals(2, r.skills());
        assertEquals(7, r.memory().get("memory").entry_count());
        assertEquals(2200, r.memory().get("memory").limit());
        assertFalse(Files.exists(home.resolve("steward")), "status must not create the state dir");
    }

    @Test
    void countsCodePointsAndWarnsOverTheLimit() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Files.writeString(home.resolve("config.yaml"), "memory:\n  user_char_limit: 10\n");
        Files.writeString(home.resolve("memories/USER.md"), "😀😀😀\n§\nabcdefghij");
        StatusReport r = new StatusEngine(StewardPaths.of(home)).status();
        StatusReport.MemoryUsage u = r.memory().get("user");
        assertEquals(3 + 3 + 10, u.chars()); // emoji count 1 each; the delimiter "\n§\n" counts 3
        assertEquals(2, u.entry_count());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("USER.md: over its limit")), r.warnings().toString());
    }

    @Test
    void missingHomeIsAnError() {
        StatusReport r = new StatusEngine(StewardPaths.of(tmp.resolve("nope"))).status();
        assertTrue(r.failed());
        assertFalse(r.hermes_home_exists());
        assertFalse(Files.exists(tmp.resolve("nope")));
    }

    @Test
    void nonUtf8MemoryFileIsAnErrorAndUntouched() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        Path f = home.resolve("memories/MEMORY.md");
        byte[] bad = {'o', 'k', (byte) 0xff, (byte) 0xfe, '\n'};
        Files.write(f, bad);
        StatusReport r = new StatusEngine(StewardPaths.of(home)).status();
        assertTrue(r.failed());
        assertTrue(r.errors().get(0).contains("not valid UTF-8"), r.errors().toString());
        assertEquals(62, r.sessions().total(), "everything else is still reported");
        assertTrue(java.util.Arrays.equals(bad, Files.readAllBytes(f)));
    }
}
