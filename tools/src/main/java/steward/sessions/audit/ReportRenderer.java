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
        AuditResult.ScheduledRuns sr = r.scheduled_runs();
        if (sr != null) {
            sb.append(z ? "  定时整理（上次审计以来 " + sr.runs() + " 次，最近 " + sr.last_at().substring(0, 16).replace('T', ' ') + " UTC）: 删除 "
                    + sr.deleted() + " 条子代理空壳（仅规则 A）" : "  Scheduled housekeeping since your last audit: " + sr.runs() + (sr.runs() == 1 ? " run" : " runs")
                    + " (last " + sr.last_at().substring(0, 16).replace('T', ' ') + " UTC), deleted " + sr.deleted() + " finished subagent shells (rule A only)");
            if (!sr.backups().isEmpty()) sb.append(z ? "，可用 session_restore 从 " : "; undo with session_restore from ").append(String.join(", ", sr.backups()));
            sb.append('\n');
            for (String p : sr.problems()) sb.append("  ⚠ ").append(p).append('\n');
        }
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
        if (q != null && (q.listed() > 0 || q.grouped() > 0 || q.collapsed() > 0)) {
            sb.append(z ? "  按规则整组回复（如 B=同意）只覆盖上面列出的问题，不含自动执行和仅报告的条目；也可逐条回复（id=同意/拒绝）。\n"
                    : "  Answer per rule (e.g. B=approve) or per item (id=approve/reject); a rule answer covers only the questions listed above, never automatic or report-only items.\n");
        }
        for (AuditResult.RuleGroup c : g.collapsed()) {
            boolean status = !c.items().isEmpty() && "status".equals(c.items().get(0).question());
            sb.append(status ? "  · " : "  ? ").append(c.summary()).append('\n');
        }
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
        AuditResult.Retention rt = r.retention();
        if (rt != null && rt.kept_young() + rt.kept_continuable() > 0) {
            String days = fmt(rt.keep_days());
            sb.append(z ? "  子代理痕迹（保留期 " + days + " 天）: 保留 " + rt.kept_young() + " 条未满期"
                    + (rt.next_eligible_at() == null ? "" : "（最早 " + rt.next_eligible_at().substring(0, 16).replace('T', ' ') + " UTC 起可删除）")
                    + (rt.kept_continuable() > 0 ? "，" + rt.kept_continuable() + " 条可续接" : "")
                    : "  Subagent traces (keep-days " + days + "): " + rt.kept_young() + " kept as too young"
                    + (rt.next_eligible_at() == null ? "" : " (first eligible " + rt.next_eligible_at().substring(0, 16).replace('T', ' ') + " UTC)")
                    + (rt.kept_continuable() > 0 ? ", " + rt.kept_continuable() + " continuable" : "")).append('\n');
        }
        topicGroups(sb, r.topic_groups(), z);
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

    private static void topicGroups(StringBuilder sb, AuditResult.TopicGroups tg, boolean z) {
        if (tg == null || tg.count() == 0) return;
        sb.append('\n').append(z ? "=== 主题分组（" + tg.count() + " 组）===" : "=== Topic groups (" + tg.count() + ") ===").append('\n');
        boolean renames = false, hermes = false, claude = false;
        for (AuditResult.TopicGroup g : tg.items()) {
            AuditResult.GroupAdvice a = g.advice();
            boolean cc = "claude".equals(g.store());
            if (cc) claude = true;
            else hermes = true;
            sb.append("  ").append(g.cluster_id()).append(" “").append(g.label()).append("”").append(z ? "（" + g.size() + " 条）→ " : " (" + g.size() + ") → ");
            switch (a.kind()) {
                case "project" -> sb.append(z ? "以 " + a.project_path() + " 建 Hermes 项目（归入 " + a.gathers() + " 条）"
                        : "Hermes Project on " + a.project_path() + " (gathers " + a.gathers() + ")");
                case "existing_project" -> sb.append(z ? "已在项目“" + a.project_name() + "”中" : "already in Project \"" + a.project_name() + "\"");
                case "claude_project" -> sb.append(z ? "已是 Claude Code 项目 " + a.project_path() + "（共 " + a.gathers() + " 条）"
                        : "already one Claude Code project: " + a.project_path() + " (" + a.gathers() + " sessions)");
                default -> {
                    if (cc) sb.append(z ? "标题前缀 " + a.prefix() + "（在 Claude Code 中用 /rename 设置）" : "title prefix " + a.prefix() + " (set with /rename in Claude Code)");
                    else sb.append(z ? "标题前缀 " + a.prefix() + "，改名 " + a.renames().size() + " 条" : "title prefix " + a.prefix() + ", "
                            + a.renames().size() + (a.renames().size() == 1 ? " rename" : " renames"));
                    if (!a.renames().isEmpty()) {
                        AuditResult.Rename e = a.renames().get(0);
                        sb.append(z ? "（如 “" : " (e.g. “").append(e.from()).append("” → “").append(e.to()).append(z ? "”）" : "”)");
                        if (!cc) renames = true;
                    }
                }
            }
            sb.append('\n');
        }
        more(sb, tg.left_out(), z ? "zh" : "en");
        if (hermes || !claude) {
            sb.append(z ? "  Hermes 项目按工作目录归组；共用同一目录（如主目录）的会话只能用标题前缀区分。" : "  Projects group by working directory; sessions that share one (e.g. your home) can only be grouped by a title prefix.");
            sb.append(renames ? (z ? "改名需你同意（如 g1=同意）。\n" : " Renames run only if approved (e.g. g1=approve).\n") : "\n");
        }
        if (claude) {
            sb.append(z ? "  Claude Code 的项目就是工作目录；Steward 不改写 Claude Code 会话的标题（会与运行中的 Claude Code 冲突），前缀请用 /rename 设置。\n"
                    : "  A Claude Code project is its working directory; Steward does not rename Claude Code sessions (it would race a running Claude Code): set a prefix with /rename.\n");
        }
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

    /**
     * The line that replaces rule D's collapsed line once that too went unanswered: a status, it asks nothing (nothing is
     * done; answering one of its sessions by id, or setting N, brings the questions back).
     */
    public static String statusLine(String rule, int count, int active, double threshold, String locale) {
        if (zh(locale)) {
            return "规则 " + rule + "（状态，不再询问）：活跃会话 " + active + " 个，超过 N=" + fmt(threshold) + "；" + count
                    + " 个可标记为已结束。提醒到上限后仍未获回答，所以不再询问、不做任何操作；按 id 回复其中任意一个或设置 N 即恢复询问";
        }
        return "Rule " + rule + " (status, not asked): " + active + " active sessions, more than N=" + fmt(threshold) + "; " + count
                + " could be marked as ended. The warning went unanswered at its cap, so it is no longer asked and nothing is done; "
                + "answering any of them by id, or setting N, asks again";
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
            // its topic is asked once, with another session; listed (LOW) when rule E went quiet
            if (it.rule().equals("E") && it.question() == null && !it.confidence().equals("LOW")) continue;
            place = heading(sb, it, place, r);
            boolean grouped = "grouped".equals(it.question()); // asked once, in its rule's line below
            // listed but not asked (a quiet condition, a deletion kept with its subagents): no question mark
            boolean listedOnly = question && it.question() == null && it.executable() && !it.action().equals("review");
            sb.append("  ").append(grouped || listedOnly ? "·" : mark).append(' ').append(it.session_id()).append(" — ").append(title(it.evidence().title(), l))
                    .append(" — ").append(it.reason());
            if (!grouped) sb.append(" → ").append(actionWord(it.action(), l)).append(question && !listedOnly && !it.action().equals("review") ? "?" : "");
            if (!it.executable() && !it.action().equals("review")) sb.append(zh(l) ? "（仅报告）" : " (report only)");
            sb.append('\n');
        }
    }

    private static void more(StringBuilder sb, int leftOut, String l) {
        if (leftOut > 0) sb.append(zh(l) ? "  …另有 " + leftOut + " 条未列出\n" : "  … " + leftOut + " more not listed\n");
    }
}
