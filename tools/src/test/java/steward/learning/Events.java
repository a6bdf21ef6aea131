package steward.learning;

import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture format for decision events, one per line:
 * {@code session | rule | condition | recommended | action | outcome [| keep_reason [| topic [| question]]]}; {@code -} = none.
 */
public final class Events {
    private Events() {}

    public static List<DecisionEvent> parse(String block) {
        List<DecisionEvent> out = new ArrayList<>();
        for (String line : block.strip().split("\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) continue;
            String[] f = line.split("\\|");
            for (int i = 0; i < f.length; i++) f[i] = f[i].strip();
            Outcome o = Outcome.valueOf(f[5]);
            Level level = Level.valueOf(f[3]);
            // every test event was asked as a new question, except what ran automatically or was restored
            String question =
                    f.length > 8 ? dash(f[8]) : o == Outcome.RAN_AUTOMATICALLY || o == Outcome.RESTORED ? null : "new";
            out.add(new DecisionEvent(
                    f[0],
                    "title " + f[0],
                    f[1],
                    dash(f[2]),
                    level,
                    f[4],
                    o,
                    f.length > 6 ? dash(f[6]) : null,
                    f.length > 7 ? dash(f[7]) : null,
                    level,
                    question,
                    false,
                    false,
                    o == Outcome.APPROVED || o == Outcome.RAN_AUTOMATICALLY,
                    null,
                    null));
        }
        return out;
    }

    private static String dash(String s) {
        return s.equals("-") ? null : s;
    }

    /** Runs all learning rules over one run's events on {@code data}; {@code run.changes} then holds every change, level changes first. */
    public static LearningRun learn(PreferenceData data, String block) {
        var before = LearningEngine.levels(data);
        LearningRun run = new LearningRun("p_test", "2026-08-10", parse(block), data);
        for (LearningRule r : LearningEngine.RULES) r.apply(run);
        run.changes.addAll(0, LearningEngine.levelChanges(run, before, LearningEngine.levels(data)));
        return run;
    }

    /** The details of a run's changes, joined. */
    public static String changes(LearningRun run) {
        return String.join(
                " | ", run.changes.stream().map(LearningRun.Change::detail).toList());
    }
}
