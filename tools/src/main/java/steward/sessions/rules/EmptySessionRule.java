package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "HIGH, MEDIUM",
        id = "N",
        summary =
                "Empty sessions: no messages, not current, opened more than an hour ago → delete (HIGH; MEDIUM when titled)",
        rationale =
                "A session without a single message holds nothing to lose, yet clients that open a session on every visit (a "
                        + "dashboard) leave hundreds of them in the list. The hour's grace leaves a session that is just being opened alone; "
                        + "the deletion is backed up like any other. A title on an empty session was given by someone (Hermes titles "
                        + "from the first exchange): asked.")
public final class EmptySessionRule implements Rule {
    public static final double GRACE_SECONDS = 3600;

    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (s.place() != null || ctx.isCurrent(s) || s.messageCount() != 0 || s.storedMessageCount() > 0)
            return Optional.empty();
        if (ctx.now() - s.startedAt() < GRACE_SECONDS || ctx.now() - s.lastActivity() < GRACE_SECONDS)
            return Optional.empty();
        String age = MachineSessionRule.idleText(ctx.now() - s.startedAt());
        String zhAge = age.replace(" d", " 天").replace(" h", " 小时");
        if (!s.untitled()) { // Hermes titles a session from its first exchange: an empty one with a title was named
            return Optional.of(verdict(
                    "titled",
                    Action.delete,
                    Confidence.MEDIUM,
                    "no messages, opened " + age + " ago, but titled: asked",
                    "没有任何消息，" + zhAge + "前打开，但有标题：需确认"));
        }
        return Optional.of(verdict(
                "empty",
                Action.delete,
                Confidence.HIGH,
                "no messages, opened " + age + " ago",
                "没有任何消息，" + zhAge + "前打开"));
    }
}
