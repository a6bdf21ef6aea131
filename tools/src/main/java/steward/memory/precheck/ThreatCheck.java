package steward.memory.precheck;

@CheckMeta(
        id = "threat_scan",
        verdict = "reject_threat",
        summary = "no prompt-injection or exfiltration payload",
        rationale =
                "Memory is injected into every system prompt: precheck advises against what Hermes' threat scan refuses (memory_write refuses it too) and what Steward's broader check flags (memory_write stores it with a warning, as Hermes would).")
public final class ThreatCheck implements PrecheckCheck {
    @Override
    public Outcome evaluate(PrecheckInput in) {
        return in.threat() == null ? Outcome.pass("no injection or exfiltration pattern") : Outcome.fail(in.threat());
    }
}
