package steward.sessions.rules;

import java.util.Optional;
import steward.config.HousekeepingSettings;
import steward.sessions.audit.Times;
import steward.sessions.store.SessionRow;
import steward.text.Numbers;

@RuleMeta(
        confidence = "LOW",
        id = "H",
        summary =
                "Hermes prunes it itself: with sessions.auto_prune on, an ended session started more than retention_days "
                        + "(90) ago is reported with when Hermes deletes it; Steward proposes nothing about it",
        rationale =
                "Hermes' own maintenance (sessions.auto_prune in config.yaml, at most every min_interval_hours, at the start of the "
                        + "CLI, gateway or cron scheduler) deletes every ended session that started more than retention_days ago, whatever "
                        + "Steward says: proposing to delete it again would ask twice, and keeping it would promise what Hermes will not do.")
public final class HermesPruneRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        Double due = dueAt(s, ctx);
        if (due == null || due > ctx.now()) return Optional.empty();
        var hk = ctx.housekeeping();
        Double last = ctx.lastAutoPrune();
        double next = last == null ? ctx.now() : last + hk.pruneIntervalHours() * 3600.0;
        String days = Numbers.plain(hk.pruneRetentionDays());
        String en = "Hermes' auto_prune deletes it (ended, started more than " + days + " days ago) "
                + (next <= ctx.now()
                        ? "at Hermes' next start"
                        : "at the first Hermes start after " + Times.minute(next) + " UTC")
                + ": nothing for Steward to do";
        String zh = "Hermes 的 auto_prune 会删除它（已结束，开始于 " + days + " 天前）"
                + (next <= ctx.now() ? "，在 Hermes 下次启动时" : "，在 " + Times.minute(next) + "（UTC）之后 Hermes 首次启动时")
                + "：Steward 不做处理";
        return Optional.of(verdict("due", Action.review, Confidence.LOW, en, zh));
    }

    /**
     * When Hermes' auto-prune makes this session eligible (its {@code started_at} plus retention_days), or null when it
     * never will as things are: auto_prune off, the session still active, or not a Hermes session.
     */
    public static Double dueAt(SessionRow s, RuleContext ctx) {
        return dueAt(s, ctx.housekeeping());
    }

    /** {@link #dueAt(SessionRow, RuleContext)} with the settings given (a restore has no rule context). */
    public static Double dueAt(SessionRow s, HousekeepingSettings hk) {
        if (!hk.autoPrune() || s.place() != null || s.active()) return null;
        return s.startedAt() + hk.pruneRetentionDays() * 86400.0;
    }
}
