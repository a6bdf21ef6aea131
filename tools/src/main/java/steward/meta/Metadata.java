package steward.meta;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import steward.memory.lifecycle.rules.LifecycleMeta;
import steward.memory.precheck.CheckMeta;
import steward.sessions.rules.RuleMeta;

/**
 * The one metadata form of every rule-like registry (session rules, learning rules, recall gates, precheck checks,
 * memory lifecycle rules) and the one validator each registry runs when it is built: every entry carries its annotation
 * ({@link RuleMeta}; {@link CheckMeta} for the precheck checks, which add the verdict they call for; {@link LifecycleMeta}
 * for the lifecycle rules, which add their kind), with a non-blank id, summary and
 * rationale, ids unique within the registry, and a confidence (where one is given) made of HIGH, MEDIUM and LOW.
 */
public final class Metadata {
    private Metadata() {}

    /** What one entry says about itself. {@code confidence}: "" where it does not apply. */
    public record Entry(String id, String summary, String rationale, String confidence) {}

    /** The metadata on a class, or {@code null} when it has none. */
    public static Entry of(Class<?> type) {
        RuleMeta r = type.getAnnotation(RuleMeta.class);
        if (r != null) return new Entry(r.id(), r.summary(), r.rationale(), r.confidence());
        CheckMeta c = type.getAnnotation(CheckMeta.class);
        if (c != null) return new Entry(c.id(), c.summary(), c.rationale(), "");
        LifecycleMeta l = type.getAnnotation(LifecycleMeta.class);
        if (l != null) return new Entry(l.id(), l.summary(), l.rationale(), "");
        return null;
    }

    /**
     * Returns {@code entries} unchanged when every one describes itself, else refuses the registry with an
     * {@link IllegalStateException} that names it and every fault found: missing metadata, a blank id, summary or
     * rationale, a duplicate id, a confidence that is not HIGH, MEDIUM or LOW.
     */
    public static <T> List<T> validated(String registry, List<T> entries) {
        List<String> faults = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (T t : entries) {
            String cls = t.getClass().getSimpleName();
            Entry e = of(t.getClass());
            if (e == null) {
                faults.add(cls + " has no @RuleMeta, @CheckMeta or @LifecycleMeta");
                continue;
            }
            if (e.id().isBlank()) faults.add(cls + ": empty id");
            else if (!ids.add(e.id())) faults.add(cls + ": duplicate id " + e.id());
            if (e.summary().isBlank()) faults.add(cls + ": empty summary");
            if (e.rationale().isBlank()) faults.add(cls + ": empty rationale");
            for (String c : confidences(e.confidence())) {
                if (!Set.of("HIGH", "MEDIUM", "LOW").contains(c))
                    faults.add(cls + ": confidence " + c + " is not HIGH, MEDIUM or LOW");
            }
        }
        if (!faults.isEmpty()) throw new IllegalStateException(registry + ": " + String.join("; ", faults));
        return List.copyOf(entries);
    }

    /** The levels of a confidence text such as "HIGH, MEDIUM" (none for ""). */
    public static List<String> confidences(String confidence) {
        List<String> out = new ArrayList<>();
        for (String c : confidence.split(",")) if (!c.isBlank()) out.add(c.strip());
        return out;
    }
}
