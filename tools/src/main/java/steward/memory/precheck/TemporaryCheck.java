package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(
        id = "temporary",
        verdict = "route_session_search",
        summary = "not a TODO or a progress note",
        rationale =
                "Seed 001 (不放): temporary TODOs and progress are found later by session_search; they do not belong in memory. "
                        + "A rule about TODOs, or a recurring schedule, is durable and passes.")
public final class TemporaryCheck implements PrecheckCheck {
    /** A leading label ("TODO:", "Next step:", "进度：") or wording that only holds for now. */
    static final Pattern TEMPORARY = Pattern.compile(
            "(?i)^\\s*(?:\\[\\w+\\]\\s*)?(?:todo|wip|next(?: steps?)?|later|follow[- ]up|progress"
                    + "|remaining(?: for [\\w ]{1,20})?|tomorrow|in progress|blocked|still to do|待办|下一步|进度|进行中|明天|本周|还没做完|未完成)\\s*[:：]"
                    + "|\\bin progress\\b|\\bcurrently working on\\b|\\bhalf[- ]done\\b|\\bblocked on\\b|\\bwaiting (?:on|for)\\b|\\bhaven'?t finished\\b"
                    + "|\\bnot finished yet\\b|\\bstill (?:have|need) to\\b|\\bneed to remember to\\b|\\blater today\\b|\\bthis (?:week|afternoon|morning)\\b"
                    + "|\\btomorrow\\b|\\bnext steps?\\b|\\bfollow[- ]up\\b|\\bcontinue on (?:" + Cues.DAYS
                    + ")\\b|\\bbefore (?:" + Cues.DAYS + "|the weekend|eod)\\b"
                    + "|\\bi'?m (?:migrating|working on|moving|writing)\\b"
                    + "|下一步|进行中|正在|做到一半|还没(?:做|写|弄)?完|未完成|明天|本周|这周|今天(?:上午|下午|晚上)|回头|搁置|周[一二三四五六日]继续|之前要|等.{1,16}(?:后|之后)再");

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return TEMPORARY.matcher(in.content()).find()
                ? Outcome.fail("temporary TODO or progress: session_search finds it later")
                : Outcome.pass("not a TODO or progress note");
    }
}
