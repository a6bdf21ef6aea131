package steward.memory.lifecycle.rules;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;

/** Entry states from text-block rows, for the lifecycle rule tests; the run's date is {@link #TODAY}. */
final class LifecycleFixtures {
    static final LocalDate TODAY = LocalDate.parse("2026-08-10");

    private LifecycleFixtures() {}

    /**
     * Rows: {@code id | level | mentions | confirmed | last_activity | level_changed | touched | superseded_by | procedure | redundant};
     * {@code -} for none, dates as days before {@link #TODAY} ({@code 31d}).
     */
    static Map<String, EntryState> rows(String block) {
        Map<String, EntryState> out = new LinkedHashMap<>();
        for (String line : block.strip().split("\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) continue;
            String[] c = line.split("\\|");
            for (int i = 0; i < c.length; i++) c[i] = c[i].strip();
            out.put(
                    c[0],
                    new EntryState(
                            c[0],
                            Double.parseDouble(c[1]),
                            Integer.parseInt(c[2]),
                            c[3].equals("yes"),
                            day(c[4]),
                            day(c[5]),
                            c[6].equals("yes"),
                            none(c[7]),
                            c[8].equals("yes"),
                            none(c[9])));
        }
        return out;
    }

    static LocalDate day(String s) {
        if (s.equals("-")) return null;
        return TODAY.minusDays(Integer.parseInt(s.replace("d", "")));
    }

    static String none(String s) {
        return s.equals("-") ? null : s;
    }

    static LifecycleContext ctx(int chars, int target) {
        return new LifecycleContext(TODAY, chars, target);
    }

    static LifecycleContext ctx() {
        return ctx(1000, 4000);
    }
}
