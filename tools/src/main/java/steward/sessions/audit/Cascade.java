package steward.sessions.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.sessions.rules.HermesPruneRule;
import steward.sessions.rules.RuleContext;
import steward.sessions.rules.SubagentRetentionRule;
import steward.sessions.store.SessionRow;

/**
 * The cascade never outranks the child. Deleting a session deletes its subagent children (as Hermes does), so a
 * deletion may run automatically only when every such descendant would also run automatically on its own (its own
 * item is a HIGH, executable deletion, and it is neither kept by the user nor a child with such a descendant itself).
 * Otherwise the deletion becomes a question that names each of those descendants and what happens to them, and the
 * descendants get items that go only with it ({@code cascade_of}). The question records what kind each such descendant
 * is ({@code along}: kept, running, titled, other); when the user answered "keep both" every time for those kinds
 * (QuietRule on {@code <rule>/with_<kind>}), it is listed at LOW and not asked: both stay. Learning never makes a
 * descendant go unasked.
 */
final class Cascade {
    private Cascade() {}

    /** Where a deletion's reason starts naming what it takes along (asked or quiet). */
    static final String ALONG_EN = "; deleting it ", ALONG_ZH = "；删除它会同时删除";

    /** The most children named in one question's reason; the plan item lists all of them in {@code held_by}. */
    static final int MAX_NAMED = 10;

    private static final SubagentRetentionRule RETENTION = new SubagentRetentionRule();

    static void apply(Map<String, Plan.PlanItem> items, RuleContext ctx, String locale) {
        Map<String, Boolean> memo = new HashMap<>();
        for (String id : new ArrayList<>(items.keySet())) {
            Plan.PlanItem p = items.get(id);
            if (p == null || p.cascade_of() != null || !p.action().equals("delete")) continue;
            // no subagent child: nothing it takes along, nothing held
            if (ctx.subagentChildren(id).isEmpty()) continue;
            List<SessionRow> held = new ArrayList<>();
            Map<String, String> parentOf = new HashMap<>();
            for (SessionRow c : descendants(id, ctx, parentOf))
                if (!ownAuto(c, items, ctx, memo, new LinkedHashSet<>())) held.add(c);
            if (held.isEmpty()) continue;
            boolean zh = "zh".equals(locale);
            List<String> kinds =
                    held.stream().map(c -> kind(c, ctx)).distinct().sorted().toList();
            // the user answered "keep both" every time for subagents of these kinds: listed, not asked, both stay
            boolean quiet = ctx.preferences().alongQuiet(p.rule(), kinds)
                    && !ctx.preferences().protectedSession(id);
            String conf = quiet ? "LOW" : p.confidence().equals("HIGH") ? "MEDIUM" : p.confidence();
            String reason = p.reason() + (quiet ? quietNote(held, kinds, ctx, zh) : question(held, ctx, zh));
            items.put(
                    id,
                    p.withAlong(conf, reason, held.stream().map(SessionRow::id).toList(), kinds));
            for (SessionRow c : held) {
                String parent = parentOf.get(c.id());
                String why = zh
                        ? parent + " 的子代理：只有你同意删除 " + id + " 时才随之删除（与 Hermes 一致）"
                        : "subagent of " + parent + ": deleted only if you approve deleting " + id
                                + " (Hermes deletes children with their parent)";
                items.remove(c.id());
                items.put(
                        c.id(),
                        Plan.PlanItem.of(
                                c.id(),
                                c.id(),
                                p.rule(),
                                p.condition(),
                                "delete",
                                conf,
                                p.executable(),
                                why,
                                parent,
                                null,
                                AuditEngine.fingerprint(c),
                                p.base(),
                                false,
                                p.store()));
                memo.put(c.id(), false);
            }
            memo.put(id, false);
        }
    }

    /** Every subagent descendant of {@code id} (children, their children, …), parents before children. */
    static List<SessionRow> descendants(String id, RuleContext ctx, Map<String, String> parentOf) {
        List<SessionRow> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        seen.add(id);
        List<String> frontier = List.of(id);
        while (!frontier.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (String f : frontier) {
                for (SessionRow c : ctx.subagentChildren(f)) {
                    if (!seen.add(c.id())) continue;
                    parentOf.put(c.id(), f);
                    out.add(c);
                    next.add(c.id());
                }
            }
            frontier = next;
        }
        return out;
    }

    /** Would this session be deleted automatically on its own, together with everything its deletion takes along? */
    static boolean ownAuto(
            SessionRow c,
            Map<String, Plan.PlanItem> items,
            RuleContext ctx,
            Map<String, Boolean> memo,
            Set<String> visiting) {
        Boolean known = memo.get(c.id());
        if (known != null) return known;
        if (!visiting.add(c.id())) return false;
        Plan.PlanItem own = items.get(c.id());
        boolean auto = own != null
                && own.cascade_of() == null
                && own.action().equals("delete")
                && own.automatic()
                && !ctx.preferences().protectedSession(c.id())
                && !own.guarded();
        if (auto) {
            for (SessionRow g : ctx.subagentChildren(c.id())) {
                if (!ownAuto(g, items, ctx, memo, visiting)) {
                    auto = false;
                    break;
                }
            }
        }
        memo.put(c.id(), auto);
        return auto;
    }

