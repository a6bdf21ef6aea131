package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "HIGH, MEDIUM",
        id = "B",
        summary = "Ended and untitled sessions: delete (HIGH up to 10 messages, MEDIUM above)",
        rationale =
                "An ended session the user never named cannot be found by title; with more than 10 messages its content "
                        + "may still be found by search, so those are only suggested.")
public final class EndedUntitledRule implements Rule {
    public static final int MAX_HIGH_MESSAGES = 10;

    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (s.active() || !s.untitled()) return Optional.empty();
        int n = s.messageCount();
        if (n <= MAX_HIGH_MESSAGES) {
            return Optional.of(verdict(
                    "short",
                    Action.delete,
                    Confidence.HIGH,
                    "ended, untitled, " + n + " messages",
                    "已结束无标题（" + n + " 条消息）"));
        }
        return Optional.of(verdict(
                "long",
                Action.delete,
                Confidence.MEDIUM,
                "ended, untitled, " + n + " messages: suggest deleting",
                "已结束无标题（" + n + " 条消息），建议删除"));
    }
}
