package steward.learning;

import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture format for decision events, one per line:
 * {@code session | rule | condition | recommended | action | outcome [| keep_reason [| topic]]}; {@code -} = none.
 */
public final class Events {
    private Events() {}

    public static List<DecisionEvent> parse(String block) {
        List<DecisionEvent> out = new ArrayList<>();
        for (String line : block.strip().split("\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) continue;
            String[] f = line.split("\\|");
            for (int i = 0; i < f.length; i++) f[i] = f[i].strip();
            out.add(new DecisionEvent(f[0], "title " + f[0], f[1], dash(f[2]), Level.valueOf(f[3]), f[4], Outcome.valueOf(f[5]),
                    f.length > 6 ? dash(f[6]) : null, f.length > 7 ? dash(f[7]) : null));
        }
        return out;
    }

    private static String dash(String s) {
        return s.equals("-") ? null : s;
    }

    /** Runs all learning rules over one run's events on {@code data}. */
    public static LearningRun learn(PreferenceData data, String block) {
        LearningRun run = new LearningRun("p_test", "2026-08-10", parse(block), data);
        for (LearningRule r : LearningEngine.RULES) r.apply(run);
        return run;
    }
}
