package steward.memory.precheck;

import steward.memory.MemoryRules;

@CheckMeta(
        id = "tag",
        verdict = "",
        summary = "a MEMORY.md entry starts with [base], [env], [ops] or [rule] (after its confidence prefix)",
        rationale =
                "Seed 001 (条目标签体系): the four fixed tags group entries for attention; a missing tag is a warning, never a refusal.")
public final class TagCheck implements PrecheckCheck {
    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (!"memory".equals(in.target())) return new Outcome("skip", "USER.md entries carry no tag");
        return MemoryRules.hasTag(in.content())
                ? Outcome.pass("starts with a tag")
                : Outcome.warn(MemoryRules.tagWarning());
    }
}
