package steward.sessions.audit;

import java.util.Comparator;
import java.util.List;

/**
 * The audit report in the seed's layout, in the chosen language, with the user-visible words only:
 * delete, mark as ended (done by Steward), archive (reported, never done by Steward), keep.
 */
public final class ReportRenderer {
    private ReportRenderer() {}

    static final String RULE = "═══════════════════════════════════════════";

    public static String untitled(String locale) {
        return zh(locale) ? "(无标题)" : "(untitled)";
    }

    public static String title(String t, String locale) {
        return t == null || t.isBlank() ? untitled(locale) : t;
    }

    public static String actionWord(String action, String locale) {
        boolean z = zh(locale);
        return switch (action) {
            case "delete" -> z ? "删除" : "delete";
            case "mark_ended" -> z ? "标记为已结束" : "mark as ended";
            case "name_or_delete" -> z ? "删除或命名" : "delete or name it";
            case "review" -> z ? "请检查" : "review";
            default -> z ? "保留" : "keep";
        };
    }

    static String fmt(double n) {
        return n == Math.rint(n) ? String.valueOf((int) n) : String.valueOf(n);
    }

    static boolean zh(String locale) {
        return "zh".equals(locale);
    }

    public static String render(AuditResult r) {
        String l = r.locale();
        boolean z = zh(l);
        StringBuilder sb = new StringBuilder();
        sb.append(RULE).append('\n');
        sb.append(z ? "  会话审计报告 — " : "  Session audit report — ").append(r.now(), 0, 10)
                .append(r.mode().equals("headless") ? (z ? "（无人值守模式）" : " (headless)") : "").append('\n');
        sb.append(RULE).append("\n\n");
        if (plainHermes(r)) {
            totals(sb, r.totals(), r.current(), z);
        } else {
            for (AuditResult.StoreOut so : r.stores()) {
                sb.append(storeName(so.store())).append(" — ").append(so.location());
                if (so.idle_hours() != null) {
                    sb.append(z ? "（空闲 " + fmt(so.idle_hours()) + " 小时后视为已结束）" : " (ended after " + fmt(so.idle_hours()) + " h without an append)");
                }
                sb.append('\n');
                totals(sb, so.totals(), so.current(), z);
                for (String w : so.warnings()) sb.append("  ⚠ ").append(w).append('\n');
            }
        }
        sb.append(z ? "  活跃阈值 N: " : "  active threshold N: ").append(fmt(r.threshold())).append('\n');
        AuditResult.Groups g = r.groups();
        sb.append('\n').append(z ? "=== 自动执行（HIGH 置信度，" + g.auto().count() + " 条）===" : "=== Runs automatically (HIGH confidence, " + g.auto().count() + ") ===").append('\n');
        items(sb, g.auto().items(), "✓", l, false, r);
        more(sb, g.auto().left_out(), l);
        int confirmCount = g.confirm().stream().mapToInt(AuditResult.RuleGroup::count).sum();
        sb.append('\n').append(z ? "=== 建议操作（MEDIUM 置信度，" + confirmCount + " 条，需你确认）===" : "=== Suggested (MEDIUM confidence, " + confirmCount + ", needs your answer) ===").append('\n');
        for (AuditResult.RuleGroup rg : g.confirm()) {
            sb.append(z ? "  规则 " + rg.rule() + "（" + rg.count() + " 条）:" : "  Rule " + rg.rule() + " (" + rg.count() + "):").append('\n');
            items(sb, rg.items(), "?", l, true, r);
            more(sb, rg.left_out(), l);
        }
        sb.append('\n').append(z ? "=== 仅供参考（LOW 置信度，" + g.info().count() + " 条）===" : "=== For your information (LOW confidence, " + g.info().count() + ") ===").append('\n');
        items(sb, g.info().items(), "·", l, true, r);
        more(sb, g.info().left_out(), l);
        AuditResult.Questions q = r.questions();
        java.util.Map<String, Integer> byRule = new java.util.TreeMap<>();
        for (AuditResult.RuleGroup rg : g.confirm()) for (AuditResult.Item i : rg.items()) if ("grouped".equals(i.question())) byRule.merge(i.rule(), 1, Integer::sum);
        for (AuditResult.Item i : g.info().items()) if ("grouped".equals(i.question())) byRule.merge(i.rule(), 1, Integer::sum);
        for (var e : byRule.entrySet()) {
            boolean topics = e.getKey().equals("E");
            if (z) sb.append("  ? 规则 ").append(e.getKey()).append(topics ? "：以上主题都已沉淀到记忆或技能？" : "：以上 " + e.getValue() + " 个都标记为已结束？")
                    .append("（").append(e.getKey()).append("=同意/拒绝，或逐条回复）\n");
            else sb.append("  ? Rule ").append(e.getKey()).append(topics ? ": are the topics above consolidated into memory or a skill?" : ": mark these " + e.getValue() + " as ended?")
                    .append(" (").append(e.getKey()).append("=approve/reject for all, or per item)\n");
        }
        if (q != null && (q.listed() > 0 || q.grouped() > 0 || !g.collapsed().isEmpty())) {
            sb.append(z ? "  按规则整组回复（如 B=同意）只覆盖上面列出的问题，不含自动执行和仅报告的条目；也可逐条回复（id=同意/拒绝）。\n"
                    : "  Answer per rule (e.g. B=approve) or per item (id=approve/reject); a rule answer covers only the questions listed above, never automatic or report-only items.\n");
        }
        for (AuditResult.RuleGroup c : g.collapsed()) sb.append("  ? ").append(c.summary()).append('\n');
        if (q != null && q.waiting() > 0) {
            sb.append(z ? "  ? 之前几次仍在等你回答: " + q.waiting() + " 条——请回答，或说“以后再说”" : "  ? Still waiting from earlier runs: " + q.waiting() + " — answer or say 'later'");
            if (q.later() > 0) sb.append(z ? "（另有 " + q.later() + " 条已推迟）" : " (" + q.later() + " more put off)");
            sb.append('\n');
        } else if (q != null && q.later() > 0) {
            sb.append(z ? "  · 已推迟的问题: " + q.later() + " 条\n" : "  · Put off until later: " + q.later() + "\n");
        }
        if (q != null && q.not_asked() > 0) {
            sb.append(z ? "  · 本次未问（每次最多 " + q.cap() + " 个问题）: " + q.not_asked() + " 条（" + q.digest() + "），之后再问\n"
                    : "  · Not asked this run (at most " + q.cap() + " questions per run): " + q.not_asked() + " more (" + q.digest() + "), asked in later runs\n");
        }
        sb.append('\n').append(z ? "=== 保留（不操作，" + g.retained().count() + " 条）===" : "=== Kept (no action, " + g.retained().count() + ") ===").append('\n');
        String place = null;
        for (AuditResult.Item it : sorted(g.retained().items(), r)) {
            place = heading(sb, it, place, r);
            sb.append("  · ").append(it.session_id()).append(" — ").append(title(it.evidence().title(), l)).append(" — ").append(it.reason()).append('\n');
        }
        more(sb, g.retained().left_out(), l);
        if (!r.repeated_topics().isEmpty()) {
            sb.append('\n').append(z ? "=== 重复主题 ===" : "=== Repeated topics ===").append('\n');
            for (AuditResult.TopicOut tp : r.repeated_topics()) {
                sb.append(z ? "  “" + tp.topic() + "” 出现 " + tp.count() + " 次" : "  \"" + tp.topic() + "\" appears " + tp.count() + " times").append('\n');
            }
        }
        AuditResult.LearningState ls = r.learning();
        if (ls != null && "corrupt".equals(ls.status())) {
            sb.append('\n').append(z ? "⚠ 学习暂停（偏好存储无法读取，文件保持原样）: " : "⚠ learning paused (preference store unreadable, left as it is): ").append(ls.error()).append('\n');
        } else if (ls != null && ls.rule_state() != null) {
            sb.append('\n').append(z ? "当前规则状态: " : "Current rule state: ").append(ls.rule_state()).append('\n');
        }
        AuditResult.Expected e = r.expected();
        sb.append('\n').append(RULE).append('\n');
        if (z) {
            sb.append("  清理后预期: 活跃 ").append(e.active_before()).append("→").append(e.active_after_auto())
                    .append("  总 ").append(e.total_before()).append("→").append(e.total_after_auto())
                    .append("（全部同意: 活跃→").append(e.active_after_all_approved()).append("，总→").append(e.total_after_all_approved()).append("）\n");
        } else {
            sb.append("  Expected after cleanup: active ").append(e.active_before()).append("→").append(e.active_after_auto())
                    .append("  total ").append(e.total_before()).append("→").append(e.total_after_auto())
                    .append(" (if all approved: active→").append(e.active_after_all_approved()).append(", total→").append(e.total_after_all_approved()).append(")\n");
        }
        sb.append(RULE).append('\n');
        sb.append(z ? "计划 " + r.plan_id() + "，有效至 " + r.expires_at() + "。删除前会先备份；“标记为已结束”由 Steward 执行；“归档”只报告，由你在界面中操作。"
                : "Plan " + r.plan_id() + ", valid until " + r.expires_at() + ". Everything is backed up before deletion; \"mark as ended\" is done by Steward; archiving is only reported, you do it in the UI.");
        return sb.toString();
    }

