package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "MEDIUM, LOW",
        id = "C",
        summary = "Active subagents: untitled → name or delete (MEDIUM); titled → review (LOW)",
        rationale =
                "An active subagent usually outlived its parent's task, but Steward cannot tell whether the parent still uses it.")
public final class ActiveSubagentRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (!s.subagent() || !s.active()) return Optional.empty();
        if (s.untitled()) {
            return Optional.of(verdict(
                    "untitled",
                    Action.name_or_delete,
                    Confidence.MEDIUM,
                    "active untitled subagent: delete or name it?",
                    "活跃的无名子代理：删除还是命名？"));
        }
        return Optional.of(verdict("titled", Action.review, Confidence.LOW, "active titled subagent", "活跃的有标题子代理"));
    }
}