    private static String question(List<SessionRow> held, RuleContext ctx, boolean zh) {
        StringBuilder sb = new StringBuilder();
        int n = held.size();
        if (zh) sb.append(ALONG_ZH).append(n == 1 ? "其子代理 " : "其 " + n + " 个子代理：");
        else sb.append("; deleting it also deletes ").append(n == 1 ? "its subagent " : "its " + n + " subagents ");
        for (int i = 0; i < Math.min(n, MAX_NAMED); i++) {
            if (i > 0) sb.append(zh ? "、" : ", ");
            SessionRow c = held.get(i);
            sb.append(c.id())
                    .append(zh ? "（" : " (")
                    .append(describe(c, ctx, zh))
                    .append(zh ? "）" : ")");
        }
        if (n > MAX_NAMED) sb.append(zh ? " 等另 " + (n - MAX_NAMED) + " 个" : " and " + (n - MAX_NAMED) + " more");
        sb.append(
                zh
                        ? (n == 1 ? "：同意则一并删除，拒绝则两者都保留" : "：同意则全部删除，拒绝则全部保留")
                        : (n == 1
                                ? ": approve to delete both, reject to keep both"
                                : ": approve to delete them all, reject to keep them all"));
        return sb.toString();
    }

    /** Why this child would not go on its own, as a learning kind: kept (by the user), running, titled, other. */
    static String kind(SessionRow c, RuleContext ctx) {
        if (ctx.preferences().protectedSession(c.id())) return "kept";
        if (c.active()) return "running";
        if (!c.untitled()) return "titled";
        return "other";
    }

    private static String quietNote(List<SessionRow> held, List<String> kinds, RuleContext ctx, boolean zh) {
        StringBuilder sb = new StringBuilder(zh ? ALONG_ZH : "; deleting it would also delete ");
        int n = held.size();
        for (int i = 0; i < Math.min(n, MAX_NAMED); i++) {
            if (i > 0) sb.append(zh ? "、" : ", ");
            SessionRow c = held.get(i);
            sb.append(c.id())
                    .append(zh ? "（" : " (")
                    .append(describe(c, ctx, zh))
                    .append(zh ? "）" : ")");
        }
        if (n > MAX_NAMED) sb.append(zh ? " 等另 " + (n - MAX_NAMED) + " 个" : " and " + (n - MAX_NAMED) + " more");
        String what = String.join(
                zh ? "、" : "/", kinds.stream().map(k -> kindWord(k, zh)).toList());
        sb.append(
                zh
                        ? "：这类删除（会带走" + what + "的子代理）你每次都选择两者都保留，所以只列出、不再询问，两者都保留（要删除请按 id 同意）"
                        : ": you kept both every time a deletion would take a " + what
                                + " subagent along, so it is listed, not asked, and both stay "
                                + "(approve it by id to delete both)");
        return sb.toString();
    }

    private static String kindWord(String kind, boolean zh) {
        return switch (kind) {
            case "kept" -> zh ? "你保留过" : "kept";
            case "running" -> zh ? "仍在运行" : "running";
            case "titled" -> zh ? "有标题" : "titled";
            default -> zh ? "不会单独删除" : "not-on-its-own";
        };
    }

    /** What makes this child need a question: kept by the user, still running, titled, or not deleted on its own. */
    static String describe(SessionRow c, RuleContext ctx, boolean zh) {
        String keptOn = ctx.preferences().keptOn(c.id());
        String title =
                c.untitled() ? (zh ? "无标题" : "untitled") : (zh ? "“" + c.title() + "”" : "\"" + c.title() + "\"");
        String size =
                zh ? c.messageCount() + " 条消息" : c.messageCount() + (c.messageCount() == 1 ? " message" : " messages");
        String why;
        if (ctx.preferences().kept(c.id())
                || keptOn != null
                || ctx.preferences().renamed(c.id())) {
            why = keptOn != null
                    ? (zh ? "你在 " + keptOn + " 保留过它" : "you kept it on " + keptOn)
                    : (zh ? "你保留过它" : "you kept it");
        } else if (HermesPruneRule.dueAt(c, ctx) != null && HermesPruneRule.dueAt(c, ctx) <= ctx.now()) {
            why = zh ? "Hermes 的 auto_prune 也会删除它" : "Hermes' auto_prune deletes it anyway";
        } else if (c.active()) {
            why = zh ? "仍在运行" : "still running";
        } else if (!c.untitled()) {
            why = zh ? "有标题，不会被单独删除" : "titled, never deleted on its own";
        } else if (RETENTION.evaluate(c, ctx).isPresent()) {
            why = RETENTION.evaluate(c, ctx).get().reason().in(zh ? "zh" : "en"); // rule K: young or continuable
        } else {
            why = zh ? "不会被自动单独删除" : "not deleted automatically on its own";
        }
        return title + (zh ? "，" : ", ") + size + (zh ? "，" : ", ") + why;
    }
}
