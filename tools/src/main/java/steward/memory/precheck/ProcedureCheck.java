package steward.memory.precheck;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

@CheckMeta(id = "procedure", verdict = "route_skill", summary = "not a procedure (steps, commands, code)",
        rationale = "Seed 001 (分流): build steps and command sequences belong in a skill (no size limit); memory keeps a one-line trigger.")
public final class ProcedureCheck implements PrecheckCheck {
    static final Pattern NUMBERED = Pattern.compile("(?im)^\\s*(?:\\d+[.)、]|step\\s*\\d+|第[一二三四五六七八九十\\d]+步)");
    static final Pattern PROCEDURE = Pattern.compile("(?i)```|(?m:^\\s*\\$\\s+\\S)|\\S+\\s*&&\\s*\\S+|\\bsteps?:|\\bhow to\\b|步骤[:：]|操作流程|执行以下");

    /** Whether {@code c} reads as a procedure. */
    public static boolean matches(String c) {
        return count(NUMBERED.matcher(c)) >= 2 || PROCEDURE.matcher(c).find();
    }

    static int count(Matcher m) {
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return matches(in.content()) ? Outcome.fail("a procedure (commands, code or numbered steps) belongs in a skill") : Outcome.pass("not a procedure");
    }
}
