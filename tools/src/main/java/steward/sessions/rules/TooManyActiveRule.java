package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;
import steward.text.Numbers;

@RuleMeta(
        confidence = "MEDIUM, LOW",
        id = "D",
        summary =
                "Too many active sessions (> N): archived-but-active (MEDIUM) or titled and idle > 3 days (LOW) → mark as ended",
        rationale =
                "Attention is single-threaded: more than N active sessions hide each other; only the user's own (interactive) sessions count, never cron, gateway, API or subagent ones. Idleness is measured by the newest "
                        + "message, not guessed from the title; marking as ended keeps everything and only tidies the active list. "
                        + "A Claude Code project with more than N live sessions is reported for review: Claude Code has no ended mark.")
public final class TooManyActiveRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        int active = ctx.activeCount(s);
        if (!s.active() || ctx.isCurrent(s) || active <= ctx.threshold()) return Optional.empty();
        if (MachineSessions.machine(s))
            return Optional.empty(); // not the user's conversations: rule M ends them once idle
        if (!s.markable()) {
            String n = Numbers.plain(ctx.threshold());
            return Optional.of(verdict(
                    "crowded",
                    Action.review,
                    Confidence.LOW,
                    active + " live sessions in this project (N=" + n
                            + "); Claude Code has no ended mark: exit the ones you no longer use",
                    "此项目有 " + active + " 个活跃会话（N=" + n + "）；Claude Code 没有“已结束”标记：请退出不再使用的会话"));
        }
        if (s.archived()) {
            return Optional.of(verdict(
                    "archived",
                    Action.mark_ended,
                    Confidence.MEDIUM,
                    "archived but still active: mark as ended?",
                    "已归档但仍显示活跃：标记为已结束？"));
        }
        double idle = ctx.now() - s.lastActivity();
        if (!s.untitled() && idle > RuleContext.STALE_SECONDS) {
            long days = (long) Math.floor(idle / 86400.0);
            return Optional.of(verdict(
                    "stale",
                    Action.mark_ended,
                    Confidence.LOW,
                    "last active " + days + " days ago: mark as ended?",
                    "最后活跃 " + days + " 天前：是否标记为已结束？"));
        }
        return Optional.empty();
    }
}
