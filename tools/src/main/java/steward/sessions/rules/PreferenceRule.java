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

    /**
     * Applies what was learned about the verdict's rule condition: promoted or demoted level, or the
     * LOW lock after contradictory choices. The safety cap (rule S) is applied after this, always.
     */
    public static Verdict adjust(Verdict v, RuleContext ctx) {
        if (v.action() == Action.retain || v.rule().equals("F") || v.rule().equals("S")) return v;
        Preferences.Learned l = ctx.preferences().learned(v.condition());
        if (l == null) return v;
        Text why = l.note() == null ? null : new Text(v.reason().en() + " (" + l.note().en() + ")", v.reason().zh() + "（" + l.note().zh() + "）");
        if (l.locked()) return v.withConfidence(Confidence.LOW, why);
        if (l.level() != null && l.level() != v.confidence()) return v.withConfidence(l.level(), why);
        return v;
    }
}
