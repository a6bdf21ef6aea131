package steward.sessions.rules;

import java.util.Optional;
import java.util.Set;
import steward.sessions.audit.Times;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.SessionRow;
import steward.text.Numbers;

@RuleMeta(
        confidence = "HIGH",
        id = "K",
        summary =
                "Subagent trace retention: a finished subagent is kept for keep-days (default 3) after its last activity "
                        + "even when rule A would delete it; a continuable one is always kept, and a Claude Code one while its "
                        + "session is in use",
        rationale =
                "A subagent that just finished may still be read to understand its parent's result, or continued; its trace "
                        + "is deleted only once it is keep-days old (steward.subagent_keep_days in config.yaml, 0 = no grace period), "
                        + "and never while it can be continued.")
public final class SubagentRetentionRule implements Rule {
    /** End reasons after which Hermes resumes or continues a session (agent_close / ws_orphan_reap are reopened on resume). */
    public static final Set<String> CONTINUABLE_END_REASONS =
            Set.of("agent_close", "ws_orphan_reap", "compression", "branched");

    private static final SubagentShellRule SHELL = new SubagentShellRule();

    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (!s.subagent() || s.active()) return Optional.empty();
        if (SHELL.evaluate(s, ctx).isEmpty()) return Optional.empty(); // R only holds back what A would delete
        if (continuable(s, ctx)) {
            return Optional.of(verdict(
                    "continuable",
                    Action.retain,
                    Confidence.HIGH,
                    "continuable subagent ("
                            + (s.endReason() == null ? "has a continuation" : "ended: " + s.endReason())
                            + "): always kept",
                    "可续接的子代理（" + (s.endReason() == null ? "有续接会话" : "结束原因：" + s.endReason()) + "）：始终保留"));
        }
        if (ClaudeSessions.STORE.equals(s.store()) && parentLive(s, ctx)) {
            return Optional.of(verdict(
                    "parent_live",
                    Action.retain,
                    Confidence.HIGH,
                    "subagent of a Claude Code session still in use: kept while that session may resume it",
                    "所属 Claude Code 会话仍在使用：可能被续接，保留"));
        }
        double eligible = eligibleAt(s, ctx);
        if (ctx.now() >= eligible) return Optional.empty();
        String day = Times.minute(eligible);
        String days = Numbers.plain(ctx.subagentKeepDays());
        return Optional.of(verdict(
                "young",
                Action.retain,
                Confidence.HIGH,
                "finished subagent younger than " + days + " days: kept, eligible for deletion from " + day + " UTC",
                "结束不足 " + days + " 天的子代理：保留，" + day + "（UTC）起可删除"));
    }

    /** Continuable: ended for a reason Hermes resumes or continues from, or the parent of a non-subagent continuation. */
    public static boolean continuable(SessionRow s, RuleContext ctx) {
        if (s.endReason() != null && CONTINUABLE_END_REASONS.contains(s.endReason())) return true;
        for (SessionRow c : ctx.children(s.id())) {
            if (!c.subagent() && s.id().equals(c.parentSessionId())) return true;
        }
        return false;
    }

    /**
     * A Claude Code subagent whose session is live: Claude Code can resume a subagent (it reads the agent's transcript
     * back and appends to it by path), so its transcript stays while its session is in use.
     */
    static boolean parentLive(SessionRow s, RuleContext ctx) {
        SessionRow parent = s.parentSessionId() == null ? null : ctx.session(s.parentSessionId());
        return parent != null && parent.active();
    }

    /** When a finished subagent becomes eligible: its last activity plus keep-days. */
    public static double eligibleAt(SessionRow s, RuleContext ctx) {
        return s.lastActivity() + ctx.subagentKeepDays() * 86400.0;
    }
}