    /** The one line that replaces a rule's questions once its warning has been ignored up to N's cap (rule D). */
    public static String collapsedLine(String rule, int count, int active, double threshold, String locale) {
        if (zh(locale)) {
            return "规则 " + rule + "：活跃会话 " + active + " 个，超过 N=" + fmt(threshold) + "（已到上限，提醒一直未获回答）；" + count
                    + " 个可标记为已结束——整组回复 " + rule + "=同意/拒绝，或说“以后再说”";
        }
        return "Rule " + rule + ": " + active + " active sessions, more than N=" + fmt(threshold) + " (its cap; this warning went unanswered); "
                + count + " could be marked as ended — answer " + rule + "=approve/reject for all, or say 'later'";
    }

    /** A report of one Hermes store reads as it always did: no store headings. */
    static boolean plainHermes(AuditResult r) {
        return r.stores() == null || r.stores().isEmpty() || r.stores().size() == 1 && "hermes".equals(r.stores().get(0).store());
    }

    static String storeName(String store) {
        return "claude".equals(store) ? "Claude Code" : "Hermes";
    }

    private static void totals(StringBuilder sb, AuditResult.Totals t, AuditResult.Current cur, boolean z) {
        String current = cur.session_id() == null ? (z ? "未知" : "unknown") : cur.session_id();
        if (z) {
            sb.append("总记录: ").append(t.all()).append(" 条\n");
            sb.append("  活跃: ").append(t.active()).append(" 条（当前: ").append(current).append("）\n");
            sb.append("  已结束: ").append(t.ended()).append(" 条\n");
            sb.append("  已归档: ").append(t.archived()).append(" 条\n");
        } else {
            sb.append("Total: ").append(t.all()).append(" sessions\n");
            sb.append("  active: ").append(t.active()).append(" (current: ").append(current).append(")\n");
            sb.append("  ended: ").append(t.ended()).append('\n');
            sb.append("  archived: ").append(t.archived()).append('\n');
        }
    }

