package steward.sessions.rules;

import java.util.Optional;

import steward.sessions.store.SessionRow;

@RuleMeta(id = "F", summary = "User preference overrides: what the user decided before about this session or rule",
        rationale = "The user's explicit earlier choice is better evidence than any heuristic: a session kept before stays kept, "
                + "a session the user asked to delete is certain, and a rule the user vetoed or contradicted asks before acting.")
public final class PreferenceRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        return switch (ctx.preferences().sessionChoice(s.id())) {
            case RETAINED -> Optional.of(verdict(Action.retain, Confidence.HIGH, "you kept it last time", "上次你选择保留"));
            case DELETED -> Optional.of(verdict(Action.delete, Confidence.HIGH, "you asked to delete it last time", "上次你要求删除"));
            case NONE -> Optional.empty();
        };
    }

    /** Lowers the confidence of a later rule's verdict that the user vetoed or contradicted before. */
    public static Verdict adjust(Verdict v, RuleContext ctx) {
        if (v.action() == Action.retain || v.rule().equals("F") || v.rule().equals("S")) return v;
        return switch (ctx.preferences().ruleStanding(v.rule())) {
            case VETOED -> v.withConfidence(v.confidence().lower(), new Text(v.reason().en() + " (you vetoed this rule before)",
                    v.reason().zh() + "（上次否决过同类）"));
            case CONTRADICTORY -> v.withConfidence(Confidence.LOW, new Text(v.reason().en() + " (your earlier choices on this rule disagree)",
                    v.reason().zh() + "（你对此规则的选择曾前后矛盾）"));
            case TRUSTED -> v;
        };
    }
}
