package steward.memory.lifecycle.rules;

import java.util.Optional;

@LifecycleMeta(
        id = "R3",
        kind = "prune",
        summary = "over the size target: propose procedures (they belong in a skill)",
        rationale =
                "Seed 002 pruning order ③: steps and pitfalls move to a skill's pitfalls section; memory keeps declarative facts.")
public final class PruneProcedureRule implements LifecycleRule {
    @Override
    public Optional<Change> evaluate(EntryState e, LifecycleContext ctx) {
        if (!ctx.overTarget() || e.touched() || !e.procedure()) return Optional.empty();
        return Optional.of(change("prune", e.level(), e.level(), "a procedure: move it to a skill", "操作步骤：应归入 Skill"));
    }
}
