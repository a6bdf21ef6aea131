package steward.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.testing.RealHermes;

/**
 * Defect 10 of issue 12: the memory limits are read from config.yaml as Hermes reads them. Before, a limit of 0 (and
 * "100", 100.7, yes, 0x10, '  200 ') fell back to the defaults: Steward's drift guard then measured USER.md against
 * 1,375 and wrote over a file Hermes refuses to touch. Each value is compared with the real PyYAML and int().
 */
class HermesConfigInteropTest {
    @TempDir
    Path tmp;

    static final List<String> VALUES = List.of(
            "0",
            "-5",
            "'100'",
            "\"100\"",
            "100.7",
            "-3.9",
            "true",
            "yes",
            "off",
            "null",
            "~",
            "",
            "'abc'",
            "1e2",
            "1.5e+2",
            "'  200 '",
            "0x10",
            "017",
            "08",
            "1_000",
            "'1_000'",
            "1:30",
            "0b101",
            "[1, 2]",
            "{a: 1}",
            ".inf",
            ".nan",
            "'+7'",
            "'-0'",
            "99999999999999999999",
            "!!str 250",
            "'１２３'",
            "2200",
            "4000");

    @Test
    void limitsAreReadAsHermesReadsThem() throws Exception {
        RealHermes hermes = RealHermes.require();
        List<String> mismatches = new ArrayList<>();
        int i = 0;
        for (String mv : VALUES) {
            for (String uv : List.of("900", mv)) {
                Path f = tmp.resolve("c" + i++ + ".yaml");
                Files.writeString(f, "memory:\n  memory_char_limit: " + mv + "\n  user_char_limit: " + uv + "\n");
                String[] h =
                        hermes.run("config_limits.py", Map.of(), f.toString()).split(" ");
                HermesConfig c = HermesConfig.load(f);
                String hermesSays = clamp(h[0]) + " " + clamp(h[1]);
                String stewardSays = c.memoryCharLimit() + " " + c.userCharLimit();
                if (!hermesSays.equals(stewardSays))
                    mismatches.add(mv + "/" + uv + ": Hermes " + hermesSays + ", Steward " + stewardSays);
            }
        }
        assertEquals(List.of(), mismatches);
    }

    static String clamp(String python) {
        return String.valueOf(PyInt.clamp(new BigInteger(python)));
    }

    @Test
    void zeroIsZeroWithAWarningAndUnreadableValuesKeepBothDefaults() throws Exception {
        Path f = tmp.resolve("config.yaml");
        Files.writeString(f, "memory:\n  memory_char_limit: 0\n  user_char_limit: '500'\n");
        HermesConfig c = HermesConfig.load(f);
        assertEquals(0, c.memoryCharLimit());
        assertEquals(500, c.userCharLimit());
        assertTrue(
                c.warnings().get(0).contains("memory_char_limit is 0"),
                c.warnings().toString());
        Files.writeString(f, "memory:\n  memory_char_limit: lots\n  user_char_limit: 500\n");
        HermesConfig d = HermesConfig.load(f);
        assertEquals(2200, d.memoryCharLimit());
        assertEquals(1375, d.userCharLimit(), "as in Hermes, the second limit is never read");
    }
}
