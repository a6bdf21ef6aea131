package steward.schedule;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.Plan;
import steward.sessions.audit.Times;

/**
 * {@code steward schedule --run}, what the weekly entry runs: a headless audit (only rule A is executable) and an apply
 * with no decisions, so only rule A's HIGH items run; nobody is there to answer, so nothing is approved and nothing is
 * learned. Before applying it checks the plan: any executable item of another rule and the run is refused. The run is
 * recorded in {@link ScheduleLog} for the next interactive audit.
 */
public final class ScheduledRun {
    static final int LISTED = 50;

    private ScheduledRun() {}

    public static ScheduleLog.Run run(StewardPaths paths, Clock clock) {
        double started = Times.epoch(clock.instant());
        String id = Times.iso(started).replace(":", "").replace("-", "").replace(".", "");
        ScheduleLog.Run r;
        try {
            AuditEngine.Outcome o =
                    new AuditEngine(paths, clock).audit(new AuditRequest(null, null, "headless", "en", 20));
            List<String> foreign = new ArrayList<>();
            for (Plan.PlanItem i : o.plan().items())
                if (i.executable() && !i.rule().equals("A")) foreign.add(i.item_id() + " (" + i.rule() + ")");
            if (!foreign.isEmpty()) {
                r = new ScheduleLog.Run(
                        id,
                        Times.iso(started),
                        started,
                        "refused",
                        o.plan().plan_id(),
                        0,
                        0,
                        List.of(),
                        0,
                        null,
                        "the headless plan marks items of other rules executable: " + String.join(", ", foreign)
                                + "; nothing was applied");
            } else {
                ApplyResult a = new ApplyEngine(paths, clock)
                        .apply(new ApplyRequest(o.plan().plan_id(), Map.of(), Map.of(), Map.of(), false, null));
                List<String> deleted = a.executed().stream()
                        .filter(d -> d.action().equals("delete"))
                        .map(ApplyResult.Done::session_id)
                        .toList();
                boolean onlyA = a.executed().stream().allMatch(d -> d.rule().equals("A"));
                r = new ScheduleLog.Run(
                        id,
                        Times.iso(started),
                        started,
                        onlyA ? "ok" : "failed",
                        a.plan_id(),
                        a.executed_count(),
                        a.skipped_count(),
                        List.copyOf(deleted.subList(0, Math.min(LISTED, deleted.size()))),
                        Math.max(0, deleted.size() - LISTED),
                        a.backup() == null ? null : a.backup().backup_id(),
                        onlyA ? null : "an item of another rule ran");
            }
        } catch (StewardError e) {
            r = new ScheduleLog.Run(
                    id, Times.iso(started), started, "failed", null, 0, 0, List.of(), 0, null, e.getMessage());
        }
        try {
            new ScheduleLog(paths.stateDir()).record(r);
        } catch (IOException e) {
            throw new StewardError(
                    "schedule",
                    "the run finished but cannot be recorded in " + paths.stateDir() + ": " + e.getMessage(),
                    e);
        }
        return r;
    }

    /** One line per run for the log file. */
    public static String line(ScheduleLog.Run r) {
        StringBuilder sb = new StringBuilder(r.started_at())
                .append(" steward housekeeping (headless, rule A only): ")
                .append(r.status());
        if (r.status().equals("ok")) {
            sb.append(", ")
                    .append(r.executed())
                    .append(" done, ")
                    .append(r.skipped())
                    .append(" skipped");
            if (r.backup_id() != null) sb.append(", backup ").append(r.backup_id());
        }
        if (r.error() != null) sb.append(": ").append(r.error());
        return sb.toString();
    }
}
