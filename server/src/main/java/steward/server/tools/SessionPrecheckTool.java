package steward.server.tools;

import steward.StewardError;
import steward.json.Json;
import steward.learning.PreferenceAdmin;
import steward.learning.PreferenceStore;
import steward.sessions.precheck.PrecheckEngine;
import tools.jackson.databind.node.ObjectNode;

/** {@code session_precheck}: before a new session, find active sessions on the same topic (L0). */
public final class SessionPrecheckTool extends StewardTool<SessionPrecheckTool.Args> {
    /** Not read-only: a reported choice is written to the learning store. */
    static final ToolSpec SPEC = ToolSpec.of(
            "session_precheck",
            "Find existing sessions on a new request's topic",
            "Before opening a session for a new request, finds active titled sessions on its topic so the user can "
                    + "continue one. Ask the suggested_question; never block. Call again with choice (continue + session_id, or "
                    + "new) to record the answer. Changes no session.");

    /** schemas/session_precheck.input.json. */
    public record Args(
            String request,
            String now,
            String locale,
            Integer max_matches,
            String session_id,
            String choice,
            String store) {
        public Args {
            if (locale == null) locale = PrecheckEngine.DEFAULT_LOCALE;
            if (max_matches == null) max_matches = PrecheckEngine.DEFAULT_MAX_MATCHES;
        }
    }

    public SessionPrecheckTool() {
        super(SPEC, Args.class);
    }

    @Override
    public ToolResult call(Args a, ToolContext ctx) {
        String locale = a.locale();
        boolean continues = "continue".equals(a.choice());
        if (continues && a.session_id() == null)
            throw new StewardError(
                    SPEC.name(),
                    "choice 'continue' needs the session_id of the session to continue (nothing was recorded)");
        PrecheckEngine.Result r = new PrecheckEngine(ctx.paths(), ctx.clock())
                .precheck(
                        a.request(),
                        Arguments.now(a.now(), SPEC.name()),
                        locale,
                        a.max_matches(),
                        a.store(),
                        continues ? a.session_id() : null);
        boolean zh = "zh".equals(locale);
        StringBuilder sb = new StringBuilder();
        if (r.matches().isEmpty()) {
            sb.append(zh ? "没有讨论相关主题的活跃会话（关键词: " : "No active session on this topic (keywords: ")
                    .append(String.join(", ", r.keywords()))
                    .append(zh ? "）" : ")");
        } else {
            sb.append(zh ? "📎 发现已有活跃会话讨论相关主题：\n" : "📎 Active sessions already on this topic:\n");
            for (PrecheckEngine.Match m : r.matches()) {
                sb.append("   ")
                        .append(m.session_id())
                        .append(" — \"")
                        .append(m.title())
                        .append("\" ← ")
                        .append(zh ? "最后活动 " : "last active ")
                        .append(PrecheckEngine.ago(m.hours_ago(), zh))
                        .append(" (")
                        .append(m.strength())
                        .append(")\n");
            }
            if (r.left_out() > 0)
                sb.append(zh ? "   …另有 " + r.left_out() + " 条\n" : "   … " + r.left_out() + " more\n");
            sb.append(r.suggested_question());
        }
        ObjectNode out = Json.MAPPER.valueToTree(r);
        String choice = a.choice();
        if (choice != null) {
            String sid = a.session_id();
            String topic = String.join(" ", r.keywords());
            String recorded = new PreferenceAdmin(
                            new PreferenceStore(ctx.paths().stateDir(), ctx.clock()), ctx.clock())
                    .recordPrecheckChoice(topic.isEmpty() ? r.request() : topic, choice, sid);
            out.put("recorded", recorded);
            sb.append("\n").append(recorded);
        }
        return ToolResult.ok(out, sb.toString());
    }
}
