package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;
import steward.text.Numbers;

@RuleMeta(
        confidence = "HIGH",
        id = "M",
        settings = "steward.machine_idle_hours",
        summary =
                "Machine sessions that never ended: an active cron, gateway (chat platform), API or subagent session idle longer "
                        + "than its kind's idle time → mark as ended (HIGH)",
        rationale =
                "Cron runs, chat-platform threads, API requests and subagent runs are not conversations anyone resumes once idle: "
                        + "Hermes opens a new session for the next run, message or request, and the old one stays active for ever. Marking it "
                        + "as ended keeps every message and is undone by session_restore; rule D never counts these sessions. Idle hours per kind: "
                        + "steward.machine_idle_hours (cron 2, subagent 24, gateway 48 or twice Hermes' session_reset idle, off when it never "
                        + "resets, api 24; 0 = off). Unknown sources are treated as interactive.")
public final class MachineSessionRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (!s.active() || ctx.isCurrent(s) || !s.markable()) return Optional.empty();
        String kind = MachineSessions.kind(s);
        if (kind == null) return Optional.empty();
        double hours = ctx.housekeeping().idleHours(kind);
        double idle = ctx.now() - s.lastActivity();
        if (hours <= 0 || idle < hours * 3600.0) return Optional.empty();
        String h = idleText(idle);
        return Optional.of(verdict(
                kind,
                Action.mark_ended,
                Confidence.HIGH,
                s.source() + " session idle for " + h + " (over " + Numbers.plain(hours)
                        + " h) that Hermes never ended: mark as ended",
                s.source() + " 会话已空闲 " + h + "（超过 " + Numbers.plain(hours) + " 小时），Hermes 从未结束它：标记为已结束"));
    }

    static String idleText(double seconds) {
        return seconds >= 2 * 86400 ? (long) (seconds / 86400) + " d" : (long) (seconds / 3600) + " h";
    }
}
