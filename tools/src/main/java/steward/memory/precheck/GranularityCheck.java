package steward.memory.precheck;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import steward.text.CodePoints;

@CheckMeta(
        id = "granularity",
        verdict = "split",
        summary = "one unit, at most 200 characters (Chinese counted double)",
        rationale =
                "Seed 001 step 6 (粒度检查): one entry per decision moment; > 200 characters asks whether to split or route part of it. "
                        + "A dot inside a version, an IP, a file name or \"e.g.\" ends no sentence.")
public final class GranularityCheck implements PrecheckCheck {
    public static final int SPLIT_CHARS = 200;
    public static final int MAX_UNITS = 3;
    /** A sentence ends at . ! ? followed by a space or the end (not inside 3.12, conf.d, e.g.), at 。！？；; and at a newline. */
    static final Pattern SENTENCE =
            Pattern.compile("(?<![\\s(](?:e\\.g|i\\.e|etc|vs))(?<=[.!?])(?=\\s|$)\\s*|(?<=[。！？；;])\\s*|\\n+");

    public static List<String> units(String c) {
        List<String> out = new ArrayList<>();
        for (String s : SENTENCE.split(c)) {
            String x = CodePoints.pyStrip(s.replaceFirst("^\\s*[-*•]\\s*", ""));
            if (CodePoints.length(x) >= 4) out.add(x);
        }
        return out;
    }

    @Override
    public Outcome evaluate(PrecheckInput in) {
        int len = Cues.weightedLength(in.content());
        List<String> units = units(in.content());
        if (len > SPLIT_CHARS)
            return Outcome.fail(len + " characters, Chinese counted double (> " + SPLIT_CHARS
                    + "): split it, or route part of it elsewhere");
        if (units.size() >= MAX_UNITS)
            return Outcome.fail(units.size() + " independent units: one entry per decision moment");
        return Outcome.pass(len + " characters, " + units.size() + " unit(s)");
    }
}
