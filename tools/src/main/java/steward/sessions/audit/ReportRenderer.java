package steward.sessions.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.sessions.rules.Rule;
import steward.sessions.rules.Rules;
import steward.text.Numbers;

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

    static boolean zh(String locale) {
        return "zh".equals(locale);
    }

    /** A report longer than this is rendered in its short form. */
    public static final int SHORT_FORM_OVER = 4000;

    /**
     * The readable report: one counted line per decision group (see {@link DecisionGroups}) with a few examples, so its length
     * depends on how many kinds of items there are, not on how many sessions; every item stays in structuredContent and the plan.
     * When that would exceed {@link #SHORT_FORM_OVER} characters, the short form: automatic lines without ids, one example
     * on each other line (the others, and every item, in structuredContent's decision_groups).
     */
    public static String render(AuditResult r) {
        String full = render(r, false);
        return full.length() <= SHORT_FORM_OVER ? full : render(r, true);
    }

    /** {@code compact}: automatic lines without ids, one example per other group line, kept reason and chain line, two topic groups. */
    static String render(AuditResult r, boolean compact) {
        String l = r.locale();
        boolean z = zh(l);
        StringBuilder sb = new StringBuilder();
        sb.append(RULE).append('\n');
        sb.append(z ? "  会话审计报告 — " : "  Session audit report — ")
                .append(r.now(), 0, 10)
                .append(r.mode().equals("headless") ? (z ? "（无人值守模式）" : " (headless)") : "")
                .append('\n');
        sb.append(RULE).append('\n');
        for (String w : r.housekeeping().warnings())
            if (w.startsWith("an apply or restore was interrupted"))
                sb.append("⚠ ").append(w).append('\n');
        if (plainHermes(r)) {
            totals(sb, null, r.totals(), r.current(), z);
        } else {
            for (AuditResult.StoreOut so : r.stores()) {
                String where = storeName(so.store()) + " — " + so.location();
                if (so.idle_hours() != null && so.totals().all() > 0) {
                    where += z
                            ? "（空闲 " + Numbers.plain(so.idle_hours()) + " 小时后视为已结束）"
                            : " (ended after " + Numbers.plain(so.idle_hours()) + " h idle)";
                }
                totals(sb, where, so.totals(), so.current(), z);
                for (String w : so.warnings()) sb.append("  ⚠ ").append(w).append('\n');
            }
        }
        sb.append(z ? "活跃阈值 N: " : "Active threshold N: ")
                .append(Numbers.plain(r.threshold()))
                .append('\n');
        AuditResult.ScheduledRuns sr = r.scheduled_runs();
        if (sr != null) {
            sb.append(
                    z
                            ? "定时整理（上次审计以来 " + sr.runs() + " 次，最近 "
                                    + sr.last_at().substring(0, 16).replace('T', ' ') + " UTC）: 删除 " + sr.deleted()
                                    + " 条子代理空壳（仅规则 A）"
                            : "Scheduled housekeeping since your last audit: " + sr.runs()
                                    + (sr.runs() == 1 ? " run" : " runs") + " (last "
                                    + sr.last_at().substring(0, 16).replace('T', ' ') + " UTC), deleted " + sr.deleted()
                                    + " finished subagent shells (rule A only)");
            if (!sr.backups().isEmpty())
                sb.append(z ? "，可用 session_restore 从 " : "; undo with session_restore from ")
                        .append(String.join(", ", sr.backups()));
            sb.append('\n');
            for (String p : sr.problems()) sb.append("  ⚠ ").append(p).append('\n');
        }
        List<AuditResult.DecisionGroup> dg = r.decision_groups() == null ? List.of() : r.decision_groups();
        // the short form names a rule once for the lines of one condition that follow each other (split by source)
        String[] last = {null};
        AuditResult.Groups g = r.groups();
        // runs automatically: one line per group, ids only
        sb.append('\n')
                .append(
                        z
                                ? "=== 自动执行（HIGH，" + g.auto().count() + " 条；q1=拒绝 即保留整组）==="
                                : "=== Runs automatically (HIGH, " + g.auto().count()
                                        + "; q1=reject keeps a group) ===")
                .append('\n');
        for (AuditResult.DecisionGroup d : dg)
            if (d.section().equals("auto")) groupLine(sb, d, "✓", false, l, r, compact ? last : null);
        // questions: MEDIUM, then LOW, one line per group
        int confirmCount =
                g.confirm().stream().mapToInt(AuditResult.RuleGroup::count).sum();
        boolean asks = false;
        for (String conf : List.of("MEDIUM", "LOW")) {
            int count = conf.equals("MEDIUM") ? confirmCount : g.info().count();
            if (count == 0) continue;
            last[0] = null; // a new section names its first line's rule
            sb.append('\n')
                    .append(
                            conf.equals("MEDIUM")
                                    ? (z
                                            ? "=== 需你确认（MEDIUM，" + count + " 条）==="
                                            : "=== Needs your answer (MEDIUM, " + count + ") ===")
                                    : (z
                                            ? "=== 仅供参考（LOW，" + count + " 条）==="
                                            : "=== For your information (LOW, " + count + ") ==="))
                    .append('\n');
            for (AuditResult.DecisionGroup d : dg) {
                if (!conf.equals(d.confidence())) continue;
                if (d.section().equals("ask") && !"collapsed".equals(d.question())) {
                    groupLine(sb, d, "?", true, l, r, compact ? last : null);
                    asks = true;
                } else if (d.section().equals("listed")
                        && !(d.rule().equals("E") && !d.confidence().equals("LOW"))) {
                    // (rule E's other sessions on a topic: the topic is asked once, with one of them)
                    groupLine(sb, d, "·", false, l, r, compact ? last : null);
                }
            }
        }
        for (AuditResult.RuleGroup c : g.collapsed()) {
            boolean status =
                    !c.items().isEmpty() && "status".equals(c.items().get(0).question());
            sb.append(status ? "  · " : "  ? ").append(c.summary()).append('\n');
            asks |= !status;
        }
        AuditResult.Questions q = r.questions();
        if (q != null && q.waiting() > 0) {
            sb.append(
                    z
                            ? "  ? 之前几次仍在等你回答: " + q.waiting() + " 条——请回答，或说“以后再说”"
                            : "  ? Still waiting from earlier runs: " + q.waiting() + " — answer or say 'later'");
            if (q.later() > 0) sb.append(z ? "（另有 " + q.later() + " 条已推迟）" : " (" + q.later() + " more put off)");
            sb.append('\n');
        } else if (q != null && q.later() > 0) {
            sb.append(z ? "  · 已推迟的问题: " + q.later() + " 条\n" : "  · Put off until later: " + q.later() + "\n");
        }
        if (q != null && q.not_asked() > 0) {
            sb.append(
                    z
                            ? "  · 本次未问（每次最多 " + q.cap() + " 个问题）: " + q.not_asked() + " 条（" + q.digest() + "），之后再问\n"
                            : "  · Not asked this run (at most " + q.cap() + " questions per run): " + q.not_asked()
                                    + " more (" + q.digest() + "), asked in later runs\n");
        }
        if (asks) {
            AuditResult.DecisionGroup first = dg.stream()
                    .filter(d -> d.section().equals("ask") && d.group_id() != null)
                    .findFirst()
                    .orElse(null);
            String gid = first == null ? "q1" : first.group_id(), rid = first == null ? "D" : first.rule();
            sb.append(
                    z
                            ? "  回答：整组（" + gid + "=同意/拒绝）、规则（" + rid + "=同意）或逐条（id=同意/拒绝）；整组或规则的回答只覆盖其行计数的问题。\n"
                            : "  Answer per group (" + gid + "=approve/reject), rule (" + rid
                                    + "=approve) or item (id=…); a group or rule answer covers only what its line counts.\n");
        }
        kept(sb, g.retained(), r.retention(), l, compact);
        topicGroups(sb, r.topic_groups(), z, compact ? TOPIC_LINES_SHORT : TOPIC_LINES);
        housekeeping(sb, r.housekeeping(), z, compact ? 1 : 2);
        AuditResult.LearningState ls = r.learning();
        if (ls != null && "corrupt".equals(ls.status())) {
            sb.append('\n')
                    .append(
                            z
                                    ? "⚠ 学习暂停（偏好存储无法读取，文件保持原样）: "
                                    : "⚠ learning paused (preference store unreadable, left as it is): ")
                    .append(ls.error())
                    .append('\n');
        } else if (ls != null && ls.rule_state() != null) {
            sb.append('\n')
                    .append(z ? "当前规则状态: " : "Current rule state: ")
                    .append(ls.rule_state())
                    .append('\n');
        }
        AuditResult.Expected e = r.expected();
        sb.append('\n');
        if (z) {
            sb.append("  清理后预期: 活跃 ")
                    .append(e.active_before())
                    .append("→")
                    .append(e.active_after_auto())
                    .append("  总 ")
                    .append(e.total_before())
                    .append("→")
                    .append(e.total_after_auto())
                    .append("（全部同意: 活跃→")
                    .append(e.active_after_all_approved())
                    .append("，总→")
                    .append(e.total_after_all_approved())
                    .append("）\n");
        } else {
            sb.append("  Expected after cleanup: active ")
                    .append(e.active_before())
                    .append("→")
                    .append(e.active_after_auto())
                    .append("  total ")
                    .append(e.total_before())
                    .append("→")
                    .append(e.total_after_auto())
                    .append(" (if all approved: active→")
                    .append(e.active_after_all_approved())
                    .append(", total→")
                    .append(e.total_after_all_approved())
                    .append(")\n");
        }
        sb.append(
                z
                        ? "计划 " + r.plan_id() + "，有效至 " + r.expires_at()
                                + "。删除前先备份；归档由你在界面中操作。"
                                + (compact
                                        ? "简版：示例与全部条目见 structuredContent 的 decision_groups 或计划文件。"
                                        : "全部条目: structuredContent 的 decision_groups[].item_ids 或计划文件。")
                        : "Plan " + r.plan_id() + ", valid until " + r.expires_at()
                                + ". Deletions are backed up first; archiving is yours, in the UI. "
                                + (compact
                                        ? "Short form: examples and every item in structuredContent's decision_groups, "
                                                + "or the plan file."
                                        : "All items: decision_groups[].item_ids in structuredContent, or the plan file."));
        return sb.toString();
    }

    /** One group: its id, rule condition, count (by source), the action (asked: with "?"), and a few examples. */
    private static void groupLine(
            StringBuilder sb,
            AuditResult.DecisionGroup d,
            String mark,
            boolean question,
            String l,
            AuditResult r,
            String[] last) {
        boolean compact = last != null;
        boolean z = zh(l);
        sb.append("  ").append(mark).append(' ');
        if (d.group_id() != null) sb.append(d.group_id()).append(' ');
        sb.append(d.condition() == null ? d.rule() : d.condition());
        boolean chains = DecisionGroups.CHAIN.equals(d.condition());
        Rule rule = chains ? null : Rules.byId(d.rule());
        String condition = d.rule() + "\u0000" + d.condition();
        if (chains && !(compact && condition.equals(last[0])))
            sb.append(z ? " 压缩续接链（整链删除）" : " Compaction chains, each deleted whole");
        if (rule != null && !(compact && condition.equals(last[0])))
            sb.append(' ').append(head(rule.meta().summary()));
        if (compact) last[0] = condition;
        sb.append(" · ");
        if (storesWithSessions(r) > 1) sb.append(storeName(d.store())).append(' ');
        sb.append(d.count()).append(" (");
        boolean claude = "claude".equals(d.store()); // its sources are projects, named by their working directory
        if (d.source() != null) sb.append(claude ? projectLabel(d.source(), r) : d.source());
        else {
            int i = 0;
            for (var e : d.sources().entrySet()) {
                sb.append(i++ == 0 ? "" : ", ")
                        .append(claude ? projectLabel(e.getKey(), r) : e.getKey())
                        .append(d.sources().size() > 1 ? " " + e.getValue() : "");
            }
        }
        sb.append(')');
        boolean listed = !question && !d.section().equals("auto");
        if (!listed || !d.action().equals("review")) {
            sb.append(" → ")
                    .append(actionWord(d.action(), l))
                    .append(question && !d.action().equals("review") ? "?" : "");
            if (listed) sb.append(z ? "（仅报告）" : " (report only)");
        }
        // the subagents these deletions take along (they go only with their parent, never by this line's answer), at
        // the end of the line so the examples' details are not read as theirs; the ones that make the answer matter
        // (kept, running, titled) named briefly
        String along = along(d, z);
        boolean ids = d.section().equals("auto"); // automatic: ids are enough (no decision needed)
        // the short form: no ids on automatic lines (nothing to decide there; a rejection needs only the group id),
        // one example on the others
        int shown = compact ? (ids ? 0 : 1) : ids ? 2 : d.examples().size();
        List<AuditResult.Example> xs =
                d.examples().subList(0, Math.min(shown, d.examples().size()));
        // what the rule saw: the part every example shares once ("ended, untitled"), each example's own part after it
        String shared = ids ? "" : shared(xs, d.count() == xs.size());
        if (!shared.isEmpty()) sb.append(z ? "（" + shared + "）" : " (" + shared + ")");
        if (xs.isEmpty()) {
            sb.append(along).append('\n');
            return;
        }
        sb.append(z ? "：" : ": ");
        for (int i = 0; i < xs.size(); i++) {
            AuditResult.Example x = xs.get(i);
            if (i > 0) sb.append(ids ? ", " : "; ");
            sb.append(x.session_id());
            if (ids) continue;
            if (x.title() != null && !x.title().isBlank())
                sb.append(" “").append(shorten(x.title(), 28)).append('”');
            String own = x.detail() == null
                    ? ""
                    : x.detail()
                            .substring(shared.length())
                            .replaceFirst("^[,，]\\s*", "")
                            .strip();
            if (!own.isEmpty()) sb.append(" (").append(own).append(')');
        }
        int more = d.count() - xs.size();
        if (more > 0) sb.append(z ? "，另 " + more + " 条" : ", +" + more + " more");
        sb.append(along).append('\n');
    }

    /** What a group's deletions take along: "; +2 subagents taken along (running: s1; titled: s2 “Findings”)". */
    private static String along(AuditResult.DecisionGroup d, boolean z) {
        if (d.takes_along() == 0) return "";
        StringBuilder sb = new StringBuilder(
                z
                        ? "；连同其子代理 " + d.takes_along() + " 个"
                        : d.takes_along() == 1
                                ? "; +1 subagent taken along"
                                : "; +" + d.takes_along() + " subagents taken along");
        if (!d.along_notable().isEmpty() && d.takes_along() > 3) {
            // many (a line of thousands): how many are kept, running or titled; who they are is in along_notable (the
            // first) and the plan, so the report stays short and still says the line takes such subagents along
            StringBuilder nb = new StringBuilder();
            for (String why : List.of("kept", "running", "titled")) {
                Integer n = d.along_counts().get(why);
                if (n == null) continue;
                nb.append(nb.length() == 0 ? "" : z ? "、" : ", ")
                        .append(z ? alongWord(why, z) + " " + n + " 个" : n + " " + alongWord(why, z));
            }
            sb.append(z ? "（其中" + nb + "）" : " (" + nb + " among them)");
        } else if (!d.along_notable().isEmpty()) {
            // a few: each notable one named with its title
            Map<String, List<String>> byWhy = new LinkedHashMap<>();
            for (AuditResult.Example x : d.along_notable())
                byWhy.computeIfAbsent(x.detail(), k -> new ArrayList<>())
                        .add(x.session_id()
                                + (x.title() == null || x.title().isBlank()
                                        ? ""
                                        : " “" + shorten(x.title(), 28) + "”"));
            StringBuilder nb = new StringBuilder();
            byWhy.forEach((why, ids) -> nb.append(nb.length() == 0 ? "" : "; ")
                    .append(alongWord(why, z))
                    .append(z ? "：" : ": ")
                    .append(String.join(z ? "、" : ", ", ids)));
            sb.append(z ? "（" + nb + "）" : " (" + nb + ")");
        }
        return sb.toString();
    }

    /**
     * The start of the examples' details they all share, cut after a whole clause ("ended, untitled, 23 messages" and
     * "ended, untitled, 39 messages" share "ended, untitled"); all of it only when they are equal and every item is an
     * example ({@code all}), else up to its last clause (the items not shown may differ there).
     */
    static String shared(List<AuditResult.Example> xs, boolean all) {
        if (xs.isEmpty() || xs.get(0).detail() == null) return "";
        String p = xs.get(0).detail();
        if (!all) {
            int cut = Math.max(p.lastIndexOf(", "), p.lastIndexOf('，'));
            p = cut < 0 ? "" : p.substring(0, cut);
        }
        for (AuditResult.Example x : xs) {
            String d = x.detail() == null ? "" : x.detail();
            int i = 0;
            while (i < p.length() && i < d.length() && p.charAt(i) == d.charAt(i)) i++;
            boolean clause = i == d.length() || d.startsWith(", ", i) || d.charAt(i) == '，';
            if (i < p.length() || !clause) {
                int cut = Math.max(p.lastIndexOf(", ", i), p.lastIndexOf('，', i));
                p = cut < 0 ? "" : p.substring(0, cut);
                if (p.isEmpty()) return "";
            }
        }
        return p;
    }

    /** A Claude Code project's working directory when its transcripts name one, else its directory name. */
    private static String projectLabel(String project, AuditResult r) {
        if (r.stores() != null) {
            for (AuditResult.StoreOut so : r.stores()) {
                for (AuditResult.ProjectOut p : so.projects())
                    if (p.project().equals(project) && p.cwd() != null) return p.cwd();
            }
        }
        return project;
    }

    /** Stores that have sessions: with more than one, each group line names its store. */
    static long storesWithSessions(AuditResult r) {
        return r.stores() == null
                ? 1
                : r.stores().stream().filter(s -> s.totals().all() > 0).count();
    }

    /** A rule summary's head: its words before the first colon ("Ended and untitled sessions: delete …" → "Ended and untitled sessions"). */
    static String head(String summary) {
        int c = summary.indexOf(':');
        return c < 0 ? summary : summary.substring(0, c);
    }

    static String shorten(String s, int max) {
        return s.codePointCount(0, s.length()) <= max ? s : s.substring(0, s.offsetByCodePoints(0, max - 1)) + "…";
    }

    /** Kept sessions: the count, the ones kept for a reason (current, in use), rule K's line, and how many had nothing to do. */
    private static String keptName(AuditResult.Item it) {
        return it.evidence().title() == null
                ? it.session_id()
                : it.session_id() + " “" + shorten(it.evidence().title(), 32) + '”';
    }

    private static void kept(
            StringBuilder sb, AuditResult.Group kept, AuditResult.Retention rt, String l, boolean compact) {
        boolean z = zh(l);
        sb.append('\n')
                .append(z ? "=== 保留（不操作，" + kept.count() + " 条）===" : "=== Kept (no action, " + kept.count() + ") ===")
                .append('\n');
        int plain = kept.count();
        // one line per reason: a reason shared by more than two sessions (e.g. the members of compaction chains still
        // in
        // use) is counted with two examples; the rest stay in structuredContent
        Map<String, List<AuditResult.Item>> byReason = new LinkedHashMap<>();
        for (AuditResult.Item it : kept.items()) {
            if (it.rule().equals("R") || it.rule().equals("K"))
                continue; // nothing to do; rule K has its own line below
            plain--;
            byReason.computeIfAbsent(it.reason(), k -> new ArrayList<>()).add(it);
        }
        for (var e : byReason.entrySet()) {
            List<AuditResult.Item> its = e.getValue();
            if (its.size() <= (compact ? 1 : 2)) {
                for (AuditResult.Item it : its)
                    sb.append("  · ")
                            .append(keptName(it))
                            .append(" — ")
                            .append(e.getKey())
                            .append('\n');
            } else {
                sb.append("  · ")
                        .append(its.size())
                        .append(z ? " 条 — " : " — ")
                        .append(e.getKey())
                        .append(z ? "：如 " : ": e.g. ")
                        .append(keptName(its.get(0)))
                        .append(compact ? "" : ", " + keptName(its.get(1)))
                        .append('\n');
            }
        }
        int young = rt == null ? 0 : rt.kept_young() + rt.kept_continuable();
        if (rt != null && young > 0) {
            plain -= young;
            String days = Numbers.plain(rt.keep_days());
            sb.append(
                            z
                                    ? "  · 子代理痕迹（保留期 " + days + " 天）: 保留 " + rt.kept_young() + " 条未满期"
                                            + (rt.next_eligible_at() == null
                                                    ? ""
                                                    : "（最早 "
                                                            + rt.next_eligible_at()
                                                                    .substring(0, 16)
                                                                    .replace('T', ' ') + " UTC 起可删除）")
                                            + (rt.kept_continuable() > 0 ? "，" + rt.kept_continuable() + " 条可续接" : "")
                                    : "  · Subagent traces (keep-days " + days + "): " + rt.kept_young()
                                            + " kept as too young"
                                            + (rt.next_eligible_at() == null
                                                    ? ""
                                                    : " (first eligible "
                                                            + rt.next_eligible_at()
                                                                    .substring(0, 16)
                                                                    .replace('T', ' ') + " UTC)")
                                            + (rt.kept_continuable() > 0
                                                    ? ", " + rt.kept_continuable() + " continuable"
                                                    : ""))
                    .append('\n');
        }
        if (plain > 0) sb.append(z ? "  · 其余 " + plain + " 条无需操作\n" : "  · " + plain + " more with nothing to do\n");
    }

    /** Topic groups: the count and the first few, each with what would show it together (the rest in structuredContent). */
    private static void topicGroups(StringBuilder sb, AuditResult.TopicGroups tg, boolean z, int lines) {
        if (tg == null || tg.count() == 0) return;
        sb.append('\n')
                .append(z ? "=== 主题分组（" + tg.count() + " 组）===" : "=== Topic groups (" + tg.count() + ") ===")
                .append('\n');
        boolean renames = false, claude = false;
        int shown = 0;
        for (AuditResult.TopicGroup g : tg.items()) {
            if (shown++ == lines) break;
            AuditResult.GroupAdvice a = g.advice();
            boolean cc = "claude".equals(g.store());
            claude |= cc;
            sb.append("  ")
                    .append(g.cluster_id())
                    .append(" “")
                    .append(g.label())
                    .append("”")
                    .append(z ? "（" + g.size() + " 条）→ " : " (" + g.size() + ") → ");
            switch (a.kind()) {
                case "project" ->
                    sb.append(
                            z
                                    ? "以 " + a.project_path() + " 建 Hermes 项目（归入 " + a.gathers() + " 条）"
                                    : "Hermes Project on " + a.project_path() + " (gathers " + a.gathers() + ")");
                case "existing_project" ->
                    sb.append(
                            z ? "已在项目“" + a.project_name() + "”中" : "already in Project \"" + a.project_name() + "\"");
                case "claude_project" ->
                    sb.append(
                            z
                                    ? "已是 Claude Code 项目 " + a.project_path() + "（共 " + a.gathers() + " 条）"
                                    : "already one Claude Code project: " + a.project_path() + " (" + a.gathers()
                                            + " sessions)");
                default -> {
                    if (cc)
                        sb.append(
                                z
                                        ? "标题前缀 " + a.prefix() + "（在 Claude Code 中用 /rename 设置）"
                                        : "title prefix " + a.prefix() + " (set with /rename in Claude Code)");
                    else
                        sb.append(
                                z
                                        ? "标题前缀 " + a.prefix() + "，改名 "
                                                + a.renames().size() + " 条"
                                        : "title prefix " + a.prefix() + ", "
                                                + a.renames().size()
                                                + (a.renames().size() == 1 ? " rename" : " renames"));
                    renames |= !cc && !a.renames().isEmpty();
                }
            }
            sb.append('\n');
        }
        int more = tg.count() - Math.min(tg.count(), lines);
        if (more > 0)
            sb.append(
                    z
                            ? "  …另有 " + more + " 组（见 structuredContent 的 topic_groups）\n"
                            : "  … " + more + " more in topic_groups (structuredContent)\n");
        if (renames) sb.append(z ? "  改名需你同意（如 g1=同意）。\n" : "  Renames run only if approved (e.g. g1=approve).\n");
        if (claude)
            sb.append(
                    z
                            ? "  Steward 不改写 Claude Code 会话标题（会与运行中的 Claude Code 冲突）。\n"
                            : "  Steward never renames Claude Code sessions (it would race a running Claude Code).\n");
    }

    /** A taken-along subagent's reason to matter, as the group line names it. */
    private static String alongWord(String why, boolean z) {
        return switch (why) {
            case "kept" -> z ? "你保留过" : "kept by you";
            case "running" -> z ? "仍在运行" : "running";
            default -> z ? "有标题" : "titled";
        };
    }

    /** Compaction chains (one line each, the first few) and what Hermes' own auto-prune will delete. */
    private static void housekeeping(StringBuilder sb, AuditResult.Housekeeping h, boolean z, int examples) {
        if (h == null) return;
        if (h.chains() > 0) {
            // one line: the count, then up to two chains the plan acts on (kept ones are the default), each with its
            // answer id and the sessions it stands for: an id never silently covers other sessions
            StringBuilder shownChains = new StringBuilder();
            int shown = 0;
            for (AuditResult.ChainOut c : h.chain_items()) {
                if (c.action().equals("retain") || shown == examples) continue;
                shownChains
                        .append(shown++ == 0 ? (z ? "，如 " : ", e.g. ") : "; ")
                        .append(c.chain_id())
                        .append(" “")
                        .append(c.title() == null ? "—" : c.title())
                        .append("” ×")
                        .append(c.size())
                        .append(" (")
                        .append(String.join(z ? "、" : ", ", c.session_ids().subList(0, Math.min(3, c.size()))))
                        .append(c.size() > 3 ? (z ? " 等" : ", …") : "")
                        .append(") → ")
                        .append(c.action());
            }
            sb.append('\n')
                    .append(
                            z
                                    ? "压缩续接链 " + h.chains() + " 条（整链处理"
                                    : "Compaction chains: " + h.chains() + " (each handled as a whole")
                    .append(shown == 0 ? "" : z ? "；链的 id 决定其全部会话" : "; its id answers for all of it")
                    .append(z ? "）" : ")")
                    .append(shownChains);
            sb.append(z ? "（全部见 housekeeping.chain_items）\n" : " (all: housekeeping.chain_items)\n");
        }
        AuditResult.HermesPrune hp = h.hermes_prune();
        if (hp != null && hp.enabled() && hp.due() + hp.due_within_7_days() > 0) {
            sb.append(
                    z
                            ? "Hermes 自动清理（sessions.auto_prune，" + Numbers.plain(hp.retention_days()) + " 天）将自行删除 "
                                    + hp.due()
                                    + " 条已结束会话"
                                    + (hp.next_run_after() == null
                                            ? "（下次启动时）"
                                            : "（" + hp.next_run_after().substring(0, 10) + " 之后的首次启动）")
                                    + "，7 天内另有 " + hp.due_within_7_days() + " 条\n"
                            : "Hermes' own auto_prune (" + Numbers.plain(hp.retention_days()) + " days) deletes "
                                    + hp.due()
                                    + " ended sessions itself"
                                    + (hp.next_run_after() == null
                                            ? " at its next start"
                                            : " at its first start after "
                                                    + hp.next_run_after().substring(0, 10))
                                    + ", " + hp.due_within_7_days() + " more within 7 days\n");
        }
    }

    /** Topic groups shown in the text (in the short form: {@link #TOPIC_LINES_SHORT}). */
    static final int TOPIC_LINES = 3, TOPIC_LINES_SHORT = 2;

    /** The one line that replaces a rule's questions once its warning has been ignored up to N's cap (rule D). */
    public static String collapsedLine(String rule, int count, int active, double threshold, String locale) {
        if (zh(locale)) {
            return "规则 " + rule + "：活跃会话 " + active + " 个，超过 N=" + Numbers.plain(threshold) + "（已到上限，提醒一直未获回答）；" + count
                    + " 个可标记为已结束——整组回复 " + rule + "=同意/拒绝，或说“以后再说”";
        }
        return "Rule " + rule + ": " + active + " active sessions, more than N=" + Numbers.plain(threshold)
                + " (its cap; this warning went unanswered); " + count + " could be marked as ended — answer " + rule
                + "=approve/reject for all, or say 'later'";
    }

    /**
     * The line that replaces rule D's collapsed line once that too went unanswered: a status, it asks nothing (nothing is
     * done; answering one of its sessions by id, or setting N, brings the questions back).
     */
    public static String statusLine(String rule, int count, int active, double threshold, String locale) {
        if (zh(locale)) {
            return "规则 " + rule + "（状态，不再询问）：活跃会话 " + active + " 个，超过 N=" + Numbers.plain(threshold) + "；" + count
                    + " 个可标记为已结束。提醒到上限后仍未获回答，所以不再询问、不做任何操作；按 id 回复其中任意一个或设置 N 即恢复询问";
        }
        return "Rule " + rule + " (status, not asked): " + active + " active sessions, more than N="
                + Numbers.plain(threshold)
                + "; " + count
                + " could be marked as ended. The warning went unanswered at its cap, so it is no longer asked and nothing is done; "
                + "answering any of them by id, or setting N, asks again";
    }

    /** A report of one Hermes store reads as it always did: no store headings. */
    static boolean plainHermes(AuditResult r) {
        return r.stores() == null
                || r.stores().isEmpty()
                || r.stores().size() == 1 && "hermes".equals(r.stores().get(0).store());
    }

    static String storeName(String store) {
        return "claude".equals(store) ? "Claude Code" : "Hermes";
    }

    /** One line per store: where, how many sessions, active (and the current one), ended, archived. */
    private static void totals(
            StringBuilder sb, String where, AuditResult.Totals t, AuditResult.Current cur, boolean z) {
        if (where != null) sb.append(where).append(": ");
        if (where != null && t.all() == 0) {
            sb.append(z ? "没有会话\n" : "no sessions\n");
            return;
        }
        String current = cur.session_id() == null ? (z ? "未知" : "unknown") : cur.session_id();
        if (z) {
            sb.append("总记录 ")
                    .append(t.all())
                    .append(" 条，活跃 ")
                    .append(t.active())
                    .append("（当前: ")
                    .append(current)
                    .append("），已结束 ")
                    .append(t.ended())
                    .append("，已归档 ")
                    .append(t.archived())
                    .append('\n');
        } else {
            sb.append(t.all())
                    .append(" sessions, ")
                    .append(t.active())
                    .append(" active (current: ")
                    .append(current)
                    .append("), ")
                    .append(t.ended())
                    .append(" ended, ")
                    .append(t.archived())
                    .append(" archived\n");
        }
    }
}
