package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(id = "temporary", verdict = "route_session_search", summary = "not a TODO or a progress note",
        rationale = "Seed 001 (不放): temporary TODOs and progress are found later by session_search; they do not belong in memory.")
public final class TemporaryCheck implements PrecheckCheck {
    static final Pattern TEMPORARY = Pattern.compile("(?i)\\btodo\\b|\\bwip\\b|\\bin progress\\b|\\bnext steps?\\b|\\bfollow[- ]up\\b|\\bremaining\\b"
            + "|\\bblocked on\\b|\\btomorrow\\b|\\bthis week\\b|\\bcurrently working on\\b|\\bhalf[- ]done\\b"
            + "|待办|进度|下一步|进行中|明天|本周|还没做完|未完成|做到一半");

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return TEMPORARY.matcher(in.content()).find() ? Outcome.fail("temporary TODO or progress: session_search finds it later")
                : Outcome.pass("not a TODO or progress note");
    }
}
