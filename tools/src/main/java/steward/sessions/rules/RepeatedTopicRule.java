package steward.sessions.rules;

import java.util.Optional;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "MEDIUM",
        id = "E",
        summary =
                "Repeated topics: a title keyword shared by ≥ 2 active titled sessions (not cron, gateway, API or subagent runs) → review (report only)",
        rationale =
                "A topic that keeps coming back should be consolidated into memory or a skill instead of living in several sessions.")
public final class RepeatedTopicRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (!s.active() || s.untitled() || MachineSessions.machine(s)) return Optional.empty();
        RuleContext.Topic t = ctx.topicOf(s);
        if (t == null) return Optional.empty();
        Verdict v = verdict(
                null,
                Action.review,
                Confidence.MEDIUM,
                "topic \"" + t.label() + "\" appears " + t.count()
                        + " times: has it been consolidated into memory or a skill?",
                "同类主题“" + t.label() + "”出现 " + t.count() + " 次：是否已沉淀到记忆或技能？");
        return Optional.of(new Verdict(v.rule(), v.condition(), v.action(), v.confidence(), v.reason(), t.label()));
    }
}
