package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "HIGH",
        id = "R",
        summary = "Everything else is kept",
        rationale = "No rule found a reason to act; doing nothing is always safe.")
public final class RetainRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        return Optional.of(verdict(Action.retain, Confidence.HIGH, "nothing to do", "无需操作"));
    }
}
