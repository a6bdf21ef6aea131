package steward.sessions.rules;

import java.util.Optional;
import steward.learning.Level;
import steward.learning.Listing;
import steward.learning.PreferenceData;
import steward.learning.Preferences;
import steward.learning.RuleKey;
import steward.sessions.store.SessionRow;

@RuleMeta(
        confidence = "HIGH, MEDIUM, LOW",
        id = "F",
        summary = "User preference overrides: what the user decided before about this session or rule",
        rationale =
                "The user's explicit earlier choice is better evidence than any heuristic: a session kept before stays kept, "
                        + "a session the user asked to delete is certain, and a rule the user vetoed or contradicted asks before acting.")
public final class PreferenceRule implements Rule {
    @Override
    public Optional<Verdict> evaluate(SessionRow s, RuleContext ctx) {
        if (ctx.preferences().kept(s.id()))
            return Optional.of(verdict(Action.retain, Confidence.HIGH, "you kept it last time", "上次你选择保留"));
        if (ctx.preferences().renamed(s.id())) {
            return Optional.of(
                    verdict(Action.retain, Confidence.HIGH, "you renamed it instead of deleting it", "你为它改了名而没有删除"));
        }
        if (asSeen(ctx.preferences().deleteRequest(s.id()), s)) {
            return Optional.of(verdict(Action.delete, Confidence.HIGH, "you asked to delete it last time", "上次你要求删除"));
        }
        // a request made for the session as it was (it has been resumed, named or added to since): the rules decide
        // again
        return Optional.empty();
    }

    /** The session is as the user saw it when they asked to delete it (Preferences.asSeen: the one comparison). */
    static boolean asSeen(PreferenceData.SessionMark asked, SessionRow s) {
        return Preferences.asSeen(asked, now(s));
    }

    /** A session as the learning store compares it with a request. */
    public static Listing.Now now(SessionRow s) {
        return new Listing.Now(s.title(), s.messageCount(), s.lastActivity(), !s.active());
    }

    /**
     * Applies what was learned about the verdict's rule condition: promoted or demoted level, or the
     * LOW lock after contradictory choices; a session the user kept within the kept window is asked about by
     * name, never run automatically. The safety cap (rule S) is applied after this, always.
     */
    public static Verdict adjust(SessionRow s, Verdict v, RuleContext ctx) {
        if (v.action() == Action.retain || v.rule().equals("S") || v.rule().equals("H"))
            return v; // H: Hermes acts, nobody is asked
        Verdict out = v.rule().equals("F") ? v : learned(v, ctx);
        if (out.confidence() == Confidence.HIGH
                && v.confidence() != Confidence.HIGH
                && ctx.preferences().waiting(s.id(), v.condition() == null ? v.rule() : v.condition()) != null) {
            // promoted since this session was asked about and left unanswered: silence is never approval, so it stays
            // a question; the promotion runs only what the user was never asked about
            out = v.withConfidence(
                    v.confidence(),
                    new Text(
                            v.reason().en() + " (asked before, not answered yet: still asked)",
                            v.reason().zh() + "（之前问过，尚未回答：仍需确认）"));
        }
        String keptOn = ctx.preferences().keptOn(s.id());
        if (keptOn != null && out.confidence() == Confidence.HIGH) {
            out = out.withConfidence(
                    Confidence.MEDIUM,
                    new Text(
                            out.reason().en() + " (you kept it on " + keptOn + ": asked by name)",
                            out.reason().zh() + "（你在 " + keptOn + " 保留过它：需逐条确认）"));
        }
        return out;
    }

    private static Verdict learned(Verdict v, RuleContext ctx) {
        String key = v.condition() == null ? v.rule() : v.condition();
        String condition = RuleKey.condition(key);
        Preferences.Adjusted a = ctx.preferences()
                .adjust(v.rule(), condition, Level.valueOf(v.confidence().name()));
        Confidence level = Confidence.valueOf(a.level().name());
        if (level == v.confidence() && !a.locked()) return v;
        Text why = a.note() == null
                ? null
                : new Text(v.reason().en() + " (" + a.note() + ")", v.reason().zh() + "（" + zh(a.note()) + "）");
        return v.withConfidence(level, why);
    }

    /**
     * A session the user asked to delete that has changed since (resumed, named, added to): the request no longer acts
     * and the rules decide again; the verdict says so, so that the user sees why it is not simply deleted.
     */
    static Verdict noteChangedRequest(SessionRow s, Verdict v, RuleContext ctx) {
        PreferenceData.SessionMark asked = ctx.preferences().deleteRequest(s.id());
        if (asked == null || v.rule().equals("F") || asSeen(asked, s)) return v;
        // a request of an older store (no session as seen) or one this build cannot judge: not known to have changed
        if (asked.messages == null || asked.last_activity == null || asked.ended == null || !asked.unknown.isEmpty())
            return v;
        String on = asked.date == null ? "" : " on " + asked.date;
        String zhOn = asked.date == null ? "" : "在 " + asked.date + " ";
        return v.withConfidence(
                v.confidence(),
                new Text(
                        v.reason().en() + " (you asked" + on
                                + " to delete it; it has changed since, so that no longer holds)",
                        v.reason().zh() + "（你" + zhOn + "要求删除过它；之后它有变化，该要求不再生效）"));
    }

    /** The learning notes in Chinese, for the zh report. */
    static String zh(String note) {
        if (note.startsWith("you kept similar ones before")) return "你之前保留过同类";
        if (note.startsWith("you kept one like this before")) return "你上次保留过同类";
        if (note.startsWith("locked at LOW")) return "你对此类的选择前后矛盾，已锁定为 LOW，需你明确表示信任后才会恢复";
        if (note.startsWith("promoted to")) return "你已多次批准同类，已升级";
        return note;
    }
}
