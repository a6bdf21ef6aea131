package steward.sessions.rules;

import java.util.Set;
import steward.sessions.store.SessionRow;

/** Evaluates one session: first matching rule, then preference adjustment (F), then the safety cap (S). */
public final class RuleEngine {
    private RuleEngine() {}

    /** Rules about subagents (A, C, K) and machine sessions (M, T): their conditions pin the Hermes source already. */
    private static final Set<String> SOURCE_PINNED = Set.of("A", "C", "K", "M", "T");

    private static final Set<String> UNSCOPED = Set.of("E", "F", "S", "H", "R");

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
        // what the user teaches about a condition holds where they taught it: per store and Hermes source family
        // (RuleKey). Not for E (it learns topics, across sessions) nor F, S, H, R (they learn nothing); the subagent
        // and
        // machine rules' conditions (A/shell, M/cron, T/cron) pin the Hermes source already: keyed by store only
        if (v.condition() != null && !UNSCOPED.contains(v.rule())) {
            boolean pinned = SOURCE_PINNED.contains(v.rule()) && SessionRow.HERMES.equals(s.store());
            v = v.scoped(pinned ? null : MachineSessions.family(s));
        }
        v = PreferenceRule.adjust(s, v, ctx);
        v = PreferenceRule.noteChangedRequest(s, v, ctx);
        return SafetyGuardRule.cap(s, v, ctx);
    }
}
