package steward.server.tools;

import steward.learning.PreferenceAdmin;
import steward.learning.PreferenceStore;
import steward.sessions.precheck.PrecheckEngine;
import tools.jackson.databind.JsonNode;

/** {@code session_precheck}: before a new session, find active sessions on the same topic (L0). */
public final class SessionPrecheckTool implements StewardTool {
    @Override
    public String name() {
        return "session_precheck";
    }

    @Override
    public String title() {
        return "Find existing sessions on a new request's topic";
    }

    @Override
    public String description() {
        return "Before opening a new Hermes session for a new request, checks whether an active titled session already covers the "
                + "topic, so the user can continue it instead of starting a duplicate. Extracts 2–5 keywords from the request "
                + "(English and Chinese, stop words removed), matches them against active session titles, and returns the matches "
                + "newest activity first with 'last active N hours ago': one shared keyword is a weak match, two or more (or a "
                + "repeated-title chain) a strong one. Ask the user the suggested_question; never block them. Call it again with "
                + "choice (continue + session_id, or new) to record the user's answer for the learning loop. Changes no session.";
    }

    @Override
    public ToolHints hints() {
        return new ToolHints(false, false, false, false); // read-only unless user_choice is reported (then the learning store is written)
    }

    @Override
    public ToolResult call(JsonNode a, ToolContext ctx) {
        String locale = SessionAuditTool.text(a, "locale");
        PrecheckEngine.Result r = new PrecheckEngine(ctx.paths(), ctx.clock()).precheck(a.get("request").asString(),
                SessionAuditTool.parseNow(a, "session_precheck"), locale, a.path("max_matches").asInt(PrecheckEngine.DEFAULT_MAX_MATCHES));
        boolean zh = "zh".equals(locale);
        StringBuilder sb = new StringBuilder();
        if (r.matches().isEmpty()) {
            sb.append(zh ? "没有讨论相关主题的活跃会话（关键词: " : "No active session on this topic (keywords: ").append(String.join(", ", r.keywords())).append(zh ? "）" : ")");
        } else {
            sb.append(zh ? "📎 发现已有活跃会话讨论相关主题：\n" : "📎 Active sessions already on this topic:\n");
            for (PrecheckEngine.Match m : r.matches()) {
                sb.append("   ").append(m.session_id()).append(" — \"").append(m.title()).append("\" ← ")
                        .append(zh ? "最后活动 " : "last active ").append(PrecheckEngine.ago(m.hours_ago(), zh))
                        .append(" (").append(m.strength()).append(")\n");
            }
            if (r.left_out() > 0) sb.append(zh ? "   …另有 " + r.left_out() + " 条\n" : "   … " + r.left_out() + " more\n");
            sb.append(r.suggested_question());
        }
        var out = steward.server.ToolRegistry.toJson(r);
        String choice = SessionAuditTool.text(a, "choice");
        if (choice != null) {
            String sid = SessionAuditTool.text(a, "session_id");
            String topic = String.join(" ", r.keywords());
            String recorded = new PreferenceAdmin(new PreferenceStore(ctx.paths().stateDir(), ctx.clock()), ctx.clock())
                    .recordPrecheckChoice(topic.isEmpty() ? r.request() : topic, choice, sid);
            out.put("recorded", recorded);
            sb.append("\n").append(recorded);
        }
        return ToolResult.ok(out, sb.toString());
    }
}
