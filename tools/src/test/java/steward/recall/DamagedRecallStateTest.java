package steward.recall;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;

/**
 * A damaged recall state file (feedback.json, injections.json: cut short by a crash or a full disk, not UTF-8, the
 * wrong shape) never blocks recall and is never written over: recall_search answers and says so in its warnings,
 * recall_inject decides as if the file were empty (without cooldown, hysteresis or log for that call) and says so,
 * recall_feedback refuses in words naming the file. The file is byte-identical afterwards in every case.
 */
class DamagedRecallStateTest {
    @TempDir
    Path tmp;

    static final String MEMORY = String.join(
            "\n§\n",
            "The staging database runs on port 5433 behind pgbouncer",
            "Backups: restic copies to the NAS every night at 02:00 and keeps 7 snapshots",
            "violin lessons on Tuesdays");

    static final String QUESTION = "What port does the staging database use?";
    static final String STAGING = RecallTestHomes.memUri("memory", MEMORY.split("\n§\n")[0]);

    /** Damage of each kind: cut short, not UTF-8, an array where an object belongs, a field of the wrong shape. */
    static Map<String, byte[]> damages(String truncated, String wrongField) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        out.put("truncated", truncated.getBytes(StandardCharsets.UTF_8));
        byte[] notUtf8 = "{\"items\":{\"steward://memory/memory/xx\":{}}}".getBytes(StandardCharsets.UTF_8);
        notUtf8[20] = (byte) 0xC3; // a lead byte followed by an ASCII byte: no UTF-8 decoder accepts it
        notUtf8[21] = (byte) 0x28;
        out.put("not UTF-8", notUtf8);
        out.put("array", "[1,2]".getBytes(StandardCharsets.UTF_8));
        out.put("wrong field", wrongField.getBytes(StandardCharsets.UTF_8));
        return out;
    }

    static Map<String, byte[]> feedbackDamages() {
        return damages("{\"items\":{\"" + STAGING + "\":{\"used\":1,\"ign", "{\"items\":[\"" + STAGING + "\"]}");
    }

    static Map<String, byte[]> injectionDamages() {
        return damages("{\"sessions\":{\"s1\":{\"recent\":[[\"" + STAGING + "\"]", "{\"sessions\":[],\"decisions\":7}");
    }

    RecallService service(String name) throws Exception {
        return new RecallService(RecallTestHomes.engine(
                RecallTestHomes.memoryHome(Files.createDirectories(tmp.resolve(name)), MEMORY, null)));
    }

    static Path recallDir(RecallService s) {
        return RecallEngine.recallDir(s.engine().paths());
    }

    static InjectEngine.Request req(String context, String session) {
        return new InjectEngine.Request(context, null, session, null, "active");
    }

    static void assertWarns(List<String> warnings, Path file) {
        assertTrue(
                warnings.stream().anyMatch(w -> w.startsWith(file + " cannot be read: ")),
                "a warning naming " + file + ": " + warnings);
    }

    static void assertRefused(StewardError e, Path file) {
        String m = e.getMessage();
        assertTrue(m.startsWith("recall_feedback: " + file + " cannot be read: "), m);
        assertTrue(m.endsWith("; fix or remove it"), m);
        assertFalse(m.matches("(?s).*(Exception|steward\\.|`|Cannot invoke).*"), m);
    }

    // ---- feedback.json

    @Test
    void searchAnswersOverADamagedFeedbackFileAndSaysSo() throws Exception {
        int n = 0;
        for (var d : feedbackDamages().entrySet()) {
            RecallService s = service("s" + n++);
            Path fb = Files.createDirectories(recallDir(s)).resolve("feedback.json");
            Files.write(fb, d.getValue());
            RecallService.SearchOutput out =
                    s.search(new RecallService.SearchRequest(QUESTION, 5, null, null, null, null));
            assertEquals(STAGING, out.items().get(0).uri(), d.getKey());
            assertWarns(out.index().warnings(), fb);
            assertArrayEquals(d.getValue(), Files.readAllBytes(fb), d.getKey() + ": left as it is");
            s.engine().close();
        }
    }

    @Test
    void injectDecidesOverADamagedFeedbackFileAsIfItWereEmptyAndSaysSo() throws Exception {
        int n = 0;
        for (var d : feedbackDamages().entrySet()) {
            RecallService s = service("i" + n++);
            Path fb = Files.createDirectories(recallDir(s)).resolve("feedback.json");
            Files.write(fb, d.getValue());
            InjectEngine.Result r = s.inject(req(QUESTION, "s1"));
            assertEquals("inject", r.decision(), d.getKey() + ": " + r.reason());
            assertEquals(STAGING, r.items().get(0).uri());
            assertWarns(r.warnings(), fb);
            assertArrayEquals(d.getValue(), Files.readAllBytes(fb), d.getKey() + ": left as it is");
            // the decision itself is logged (injections.json is whole)
            assertNotNull(s.injectEngine().decision(r.decision_id()));
            s.engine().close();
        }
    }

    @Test
    void feedbackRefusesADamagedFeedbackFileInWordsAndLeavesIt() throws Exception {
        int n = 0;
        for (var d : feedbackDamages().entrySet()) {
            RecallService s = service("f" + n++);
            InjectEngine.Result r = s.inject(req(QUESTION, "s1"));
            Path fb = Files.createDirectories(recallDir(s)).resolve("feedback.json");
            Files.write(fb, d.getValue());
            assertRefused(
                    assertThrows(
                            StewardError.class,
                            () -> s.feedback(r.decision_id(), List.of(STAGING), "used"),
                            d.getKey()),
                    fb);
            assertRefused(
                    assertThrows(StewardError.class, () -> s.feedback(null, List.of(STAGING), "harmful"), d.getKey()),
                    fb);
            assertRefused(assertThrows(StewardError.class, s::resetCalibration, d.getKey()), fb);
            assertArrayEquals(d.getValue(), Files.readAllBytes(fb), d.getKey() + ": left as it is");
            s.engine().close();
        }
    }

    // ---- injections.json

    @Test
    void searchAnswersOverADamagedInjectionLogAndSaysSo() throws Exception {
        int n = 0;
        for (var d : injectionDamages().entrySet()) {
            RecallService s = service("s" + n++);
            Path log = Files.createDirectories(recallDir(s)).resolve("injections.json");
            Files.write(log, d.getValue());
            RecallService.SearchOutput out =
                    s.search(new RecallService.SearchRequest(QUESTION, 5, null, null, null, null));
            assertEquals(STAGING, out.items().get(0).uri(), d.getKey());
            assertWarns(out.index().warnings(), log);
            assertArrayEquals(d.getValue(), Files.readAllBytes(log), d.getKey() + ": left as it is");
            s.engine().close();
        }
    }

    @Test
    void injectDecidesOverADamagedInjectionLogWithoutWritingIt() throws Exception {
        int n = 0;
        for (var d : injectionDamages().entrySet()) {
            RecallService s = service("i" + n++);
            Path log = Files.createDirectories(recallDir(s)).resolve("injections.json");
            Files.write(log, d.getValue());
            // twice in one session: without a readable log there is no cooldown, so the item comes again
            for (int call = 1; call <= 2; call++) {
                InjectEngine.Result r = s.inject(req(QUESTION, "s1"));
                assertEquals("inject", r.decision(), d.getKey() + " call " + call + ": " + r.reason());
                assertEquals(STAGING, r.items().get(0).uri());
                assertFalse(r.hysteresis_open());
                assertWarns(r.warnings(), log);
                assertTrue(
                        r.warnings().stream()
                                .anyMatch(w -> w.startsWith(log + " cannot be read: ") && w.contains("not logged")),
                        r.warnings().toString());
                assertArrayEquals(d.getValue(), Files.readAllBytes(log), d.getKey() + ": left as it is");
            }
            s.engine().close();
        }
    }

    @Test
    void feedbackOnADecisionRefusesADamagedInjectionLogInWordsAndLeavesIt() throws Exception {
        int n = 0;
        for (var d : injectionDamages().entrySet()) {
            RecallService s = service("f" + n++);
            InjectEngine.Result r = s.inject(req(QUESTION, "s1"));
            Path log = recallDir(s).resolve("injections.json");
            Files.write(log, d.getValue());
            assertRefused(
                    assertThrows(
                            StewardError.class,
                            () -> s.feedback(r.decision_id(), List.of(STAGING), "used"),
                            d.getKey()),
                    log);
            assertArrayEquals(d.getValue(), Files.readAllBytes(log), d.getKey() + ": left as it is");
            assertFalse(Files.exists(recallDir(s).resolve("feedback.json")), "nothing recorded");
            s.engine().close();
        }
    }
}
