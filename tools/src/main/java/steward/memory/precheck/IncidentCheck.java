package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(
        id = "incident_story",
        verdict = "route_archive",
        summary = "not an incident story or one-off troubleshooting",
        rationale =
                "Seed 001 (判据②③): an incident narrative goes to the archive (ops-lessons-archive); memory keeps at most a pointer. "
                        + "A story is a failure told with a time or a cause; a standing rule about incidents passes.")
public final class IncidentCheck implements PrecheckCheck {
    /** Words that only a story of troubleshooting uses. */
    static final Pattern STORY = Pattern.compile(
            "(?i)\\bpost-?mortem\\b|\\broot cause\\b|\\bturned out\\b|\\bwe (?:found|discovered|noticed)\\b"
                    + "|\\bafter (?:hours|days) of\\b|\\bspent (?:\\w+ ){0,2}(?:hours?|days?|minutes?) (?:debugging|digging|chasing|on)\\b|\\bdebugg?ed\\b"
                    + "|\\btroubleshot\\b|根因|复盘[:：]|排查.{0,20}(?:发现|才)|花了.{0,6}才|原因找到了|踩坑经过");
    /** A failure event; a story when told with a past time or a cause. */
    static final Pattern EVENT = Pattern.compile(
            "(?i)\\bincident\\b|\\boutage\\b|\\bwent down\\b|\\bwas down\\b|\\bcrashed\\b|\\bfailed\\b|\\bbroke\\b"
                    + "|\\bran out of\\b|\\bexpired\\b|\\bleaked\\b|\\bdouble-charged\\b|\\bflapped\\b|\\b5\\d\\ds\\b"
                    + "|事故|故障|宕机|挂了|崩溃|失败|过期|泄漏|泄露|抖动|重复扣|变慢");

    @Override
    public Outcome evaluate(PrecheckInput in) {
        String c = in.content();
        boolean story = STORY.matcher(c).find()
                || EVENT.matcher(c).find()
                        && (Cues.PAST_TIME.matcher(c).find()
                                || Cues.CAUSE.matcher(c).find());
        return story
                ? Outcome.fail(
                        "an incident story or one-off troubleshooting: archive it (ops-lessons-archive), keep at most a pointer")
                : Outcome.pass("not an incident narrative");
    }
}
