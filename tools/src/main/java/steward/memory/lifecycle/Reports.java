package steward.memory.lifecycle;

import java.util.HashMap;
import java.util.Map;

/** The change reports of {@code memory_consolidate}, in the user's language (English or Chinese). */
final class Reports {
    private Reports() {}

    /** The words of a plan report in one language; {@code %s} stands for a value. */
    private record PlanWords(
            String header, String counts, String moves, String prunes, String skills, String warning, String last) {}

    private static final PlanWords PLAN_ZH = new PlanWords(
            "整理计划 %s（%s，%s）：%s → %s 字符（上限 %s）\n",
            "新增 %s，再次提及 %s，晋升 %s，降级 %s，取代 %s，补前缀 %s\n",
            "移动 %s 个文件（旧日志归档 / 多余 .bak 转入 Steward 备份，字节不变）\n",
            "待确认的裁剪（不确认就不删除）：\n",
            "建议写入 Skill 踩坑区：%s 条\n",
            "注意：",
            "确认后用 plan_id 执行 apply（可附 confirm_prune）。");

    private static final PlanWords PLAN_EN = new PlanWords(
            "Consolidation plan %s (%s, %s): %s → %s chars (limit %s)\n",
            "added %s, mentioned again %s, promoted %s, demoted %s, superseded %s, prefixed %s\n",
            "moves %s file(s) (old logs to archive/, surplus .bak to Steward's backups; bytes unchanged)\n",
            "prune proposals (nothing is removed unless confirmed):\n",
            "suggested for a skill's pitfalls section: %s\n",
            "warning: ",
            "Show this to the user; apply with plan_id (and confirm_prune for the items they approve).");

    static String plan(Consolidation.PlanResult r, String locale) {
        Map<String, Long> c = counts(r);
        PlanWords w = "zh".equals(locale) ? PLAN_ZH : PLAN_EN;
        StringBuilder sb = new StringBuilder();
        sb.append(w.header().formatted(r.plan_id(), r.scope(), r.file(), r.chars_before(), r.chars_after(), r.limit()));
        sb.append(w.counts()
                .formatted(
                        c.get("add"),
                        c.get("mention"),
                        c.get("promote"),
                        c.get("demote"),
                        c.get("supersede"),
                        c.get("prefix")));
        long moves = r.files().stream().filter(f -> f.op().equals("move")).count();
        if (moves > 0) sb.append(w.moves().formatted(moves));
        if (!r.prune().isEmpty()) {
            sb.append(w.prunes());
            for (var p : r.prune())
                sb.append("  ")
                        .append(p.id())
                        .append(" ")
                        .append(p.rule())
                        .append(" ")
                        .append(p.entry())
                        .append("\n");
        }
        if (!r.skill_suggestions().isEmpty())
            sb.append(w.skills().formatted(r.skill_suggestions().size()));
        for (String x : r.warnings()) sb.append(w.warning()).append(x).append("\n");
        sb.append(w.last());
        return sb.toString();
    }

    private static Map<String, Long> counts(Consolidation.PlanResult r) {
        Map<String, Long> m = new HashMap<>();
        for (String k : new String[] {"add", "mention", "promote", "demote", "supersede", "prefix"}) {
            m.put(k, r.changes().stream().filter(x -> x.action().equals(k)).count());
        }
        return m;
    }

    static String apply(Consolidation.ApplyResult r, String locale) {
        Map<String, Integer> c = r.counts();
        if ("zh".equals(locale)) {
            return "已执行整理 " + r.plan_id() + "（" + r.scope() + "）：" + r.chars_before() + " → " + r.chars_after()
                    + " 字符；新增 " + c.getOrDefault("add", 0)
                    + "，晋升 " + c.getOrDefault("promote", 0) + "，降级 " + c.getOrDefault("demote", 0) + "，取代 "
                    + c.getOrDefault("supersede", 0)
                    + "，归档日志 " + c.getOrDefault("archived", 0) + "，移走 .bak " + c.getOrDefault("baks_moved", 0) + "，裁剪 "
                    + r.pruned().size()
                    + "（已存入 archive/pruned.md）。备份：" + r.backup_dir()
                    + (r.version() == null ? "" : "；版本 " + r.version());
        }
        return "Applied " + r.plan_id() + " (" + r.scope() + "): " + r.chars_before() + " → " + r.chars_after()
                + " chars; added " + c.getOrDefault("add", 0)
                + ", promoted " + c.getOrDefault("promote", 0) + ", demoted " + c.getOrDefault("demote", 0)
                + ", superseded " + c.getOrDefault("supersede", 0)
                + ", logs archived " + c.getOrDefault("archived", 0) + ", .bak moved " + c.getOrDefault("baks_moved", 0)
                + ", pruned " + r.pruned().size()
                + " (kept in archive/pruned.md). Backup: " + r.backup_dir()
                + (r.version() == null ? "" : "; version " + r.version());
    }
}
