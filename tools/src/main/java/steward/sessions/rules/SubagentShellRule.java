package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "HIGH",
        id = "A",
        settings = "steward.subagent_keep_days",
        summary = "Subagent shells: ended subagent sessions with ≤ 4 messages, or untitled ones",
        rationale = "A finished subagent with almost no messages, or with no title, cannot be found again by anyone; "
                + "its result already lives in the parent session.")
public final class SubagentShellRule implements Rule {
    public static final int MAX_SHELL_MESSAGES = 4;

    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (!s.subagent() || s.active()) return Optional.empty();
        int n = s.messageCount();
        if (n <= MAX_SHELL_MESSAGES) {
            return Optional.of(verdict(
                    "shell",
                    Action.delete,
                    Confidence.HIGH,
                    "finished subagent shell (" + n + " messages)",
                    "已结束的子代理空壳（" + n + " 条消息）"));
        }
        if (s.untitled()) {
            return Optional.of(verdict(
                    "untitled_long",
                    Action.delete,
                    Confidence.HIGH,
                    "finished untitled subagent (" + n + " messages)",
                    "已结束的无标题子代理（" + n + " 条消息）"));
        }
        return Optional.empty();
    }
}
