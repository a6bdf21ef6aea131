package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.audit.Times;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "HIGH, MEDIUM",
        id = "S",
        summary =
                "Safety guard: the current session, pinned sessions, live chains and active sessions dated in the future are kept; titled active sessions, endings Hermes' auto_prune would turn into deletions, and rules whose config.yaml setting cannot be read, are never auto-executed",
        rationale =
                "Deleting the session the user is in, or the root of a chain they still continue, destroys work in use; "
                        + "an active session dated in the future (a clock set wrong) tells nothing of when it was last used; "
                        + "a pinned session is one the user chose to keep; "
                        + "a titled, active, non-subagent session is something the user named and may return to, so a person must decide; "
                        + "ending a session Hermes' auto_prune then deletes at its next start is a deletion restore cannot take back; "
                        + "a setting the user may have written to keep more or to turn a rule off, that Steward cannot read, must not fall back to a default that acts.")
public final class SafetyGuardRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (ctx.isCurrent(s)) {
            return Optional.of(verdict(Action.retain, Confidence.HIGH, "current session", "当前会话"));
        }
        if (s.pinned()) { // the user pinned it in Hermes (schemas with the column): kept, whatever it holds
            return Optional.of(verdict(Action.retain, Confidence.HIGH, "pinned", "已置顶"));
        }
        if (s.active() && s.futureDated(ctx.now())) {
            // its time cannot be trusted: it may be in use right now (on a machine whose clock runs ahead), and no idle
            // time can be measured from it; the guess of the current session leaves it out, so it is kept here
            String at = Times.minute(Math.max(s.startedAt(), s.lastActivity()));
            return Optional.of(verdict(
                    Action.retain,
                    Confidence.HIGH,
                    "active and dated in the future (last activity " + at
                            + " UTC: a clock was set wrong): kept, Steward cannot tell whether it is in use",
                    "活跃且时间在未来（最后活动 " + at + " UTC：某个时钟设置有误）：保留，Steward 无法判断它是否仍在使用"));
        }
        if (ctx.hasLiveDescendant(s)) {
            // live: a continuation is active or titled (a named session is never deleted unasked); one reason for both,
            // so a report of thousands keeps one line for them
            return Optional.of(verdict(
                    Action.retain,
                    Confidence.HIGH,
                    "a continuation of it is active or titled: deleting it would cut the chain",
                    "它的续接会话仍活跃或有标题：删除会切断会话链"));
        }
        if (s.place() != null
                && s.subagent()
                && s.parentSessionId() != null
                && s.parentSessionId().equals(ctx.currentSessionId())) {
            // a Claude Code subagent's transcript lives in its session's directory: the current session's are left
            // alone
            return Optional.of(verdict(Action.retain, Confidence.HIGH, "subagent of the current session", "当前会话的子代理"));
        }
        for (SessionRow c : ctx.subagentChildren(s.id())) {
            if (ctx.isCurrent(c)) {
                return Optional.of(
                        verdict(Action.retain, Confidence.HIGH, "the current session is its subagent", "当前会话是它的子代理"));
            }
        }
        return Optional.empty();
    }

    /**
     * The cap: a titled, active, non-subagent session is never executed automatically (at most MEDIUM); nor is ending a
     * session Hermes' auto_prune would then delete at its next start (started more than retention_days ago); nor is a verdict
     * of a rule whose config.yaml setting is there but cannot be read (the user may have set it to keep more, or to turn
     * the rule off: a damaged setting narrows what runs, never widens it).
     */
    public static Verdict cap(SessionRow s, Verdict v, RuleContext ctx) {
        if (v.action() == Action.retain) return v;
        if (ctx.settingUnread(v.rule())) {
            String keys = String.join(", ", Rules.byId(v.rule()).meta().settings());
            Verdict g = v.guarded(true);
            Text why = new Text(
                    v.reason().en() + " — asked: " + keys + " in config.yaml cannot be read",
                    v.reason().zh() + " —— 需确认：config.yaml 中的 " + keys + " 无法读取");
            return g.confidence().compareTo(Confidence.MEDIUM) > 0
                    ? g.withConfidence(Confidence.MEDIUM, why)
                    : g.withConfidence(g.confidence(), why);
        }
        if (v.action() == Action.mark_ended && endingLetsHermesPrune(s, ctx)) {
            // Hermes' auto_prune deletes every ended session started more than retention_days ago at its next start:
            // ending this one deletes it there, out of Steward's reach (restore cannot take back Hermes' deletion)
            String days = steward.text.Numbers.plain(ctx.housekeeping().pruneRetentionDays());
            Verdict g = v.guarded(true);
            Text why = new Text(
                    v.reason().en() + " — asked: once ended, Hermes' auto_prune deletes it (started more than " + days
                            + " days ago)",
                    v.reason().zh() + " —— 需确认：一旦结束，Hermes 的 auto_prune 会删除它（开始于 " + days + " 天前）");
            return g.withConfidence(
                    g.confidence().compareTo(Confidence.MEDIUM) > 0 ? Confidence.MEDIUM : g.confidence(), why);
        }
        if (!guards(s)) return v;
        // a machine session's title names a job or a chat thread, not a conversation the user returns to: ending it
        // (rule M) is
        // not what the cap protects against, and restore undoes it
        if (v.rule().equals("M") && v.action() == Action.mark_ended) return v;
        Verdict g = v.guarded(true);
        return g.confidence().compareTo(Confidence.MEDIUM) > 0 ? g.withConfidence(Confidence.MEDIUM, null) : g;
    }

    /** Whether Hermes' auto_prune would delete this Hermes session at its next start once it is ended. */
    static boolean endingLetsHermesPrune(SessionRow s, RuleContext ctx) {
        var hk = ctx.housekeeping();
        return hk.autoPrune()
                && s.place() == null
                && s.active()
                && s.startedAt() + hk.pruneRetentionDays() * 86400.0 <= ctx.now();
    }

    /** Whether the cap applies to this session: titled, active and not a subagent. */
    public static boolean guards(SessionRow s) {
        return s.active() && !s.untitled() && !s.subagent();
    }
}
