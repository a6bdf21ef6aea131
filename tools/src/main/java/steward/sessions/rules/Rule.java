package steward.sessions.rules;

import java.util.Optional;
import steward.learning.RuleKey;
import steward.sessions.store.SessionRow;

/** One housekeeping rule: it either decides about a session or passes it on to the next rule. */
public interface Rule {
    Optional<Verdict> evaluate(SessionRow session, RuleContext context);

    /** Declarative metadata, read once per rule class. */
    final class Meta {
        private Meta() {}

        record Info(RuleMeta meta, String id) {}

        static final ClassValue<Info> CACHE = new ClassValue<>() {
            @Override
            protected Info computeValue(Class<?> type) {
                RuleMeta m = type.getAnnotation(RuleMeta.class);
                if (m == null) throw new IllegalStateException(type.getName() + " lacks @RuleMeta");
                return new Info(m, m.id());
            }
        };
    }

    default RuleMeta meta() {
        return Meta.CACHE.get(getClass()).meta();
    }

    default String id() {
        return Meta.CACHE.get(getClass()).id();
    }

    default Verdict verdict(Action action, Confidence confidence, String en, String zh) {
        return new Verdict(id(), action, confidence, new Text(en, zh));
    }

    /** A verdict for one named condition of this rule (what the learning loop learns about), e.g. {@code B/long}. */
    default Verdict verdict(String condition, Action action, Confidence confidence, String en, String zh) {
        return new Verdict(id(), RuleKey.of(id(), condition), action, confidence, new Text(en, zh), null);
    }
}
