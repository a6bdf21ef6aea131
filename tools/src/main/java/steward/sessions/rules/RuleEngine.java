package steward.sessions.rules;

import steward.sessions.store.SessionRow;

/** Evaluates one session: first matching rule, then preference adjustment (F), then the safety cap (S). */
public final class RuleEngine {
    private RuleEngine() {}

    public static Verdict evaluate(SessionRow s, RuleContext ctx) {
        Verdict v = null;
        for (Rule r : Rules.ORDERED) {
            var m = r.evaluate(s, ctx);
            if (m.isPresent()) {
                v = m.get();
                break;
            }
        }
        if (v == null) throw new IllegalStateException("the fallback rule must match");
        v = PreferenceRule.adjust(s, v, ctx);
        return SafetyGuardRule.cap(s, v);
    }
}
