package steward.memory.lifecycle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.memory.history.VersionStore;
import steward.state.FileTrees;

/**
 * A consolidation killed (SIGKILL) at every point of its apply leaves, once the next call has run, exactly the old
 * state or exactly the new one: every file under memories/ and the evidence compared byte for byte.
 */
class JournalCrashTest {
    @TempDir
    Path tmp;

    StewardPaths prepare(Path dir) throws Exception {
        StringBuilder mem = new StringBuilder(
                "[0.7] [env] Office IP is 192.168.1.50\n§\n[0.5] [env] GPU is an RTX 4090\n§\n[0.3] [ops] tentative");
        StewardPaths p = LifecycleHomes.home(dir, mem.toString());
        LifecycleHomes.log(p, "2026-06-01", "- 09:00 old note\n");
        LifecycleHomes.log(p, "2026-06-02", "- 09:00 older note two\n");
        LifecycleHomes.log(p, "2026-08-09", "- 09:00 office IP is now 192.168.1.77\n- 10:00 prefers pnpm\n");
        for (int i = 1; i <= 4; i++)
            Files.writeString(p.memoriesDir().resolve("MEMORY.md.bak." + (1754000000 + i)), "bak " + i);
        return p;
    }

    Map<String, String> state(StewardPaths p) throws Exception {
        Map<String, String> m = new TreeMap<>(LifecycleHomes.tree(p.memoriesDir()));
        Path ev = p.stateDir().resolve("memory/evidence.json");
        m.put("<evidence>", Files.exists(ev) ? Files.readString(ev) : "<absent>");
        return m;
    }