    /** Items grouped by store, then by Claude Code project (stable: report order within a group). */
    private static List<AuditResult.Item> sorted(List<AuditResult.Item> items, AuditResult r) {
        if (plainHermes(r)) return items;
        List<String> order = r.stores().stream().map(AuditResult.StoreOut::store).toList();
        return items.stream().sorted(Comparator.<AuditResult.Item>comparingInt(i -> order.indexOf(i.store()))
                .thenComparing(i -> i.evidence().project() == null ? "" : i.evidence().project())).toList();
    }

    /** Prints a store / project heading when it changes; returns the current one. */
    private static String heading(StringBuilder sb, AuditResult.Item it, String previous, AuditResult r) {
        if (plainHermes(r)) return previous;
        String key = it.store() + "\u0000" + (it.evidence().project() == null ? "" : it.evidence().project());
        if (key.equals(previous)) return previous;
        sb.append("  [").append(storeName(it.store()));
        if (it.evidence().project() != null) sb.append(" · ").append(projectLabel(it.evidence().project(), r));
        sb.append("]\n");
        return key;
    }

    /** A project's working directory when its transcripts name one, else its directory name. */
    private static String projectLabel(String project, AuditResult r) {
        for (AuditResult.StoreOut so : r.stores()) {
            for (AuditResult.ProjectOut p : so.projects()) if (p.project().equals(project) && p.cwd() != null) return p.cwd();
        }
        return project;
    }

    private static void items(StringBuilder sb, List<AuditResult.Item> items, String mark, String l, boolean question, AuditResult r) {
        String place = null;
        for (AuditResult.Item it : sorted(items, r)) {
            if (it.cascade_of() != null) continue; // named in its parent's question
            if (it.rule().equals("E") && it.question() == null) continue; // its topic is asked once, with another session
            place = heading(sb, it, place, r);
            boolean grouped = "grouped".equals(it.question()); // asked once, in its rule's line below
            sb.append("  ").append(grouped ? "·" : mark).append(' ').append(it.session_id()).append(" — ").append(title(it.evidence().title(), l))
                    .append(" — ").append(it.reason());
            if (!grouped) sb.append(" → ").append(actionWord(it.action(), l)).append(question && !it.action().equals("review") ? "?" : "");
            if (!it.executable() && !it.action().equals("review")) sb.append(zh(l) ? "（仅报告）" : " (report only)");
            sb.append('\n');
        }
    }

    private static void more(StringBuilder sb, int leftOut, String l) {
        if (leftOut > 0) sb.append(zh(l) ? "  …另有 " + leftOut + " 条未列出\n" : "  … " + leftOut + " more not listed\n");
    }
}
