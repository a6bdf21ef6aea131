package steward.sessions.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.sessions.rules.RuleContext;
import steward.sessions.store.SessionRow;

/**
 * A compaction chain (RuleContext#chains: continuations of a parent Hermes ended for {@code compression}) is one
 * conversation, so it is deleted as a whole or not at all, and the cascade rule holds for it too: the chain is never
 * deleted at a higher confidence than its least certain member. When every member has a deletion (or is left to Hermes'
 * own auto-prune, rule H), each member's deletion gets the chain's lowest confidence and the chain's id ({@code chain}),
 * and session_apply runs them only all together. When a member is kept or asked about anything else, the chain is kept:
 * its members' deletions become report-only lines that say so. Every item of a chain member carries the chain id, so the
 * report can show the chain as one line.
 *
 * <p>Trust: a chain's id is its own answer id ({@code c1}, …, see {@link Ids}), never a session id, so an answer on a
 * session's id is an answer on that session only; only the chain's id, shown on the chain's line with its members
 * counted, decides the whole chain.
 */
final class Chains {
    private Chains() {}

    /**
     * The chains' answer ids of one audit: {@code c1}, {@code c2}, … in report order over every home, skipping any id that
     * is a session id of a home audited so far (so an id never stands for a session and a chain at once).
     */
    static final class Ids {
        private final Set<String> taken = new HashSet<>();
        private final Map<RuleContext, Map<String, String>> byContext = new IdentityHashMap<>();
        private int n;

        /** Numbers the chains of one home (keyed by their oldest session) and returns oldest session → answer id. */
        Map<String, String> assign(RuleContext ctx, List<SessionRow> rows) {
            Map<String, String> out = byContext.get(ctx);
            if (out != null) return out;
            for (SessionRow r : rows) taken.add(r.id());
            out = new HashMap<>();
            for (String oldest : ctx.chains().keySet()) {
                String id;
                do id = "c" + (++n);
                while (taken.contains(id));
                out.put(oldest, id);
            }
            byContext.put(ctx, out);
            return out;
        }

        /** The answer id of the chain headed by {@code oldest} in this home (null: none assigned). */
        String of(RuleContext ctx, String oldest) {
            Map<String, String> m = byContext.get(ctx);
            return m == null ? null : m.get(oldest);
        }
    }

    static void apply(Map<String, Plan.PlanItem> items, RuleContext ctx, String locale, Map<String, String> ids) {
        boolean zh = "zh".equals(locale);
        for (Map.Entry<String, List<String>> chain : ctx.chains().entrySet()) {
            String id = ids.get(chain.getKey());
            List<String> members = chain.getValue();
            List<Plan.PlanItem> own = new ArrayList<>();
            boolean anyDelete = false, allDelete = true, exec = true, guarded = false;
            String lowest = "HIGH";
            String keeper = null;
            for (String m : members) {
                Plan.PlanItem p = items.get(m);
                boolean hermes = p != null && p.rule().equals("H");
                boolean del = p != null && p.cascade_of() == null && p.action().equals("delete");
                if (p != null) own.add(p);
                if (del) {
                    anyDelete = true;
                    exec &= p.executable();
                    guarded |= p.guarded();
                    if (rank(p.confidence()) < rank(lowest)) lowest = p.confidence();
                } else if (!hermes) {
                    allDelete = false;
                    if (keeper == null) keeper = m;
                }
            }
            if (own.isEmpty()) continue;
            int n = members.size();
            for (Plan.PlanItem p : own) {
                boolean del = p.cascade_of() == null && p.action().equals("delete");
                Plan.PlanItem out;
                if (!anyDelete || !del) {
                    out = p.inChain(id, p.action(), p.confidence(), p.executable(), p.reason(), p.guarded());
                } else if (allDelete) {
                    String why = p.reason()
                            + (zh
                                    ? "（压缩续接链 " + id + "，共 " + n + " 个会话，一并删除）"
                                    : " (compaction chain " + id + ", " + n + " sessions, deleted together)");
                    out = p.inChain(id, "delete", lowest, exec, why, guarded);
                } else {
                    String why = p.reason()
                            + (zh
                                    ? "（但它属于压缩续接链 " + id + "，其中 " + keeper + " 要保留或另行询问：整条链保留）"
                                    : " (but it belongs to compaction chain " + id + ", whose session " + keeper
                                            + " is kept or asked about otherwise: the chain is kept as a whole)");
                    out = p.inChain(id, "review", "LOW", false, why, p.guarded());
                }
                items.put(p.session_id(), out);
                if (out.action().equals("review") && del) {
                    // the subagents its deletion would have taken along stay with it
                    for (Plan.PlanItem c : new ArrayList<>(items.values())) {
                        if (!p.session_id().equals(c.cascade_of())) continue;
                        items.put(c.session_id(), c.inChain(null, "review", "LOW", false, c.reason(), c.guarded()));
                    }
                }
            }
        }
    }

    private static int rank(String confidence) {
        return switch (confidence) {
            case "HIGH" -> 2;
            case "MEDIUM" -> 1;
            default -> 0;
        };
    }
}
