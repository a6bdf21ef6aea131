package steward.memory.lifecycle.rules;

import java.util.Optional;

/** One lifecycle rule: it changes an entry's standing, proposes its removal, or passes. */
public interface LifecycleRule {
    Optional<Change> evaluate(EntryState entry, LifecycleContext ctx);

    default LifecycleMeta meta() {
        LifecycleMeta m = getClass().getAnnotation(LifecycleMeta.class);
        if (m == null) throw new IllegalStateException(getClass().getName() + " lacks @LifecycleMeta");
        return m;
    }

    default String id() {
        return meta().id();
    }

    default Change change(String action, double from, double to, String en, String zh) {
        return new Change(id(), action, from, to, en, zh);
    }
}
