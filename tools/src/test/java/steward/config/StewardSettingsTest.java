package steward.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StewardSettingsTest {
    @TempDir
    Path tmp;

    StewardSettings load(String yaml) throws Exception {
        Path f = tmp.resolve("config.yaml");
        Files.writeString(f, yaml);
        return StewardSettings.load(f);
    }

    @Test
    void keepDaysIsReadFromTheStewardSection() throws Exception {
        assertEquals(StewardSettings.defaults(), StewardSettings.load(tmp.resolve("missing.yaml")));
        assertEquals(StewardSettings.defaults(), load("memory:\n  memory_char_limit: 100\n"));
        assertEquals(
                new StewardSettings(7, Origin.CONFIG_FILE, List.of()), load("steward:\n  subagent_keep_days: 7\n"));
        assertEquals(0.5, load("steward:\n  subagent_keep_days: 0.5\n").subagentKeepDays());
        for (String bad : new String[] {"-1", "400", ".nan", "\"three\"", "[3]"}) {
            StewardSettings s = load("steward:\n  subagent_keep_days: " + bad + "\n");
            assertEquals(3.0, s.subagentKeepDays(), bad);
            assertEquals(1, s.warnings().size(), bad);
        }
        assertEquals(1, load("steward: [1, 2]\n").warnings().size());
        assertEquals(1, load("steward: {subagent_keep_days: [\n").warnings().size(), "malformed YAML");
    }
}
