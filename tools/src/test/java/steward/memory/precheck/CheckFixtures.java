package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

/** Text-block rows {@code status | content} for the content-only checks; {@code #} starts a comment line. */
final class CheckFixtures {
    private CheckFixtures() {}

    record Row(String status, String content) {}

    static List<Row> rows(String block) {
        List<Row> out = new ArrayList<>();
        for (String l : block.strip().split("\n")) {
            if (l.isBlank() || l.strip().startsWith("#")) continue;
            int bar = l.indexOf('|');
            out.add(new Row(
                    l.substring(0, bar).strip(), l.substring(bar + 1).strip().replace("\\n", "\n")));
        }
        return out;
    }

    static void check(PrecheckCheck c, String block) {
        for (Row r : rows(block))
            assertEquals(r.status(), c.evaluate(PrecheckInput.of(r.content())).status(), r.content());
    }

    static PrecheckInput with(String content, String source, String where, double coverage, boolean exact) {
        return new PrecheckInput(
                content, "memory", source, where, coverage, exact, null, 100, 2200, true, "high", "severe");
    }
}
