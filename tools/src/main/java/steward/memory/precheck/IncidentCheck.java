package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(id = "incident_story", verdict = "route_archive", summary = "not an incident story or one-off troubleshooting",
        rationale = "Seed 001 (判据②③): an incident narrative goes to the archive (ops-lessons-archive); memory keeps at most a pointer.")
public final class IncidentCheck implements PrecheckCheck {
    static final Pattern INCIDENT = Pattern.compile("(?i)\\bincident\\b|\\boutage\\b|\\bpost-?mortem\\b|\\broot cause\\b|\\bturned out\\b"
            + "|\\bwe (?:found|discovered|noticed)\\b|\\bdebugg?ed\\b|\\btroubleshoot|\\bcrashed\\b|\\bafter hours of\\b"
            + "|事故|故障|排障|排查|复盘|根因|踩坑经过|花了.{0,6}才");

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return INCIDENT.matcher(in.content()).find()
                ? Outcome.fail("an incident story or one-off troubleshooting: archive it (ops-lessons-archive), keep at most a pointer")
                : Outcome.pass("not an incident narrative");
    }
}
