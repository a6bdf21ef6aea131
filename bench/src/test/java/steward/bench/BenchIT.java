package steward.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.testing.TestHomes;
import tools.jackson.databind.JsonNode;

/**
 * The benchmarks still run end to end on small inputs, from any working directory, and print figures that are right:
 * counts that match their input and figures that agree with each other (their speed is read by people, never
 * asserted: these machines are shared and noisy).
 */
class BenchIT {
    @TempDir
    Path tmp;

    private String bench(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bench"));
        cmd.addAll(List.of(args));
        Path err = tmp.resolve("err.txt");
        Process p = new ProcessBuilder(DevProcess.command(cmd.toArray(String[]::new)))
                .directory(tmp.toFile()) // not the repository: any directory works
                .redirectError(err.toFile())
                .start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "bench " + cmd + " did not finish");
        assertEquals(0, p.exitValue(), out + "\n" + Files.readString(err));
        return out;
    }

    static Matcher find(String regex, String out) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(out);
        assertTrue(m.find(), "no line matching " + regex + " in:\n" + out);
        return m;
    }

    static double num(String s) {
        return Double.parseDouble(s.replace(",", ""));
    }

    /** The figures are the ones asked for and agree with each other: the ratio is (a)/(b) of the medians it prints. */
    @Test
    void auditOnASmallDatabase() throws Exception {
        String out = bench(
                "audit",
                "--sessions",
                "300",
                "--messages",
                "3000",
                "-n",
                "1",
                "--dir",
                tmp.resolve("audit").toString());
        Matcher db = find(
                "^database: ([\\d,]+) sessions \\((\\d+) active\\), ([\\d,]+) messages; seed listing returned ([\\d,]+) rows",
                out);
        assertEquals(300, num(db.group(1)));
        assertEquals(3000, num(db.group(3)));
        assertEquals(300, num(db.group(4)), "the baseline query read every session");
        assertTrue(num(db.group(2)) > 0 && num(db.group(2)) < 300);
        double b = num(find("^\\(b\\) seed listing query \\(baseline\\)\\s+([\\d.]+)", out)
                .group(1));
        assertTrue(b > 0, out);
        for (String variant : List.of(
                "(a) session_audit, nothing changed",
                "(c) session_audit after Hermes wrote",
                "(d) session_audit listing every")) {
            Matcher m = find(
                    "^" + Pattern.quote(variant) + "[^\\d]*\\s([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)$", out);
            double a = num(m.group(1)), ratio = num(m.group(4));
            assertTrue(a > 0 && num(m.group(2)) <= a && a <= num(m.group(3)), m.group());
            // medians are printed to 0.1 ms, the ratio from the unrounded ones
            assertTrue(
                    ratio >= (a - 0.05) / (b + 0.05) - 0.001 && ratio <= (a + 0.05) / Math.max(0.001, b - 0.05) + 0.001,
                    a + "/" + b + " vs " + ratio);
        }
        // between two audits Hermes wrote one message into one session: only that session was read again
        assertTrue(
                find("^\\(c\\) listing: UPDATED (\\d+) session", out).group(1).equals("1"), out);
    }

    /**
     * On a two-conversation LoCoMo-format file: as many questions per category as the file holds, recall in [0, 1] and
     * growing with k, overall = the question-weighted mean of the categories, gate rates = the counts they print.
     */
    @Test
    void locomoOnAnotherLocomoFormatFile() throws Exception {
        Path data = TestHomes.repo().resolve("bench/src/test/resources/locomo-mini.json");
        Map<Integer, Integer> perCategory = new TreeMap<>();
        for (JsonNode conv : Json.MAPPER.readTree(Files.readString(data))) {
            for (JsonNode q : conv.get("qa"))
                if (q.get("category").asInt() <= 4)
                    perCategory.merge(q.get("category").asInt(), 1, Integer::sum);
        }
        int answerable =
                perCategory.values().stream().mapToInt(Integer::intValue).sum();
        String out = bench("locomo", "--data", data.toString(), "--names", "with");
        for (String system : List.of("steward", "bm25-only")) {
            double[] weighted = new double[4];
            for (int cat = 1; cat <= 4; cat++) {
                Matcher m = find(
                        "^" + Pattern.quote(system) + "\\s+" + cat
                                + " [a-z-]+\\s+(\\d+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)$",
                        out);
                int n = Integer.parseInt(m.group(1));
                assertEquals(perCategory.getOrDefault(cat, 0), n, system + " category " + cat);
                if (n == 0) continue;
                double prev = 0;
                for (int k = 0; k < 4; k++) {
                    double r = num(m.group(k + 2));
                    assertTrue(
                            r >= prev && r <= 1,
                            system + " category " + cat + ": recall grows with k within [0, 1]: " + m.group());
                    prev = r;
                    weighted[k] += n * r;
                }
            }
            Matcher overall = find(
                    "^" + Pattern.quote(system) + "\\s+overall\\s+(\\d+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)$",
                    out);
            assertEquals(answerable, Integer.parseInt(overall.group(1)));
            for (int k = 0; k < 4; k++) {
                assertEquals(
                        weighted[k] / answerable,
                        num(overall.group(k + 2)),
                        0.0011,
                        system + " overall is the mean over questions: " + overall.group());
            }
        }
        Matcher inject = find("inject on answerable:\\s+(\\d+)/(\\d+)\\s+=\\s+([\\d.]+) %", out);
        assertEquals(answerable, Integer.parseInt(inject.group(2)));
        assertEquals(100.0 * Integer.parseInt(inject.group(1)) / answerable, num(inject.group(3)), 0.05);
        Matcher other = find("inject on another conversation's questions:\\s+(\\d+)/(\\d+)\\s+=\\s+([\\d.]+) %", out);
        assertTrue(Integer.parseInt(other.group(2)) > 0);
        assertEquals(
                100.0 * Integer.parseInt(other.group(1)) / Integer.parseInt(other.group(2)), num(other.group(3)), 0.05);
    }

    @Test
    void consolidateOnASmallRoot() throws Exception {
        String out = bench("consolidate", "--days", "35", "--lines", "5", "--entries", "20", "--runs", "1");
        assertTrue(out.contains("plan (") && out.contains("apply ("), out);
        assertTrue(out.contains("archived 4 logs"), "logs older than 30 days move to archive/: " + out);
    }
}