    @Test
    void aKillAtAnyPointLeavesTheOldOrTheNewStateNeverAMix() throws Exception {
        StewardPaths base = prepare(tmp.resolve("base"));
        Consolidation c = LifecycleHomes.consolidation(base, LifecycleHomes.at("2026-08-10T12:00:00Z"));
        var plan = c.plan(
                null,
                c.gather(null, null).through(), // the logs shown are processed: the old ones move to the archive
                List.of(
                        new Consolidation.Proposal(
                                "[env] Office IP is 192.168.1.77",
                                "fact",
                                List.of("log:2026-08-09#3"),
                                null,
                                "192.168.1.50",
                                null),
                        new Consolidation.Proposal(
                                "[pref] Use pnpm", "preference", List.of("log:2026-08-09#4"), null, null, null)),
                "en");
        assertTrue(plan.files().size() >= 6, plan.files().toString());
        Map<String, String> old = state(base);
        // the new state: the same plan applied to completion in a copy
        Path full = tmp.resolve("full");
        FileTrees.copy(base.hermesHome(), full.resolve("home"));
        StewardPaths fp = StewardPaths.of(full.resolve("home"));
        LifecycleHomes.consolidation(fp, LifecycleHomes.at("2026-08-10T12:00:00Z"))
                .apply(plan.plan_id(), List.of(), "crash-test");
        Map<String, String> fresh = state(fp);
        assertFalse(old.equals(fresh));
        String java = ProcessHandle.current().info().command().orElse("java");
        int sawOld = 0, sawNew = 0;
        List<Integer> points = new ArrayList<>();
        points.add(-1);
        for (int k = 1; k <= 12; k++) points.add(k);
        for (int k : points) {
            Path run = tmp.resolve("run" + k);
            FileTrees.copy(base.hermesHome(), run.resolve("home"));
            StewardPaths rp = StewardPaths.of(run.resolve("home"));
            Process proc = new ProcessBuilder(
                            java,
                            "-D" + Journal.CRASH_PROPERTY + "=" + k,
                            "-cp",
                            System.getProperty("java.class.path"),
                            ApplyCrashMain.class.getName(),
                            rp.hermesHome().toString(),
                            plan.plan_id())
                    .redirectErrorStream(true)
                    .start();
            boolean crashed = false;
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("CRASH-POINT")) {
                        crashed = true;
                        proc.destroyForcibly();
                        break;
                    }
                    if (line.startsWith("APPLIED")) break;
                }
            }
            assertTrue(proc.waitFor(60, TimeUnit.SECONDS));
            // the next call recovers (completes a committed change, discards an uncommitted one)
            Journal.recover(rp, rp.memoriesDir().resolve(".steward.lock"));
            Map<String, String> now = state(rp);
            boolean isOld = now.equals(old), isNew = now.equals(fresh);
            assertTrue(
                    isOld || isNew,
                    "crash point " + k + " (crashed: " + crashed + ") left a mix: " + diff(old, fresh, now));
            if (isOld) sawOld++;
            if (isNew) sawNew++;
            if (!crashed) break;
        }
        assertTrue(sawOld >= 1, "a kill before the commit mark leaves the old state");
        assertTrue(sawNew >= 3, "kills after it are completed: " + sawNew);
    }

    /**
     * Probe: after a kill past the commit mark, Hermes added an entry to MEMORY.md before Steward's next call; that call
     * rolled the journal forward by writing the plan's MEMORY.md over it (the roll-forward rewrote any file whose bytes
     * were not the plan's), so Hermes' entry was lost. And the completed change was not a version in the history.
     */
    @Test
    void aRollForwardNeverOverwritesAFileSomeoneChangedAfterTheKillAndIsRecordedInTheHistory() throws Exception {
        StewardPaths p = prepare(tmp.resolve("base"));
        Consolidation c = LifecycleHomes.consolidation(p, LifecycleHomes.at("2026-08-10T12:00:00Z"));
        var plan = c.plan(
                null,
                c.gather(null, null).through(), // the logs shown are processed: the old ones move to the archive
                List.of(new Consolidation.Proposal(
                        "[pref] Use pnpm", "preference", List.of("log:2026-08-09#4"), null, null, null)),
                "en");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process proc = new ProcessBuilder(
                        java,
                        "-D" + Journal.CRASH_PROPERTY + "=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ApplyCrashMain.class.getName(),
                        p.hermesHome().toString(),
                        plan.plan_id())
                .redirectErrorStream(true)
                .start();
        boolean crashed = false;
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("CRASH-POINT")) {
                    crashed = true;
                    proc.destroyForcibly();
                    break;
                }
            }
        }
        assertTrue(proc.waitFor(60, TimeUnit.SECONDS));
        assertTrue(crashed);
        Path mem = p.memoriesDir().resolve("MEMORY.md");
        assertTrue(
                Files.readString(mem).contains("[0.3] [pref] Use pnpm"), "the kill came after MEMORY.md was written");
        // Hermes writes before Steward's next call
        Files.writeString(mem, Files.readString(mem) + "\n§\n[env] added by Hermes after the kill");
        byte[] hermes = Files.readAllBytes(mem);
        Journal.recover(p, p.memoriesDir().resolve(".steward.lock"));
        assertArrayEquals(hermes, Files.readAllBytes(mem), "Hermes' entry survives the roll-forward");
        assertTrue(Files.exists(p.memoriesDir().resolve("archive/logs/2026-06-01.md")), "the rest is completed");
        assertTrue(Files.isDirectory(p.stateDir().resolve("journal")));
        try (var s = Files.list(p.stateDir().resolve("journal"))) {
            assertEquals(0, s.count(), "the journal is done");
        }
        VersionStore store = new VersionStore(p.stateDir());
        assertEquals(1, store.count("memories/archive/logs/2026-06-01.md"), "the completed change is a version");
    }

    static String diff(Map<String, String> old, Map<String, String> fresh, Map<String, String> now) {
        StringBuilder sb = new StringBuilder();
        for (String k : new TreeSet<>(now.keySet())) {
            if (!now.get(k).equals(old.get(k))) sb.append(" ≠old:").append(k);
            if (!now.get(k).equals(fresh.get(k))) sb.append(" ≠new:").append(k);
        }
        return sb.toString();
    }
}
