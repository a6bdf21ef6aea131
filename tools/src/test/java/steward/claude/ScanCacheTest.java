package steward.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan cache keeps every fact across a save and a load, misses on a changed file and ignores a damaged cache. */
class ScanCacheTest {
    @TempDir
    Path tmp;

    static final TranscriptFacts A = new TranscriptFacts(
            "s-1",
            "/home/dev/ünïcode",
            "main",
            null,
            1.7e9,
            Double.NaN,
            "Fix the “login” flow",
            TitleEntry.AI,
            42,
            false,
            3,
            false,
            true,
            "s-2",
            1,
            true);
    static final TranscriptFacts B = new TranscriptFacts(
            null, null, null, "agent-7", Double.NaN, 1.8e9, null, null, 0, true, 0, true, false, null, 0, false);

    @Test
    void keepsEveryFactAndMissesOnAChangedFile() throws Exception {
        Path file = ScanCache.defaultFile(tmp);
        ScanCache c = ScanCache.load(file);
        assertNull(c.get("projects/p/a.jsonl", 10, 20));
        c.put("projects/p/a.jsonl", 10, 20, A);
        c.put("projects/p/b/subagents/agent-7.jsonl", 5, 6, B);
        c.save();
        ScanCache again = ScanCache.load(file);
        assertEquals(A, again.get("projects/p/a.jsonl", 10, 20));
        assertEquals(B, again.get("projects/p/b/subagents/agent-7.jsonl", 5, 6));
        assertNull(again.get("projects/p/a.jsonl", 11, 20), "grew");
        assertNull(again.get("projects/p/a.jsonl", 10, 21), "touched");
        // a listing that no longer sees b drops it
        again.save();
        ScanCache third = ScanCache.load(file);
        assertEquals(A, third.get("projects/p/a.jsonl", 10, 20));
        third.save();
        assertNull(ScanCache.load(file).get("projects/p/b/subagents/agent-7.jsonl", 5, 6));
    }

    @Test
    void aDamagedCacheIsIgnored() throws Exception {
        Path file = ScanCache.defaultFile(tmp);
        ScanCache c = ScanCache.load(file);
        c.put("projects/p/a.jsonl", 10, 20, A);
        c.save();
        byte[] b = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(b, b.length - 7));
        assertNull(ScanCache.load(file).get("projects/p/a.jsonl", 10, 20), "cut short");
        b[b.length / 2] = (byte) 0x7f;
        b[b.length / 2 + 1] = (byte) 0x7f;
        Files.write(file, b);
        ScanCache.load(file); // whatever it reads, it does not throw
        Files.writeString(file, "not a cache");
        assertNull(ScanCache.load(file).get("projects/p/a.jsonl", 10, 20), "foreign");
    }
}
