package steward.memory.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.memory.MemoryWriter;

class MemoryHealthTest {
    @TempDir
    Path tmp;

    Map<String, MemoryHealth.Indicator> check(StewardPaths p, String now) {
        var c = LifecycleHomes.at(now);
        var r = new MemoryHealth(
                        new HermesMemoryRoot(p, new MemoryWriter(p, c).config()), p.stateDir(), c, LifecycleHomes.ZONE)
                .check();
        return r.indicators().stream().collect(Collectors.toMap(MemoryHealth.Indicator::id, i -> i));
    }

    @Test
    void aHealthyRootReadsOkAndChangesNothing() throws Exception {
        StewardPaths p = LifecycleHomes.home(tmp, "[0.5] [env] one\n§\n[0.7] [ops] two");
        Map<String, String> before = LifecycleHomes.tree(p.hermesHome());
        Map<String, MemoryHealth.Indicator> h = check(p, "2026-08-10T12:00:00Z");
        for (String id : List.of(
                "memory_size",
                "hermes_cap",
                "unprocessed_logs",
                "log_files",
                "unprefixed_entries",
                "past_decay",
                "partitions",
                "bak_files")) {
            assertEquals("ok", h.get(id).status(), id + " " + h.get(id));
        }
        assertEquals("warn", h.get("index_freshness").status(), "never consolidated: no index");
        assertEquals(before, LifecycleHomes.tree(p.hermesHome()), "read-only");
    }

    @Test
    void eachIndicatorCallsForItsAction() throws Exception {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 90; i++)
            big.append(i == 0 ? "" : "\n§\n")
                    .append("[env] entry number ")
                    .append(i)
                    .append(" with some words to fill the file up to size");
        StewardPaths p = LifecycleHomes.home(tmp, big.toString());
        for (int d = 1; d <= 31; d++)
            LifecycleHomes.log(p, String.format("2026-07-%02d", d), "- 09:00 note " + d + "\n");
        for (int i = 1; i <= 4; i++)
            Files.writeString(p.memoriesDir().resolve("MEMORY.md.bak." + (1754000000 + i)), "x");
        Map<String, MemoryHealth.Indicator> h = check(p, "2026-08-10T12:00:00Z");
        assertEquals("act", h.get("memory_size").status(), h.get("memory_size").toString());
        assertEquals("consolidate now", h.get("memory_size").action());
        assertEquals("act", h.get("hermes_cap").status());
        assertEquals("act", h.get("unprocessed_logs").status());
        assertTrue(
                h.get("unprocessed_logs").value().startsWith("40 days"),
                h.get("unprocessed_logs").value());
        assertEquals("act", h.get("log_files").status());
        assertEquals("warn", h.get("unprefixed_entries").status());
        assertEquals("90", h.get("unprefixed_entries").value());
        assertEquals("warn", h.get("bak_files").status());
        assertTrue(
                h.get("bak_files").value().startsWith("4 (2 beyond"),
                h.get("bak_files").value());
    }
}
