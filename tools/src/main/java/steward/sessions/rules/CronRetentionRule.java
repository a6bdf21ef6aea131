package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.audit.Times;
import steward.sessions.store.SessionRow;
import steward.text.Numbers;

@RuleMeta(
        confidence = "MEDIUM",
        id = "T",
        settings = "steward.cron_retention_days",
        summary =
                "Cron retention: an ended cron session older than steward.cron_retention_days (14) → delete with backup "
                        + "(MEDIUM until learned)",
        rationale =
                "A scheduled job's run is read once if at all, its result is delivered elsewhere, and a user with a hundred jobs "
                        + "gets thousands of them a week. The deletion is backed up (session_restore), asked until the user approved it "
                        + "twice (the learning loop then runs it automatically); 0 days turns it off. Untitled ones go by rule B first.")
public final class CronRetentionRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (s.place() != null || s.active() || !"cron".equals(s.source())) return Optional.empty();
        double days = ctx.housekeeping().cronRetentionDays();
        double end = Math.max(s.endedAt(), s.lastActivity());
        if (days <= 0 || ctx.now() - end < days * 86400.0) return Optional.empty();
        long ago = (long) Math.floor((ctx.now() - end) / 86400.0);
        String d = Numbers.plain(days);
        String en = "ended cron run, finished " + ago + " days ago (retention " + d + " days): delete with backup?";
        String zh = "已结束的定时任务会话，" + ago + " 天前结束（保留 " + d + " 天）：删除（有备份）？";
        Double prunedAt = HermesPruneRule.dueAt(s, ctx);
        if (prunedAt != null) {
            String day = Times.day(prunedAt);
            en += " (Hermes' auto_prune deletes it from " + day + " anyway)";
            zh += "（Hermes 的 auto_prune 从 " + day + " 起也会删除它）";
        }
        return Optional.of(verdict("cron", Action.delete, Confidence.MEDIUM, en, zh));
    }
}
