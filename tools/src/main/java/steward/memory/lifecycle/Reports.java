package steward.memory.lifecycle;

import java.util.HashMap;
import java.util.Map;

/** The change reports of {@code memory_consolidate}, in the user's language (English or Chinese). */
final class Reports {
    private Reports() {}

    static String plan(Consolidation.PlanResult r, String locale) {
        Map<String, Long> c = counts(r);
        boolean zh = "zh".equals(locale);
        StringBuilder sb = new StringBuilder();
        if (zh) {
            sb.append("整理计划 ")
                    .append(r.plan_id())
                    .append("（")
                    .append(r.scope())
                    .append("，")
                    .append(r.file())
                    .append("）：")
                    .append(r.chars_before())
                    .append(" → ")
                    .append(r.chars_after())
                    .append(" 字符（上限 ")
                    .append(r.limit())
                    .append("）\n");
            sb.append("新增 ")
                    .append(c.get("add"))
                    .append("，再次提及 ")
                    .append(c.get("mention"))
                    .append("，晋升 ")
                    .append(c.get("promote"))
                    .append("，降级 ")
                    .append(c.get("demote"))
                    .append("，取代 ")
                    .append(c.get("supersede"))
                    .append("，补前缀 ")
                    .append(c.get("prefix"))
                    .append("\n");
            long moves = r.files().stream().filter(f -> f.op().equals("move")).count();
            if (moves > 0) sb.append("移动 ").append(moves).append(" 个文件（旧日志归档 / 多余 .bak 转入 Steward 备份，字节不变）\n");
            if (!r.prune().isEmpty()) {
                sb.append("待确认的裁剪（不确认就不删除）：\n");
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
                sb.append("建议写入 Skill 踩坑区：")
                        .append(r.skill_suggestions().size())
                        .append(" 条\n");
            for (String w : r.warnings()) sb.append("注意：").append(w).append("\n");
            sb.append("确认后用 plan_id 执行 apply（可附 confirm_prune）。");
        } else {
            sb.append("Consolidation plan ")
                    .append(r.plan_id())
                    .append(" (")
                    .append(r.scope())
                    .append(", ")
                    .append(r.file())
                    .append("): ")
                    .append(r.chars_before())
                    .append(" → ")
                    .append(r.chars_after())
                    .append(" chars (limit ")
                    .append(r.limit())
                    .append(")\n");
            sb.append("added ")
                    .append(c.get("add"))
                    .append(", mentioned again ")
                    .append(c.get("mention"))
                    .append(", promoted ")
                    .append(c.get("promote"))
                    .append(", demoted ")
                    .append(c.get("demote"))
                    .append(", superseded ")
                    .append(c.get("supersede"))
                    .append(", prefixed ")
                    .append(c.get("prefix"))
                    .append("\n");
            long moves = r.files().stream().filter(f -> f.op().equals("move")).count();
            if (moves > 0)
                sb.append("moves ")
                        .append(moves)
                        .append(
                                " file(s) (old logs to archive/, surplus .bak to Steward's backups; bytes unchanged)\n");
            if (!r.prune().isEmpty()) {
                sb.append("prune proposals (nothing is removed unless confirmed):\n");
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
                sb.append("suggested for a skill's pitfalls section: ")
                        .append(r.skill_suggestions().size())
                        .append("\n");
            for (String w : r.warnings()) sb.append("warning: ").append(w).append("\n");
            sb.append("Show this to the user; apply with plan_id (and confirm_prune for the items they approve).");
        }
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
