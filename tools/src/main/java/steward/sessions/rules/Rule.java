package steward.sessions.rules;

import java.util.Optional;

import steward.sessions.store.SessionRow;

/** One housekeeping rule: it either decides about a session or passes it on to the next rule. */
public interface Rule {
    Optional<Verdict> evaluate(SessionRow session, RuleContext context);

    default RuleMeta meta() {
        RuleMeta m = getClass().getAnnotation(RuleMeta.class);
        if (m == null) throw new IllegalStateException(getClass().getName() + " lacks @RuleMeta");
        return m;
    }

    default String id() {
        return meta().id();
    }

    default Verdict verdict(Action action, Confidence confidence, String en, String zh) {
        return new Verdict(id(), action, confidence, new Text(en, zh));
    }
}
