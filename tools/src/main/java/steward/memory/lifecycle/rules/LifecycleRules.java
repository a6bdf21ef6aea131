package steward.memory.lifecycle.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import steward.meta.Metadata;

/**
 * The explicit, ordered registries: level rules (supersede, then promotions, then decay) applied until nothing
 * changes, and prune rules in the seed's order (the first that matches names the reason). Metadata is validated
 * when the class loads.
 */
public final class LifecycleRules {
    private LifecycleRules() {}

    public static final List<LifecycleRule> LEVEL = List.of(
            new ContradictionSupersedeRule(),
            new UserConfirmationRule(),
            new SecondMentionRule(),
            new FourthMentionRule(),
            new UnreferencedDecayRule());

    public static final List<LifecycleRule> PRUNE =
            List.of(new PruneTentativeRule(), new PruneStaleRule(), new PruneProcedureRule(), new PruneRedundantRule());

    static {
        Metadata.validated("memory lifecycle rules", all()); // ids unique across both lists
        for (LifecycleRule r : all()) {
            if (!Set.of("promote", "decay", "supersede", "prune")
                    .contains(r.meta().kind())) {
                throw new IllegalStateException(
                        r.id() + ": unknown kind " + r.meta().kind());
            }
        }
    }

    public static List<LifecycleRule> all() {
        List<LifecycleRule> out = new ArrayList<>(LEVEL);
        out.addAll(PRUNE);
        return out;
    }

    /**
     * Applies the level rules until the entry's level stops changing (a supersede ends it). Returns every change
     * in order; the last one's {@code to} is the new level.
     */
    public static List<Change> levels(EntryState e, LifecycleContext ctx) {
        List<Change> out = new ArrayList<>();
        EntryState cur = e;
        boolean decayed = false;
        for (int guard = 0; guard < 8; guard++) {
            Change hit = null;
            for (LifecycleRule r : LEVEL) {
                if (decayed && r instanceof UnreferencedDecayRule) continue;
                Optional<Change> c = r.evaluate(cur, ctx);
                if (c.isPresent()) {
                    hit = c.get();
                    break;
                }
            }
            if (hit == null) break;
            out.add(hit);
            if (hit.action().equals("supersede")) break;
            if (hit.action().equals("demote")) decayed = true;
            cur = cur.withLevel(hit.to(), ctx.today());
        }
        return out;
    }

    /** The first prune rule that matches, if any. */
    public static Optional<Change> prune(EntryState e, LifecycleContext ctx) {
        for (LifecycleRule r : PRUNE) {
            Optional<Change> c = r.evaluate(e, ctx);
            if (c.isPresent()) return c;
        }
        return Optional.empty();
    }
}
