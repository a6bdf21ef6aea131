package steward.memory.precheck;

@CheckMeta(
        id = "threat_scan",
        verdict = "reject_threat",
        summary = "no prompt-injection or exfiltration payload",
        rationale =
                "Memory is injected into every system prompt: memory_write refuses what its threat scan catches, so precheck does too.")
public final class ThreatCheck implements PrecheckCheck {
    @Override
    public Outcome evaluate(PrecheckInput in) {
        return in.threat() == null ? Outcome.pass("no injection or exfiltration pattern") : Outcome.fail(in.threat());
    }
}
