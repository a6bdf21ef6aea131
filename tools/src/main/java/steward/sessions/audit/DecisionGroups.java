package steward.sessions.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import steward.learning.Preferences;
import steward.sessions.store.SessionRow;

/**
 * The report's groups: every plan item (rule G's renames have their topic groups) falls in one group of the same section,
 * store, rule condition, action, confidence and way of asking (and session source, for a condition of more than
 * {@link #SPLIT_BY_SOURCE} items), so a home of 50,000 sessions reads as a
 * screen of counted lines, each with a few examples. Generic over rule ids, conditions, actions and sources: a new rule
 * groups without any change here.
 *
 * <p>Trust: a group that may be answered as a whole gets an id ({@code q1}, …) stored on each of its plan items, so an
 * answer by group id covers exactly the items that were counted in its line, never an item of another section (waiting,
 * not asked, report only) and never a child going along with its parent (cascade children follow their parent, and a
 * child's own answer still keeps the parent: see {@code ApplyEngine.decide}). A deletion asked because of the subagents it
 * takes along stays in its condition's group, which counts those subagents ({@code takes_along}) in its line. Sessions
 * the user kept before, and deletions that would take such a session along, are asked by name: each is a group of its own.
 */
public final class DecisionGroups {
    private DecisionGroups() {}

    /** Examples shown per group line. */
    public static final int EXAMPLES = 3;
    /** Item ids listed per group in structuredContent (the plan file holds all of them). */
    public static final int IDS_PER_GROUP = 1000;

    /** A condition with more items than this is split into one group per session source. */
    public static final int SPLIT_BY_SOURCE = 20;

    /** Section order in the report. */
    static final List<String> SECTIONS = List.of("auto", "ask", "waiting", "not_asked", "status", "listed", "along");

    /** The section of an item: where the report shows it and whether a group answer may decide it. */
    static String section(Plan.PlanItem it) {
        if (it.cascade_of() != null) return "along";
        if (it.question() == null) return it.automatic() ? "auto" : "listed";
        if (it.coveredByRuleDecision()) return "ask";
        return switch (it.question()) {
            case "waiting", "later" -> "waiting";
            case "status" -> "status";
            default -> "not_asked";
        };
    }

    /** A group answer decides the items of these sections: auto (a rejection keeps them) and ask. */
    static boolean answerable(String section) {
        return section.equals("auto") || section.equals("ask");
    }

    public record Result(Map<String, Plan.PlanItem> items, List<AuditResult.DecisionGroup> groups) {}

    private static final class Building {
        final String section, store, source, rule, condition, action, confidence, question;
        final boolean named;
        final List<Plan.PlanItem> items = new ArrayList<>();
        final Map<String, int[]> sources = new HashMap<>();
        final int order;
        /** The group id ({@code q1}, …) when a group answer may decide its items. */
        String id;

        Building(String section, String store, String source, Plan.PlanItem it, boolean named, int order) {
            this.section = section;
            this.store = store;
            this.source = source;
            this.rule = it.rule();
            this.condition = chainDeletion(it) ? CHAIN : it.condition();
            this.action = it.action();
            this.confidence = it.confidence();
            this.question = it.question() == null ? null : it.question().equals("later") ? "waiting" : it.question();
            this.named = named;
            this.order = order;
        }
    }

    /** One condition key's count, and (memo) the group its items fall in: by source when the condition is split. */
    private static final class Condition {
        final String key;
        int count;
        Building only;
        Map<String, Building> bySource;

        Condition(String key) {
            this.key = key;
        }
    }

    /** Everything of a condition key but the session id of an item asked by name: memo of its joined prefix. */
    private record Prefix(
            String section,
            String store,
            String rule,
            String condition,
            String action,
            String confidence,
            String question) {}

    /**
     * Groups {@code items} (report order) and sets each answerable item's group id; {@code rowOf} gives an item's session
     * (its source), {@code prefs} which sessions the user kept before.
     */
    public static Result build(
            Map<String, Plan.PlanItem> items, Function<Plan.PlanItem, SessionRow> rowOf, Preferences prefs) {
        // a condition's items form one group; a condition with more than SPLIT_BY_SOURCE items is split by session
        // source
        // (20,000 cron sessions and 50 cli ones are different decisions)
        // each item's condition key, section and source are computed once; keys are the same strings as ever (the
        // memos below only avoid rebuilding equal strings), so the groups are too
        int size = items.size();
        Plan.PlanItem[] its = new Plan.PlanItem[size];
        String[] sectionOf = new String[size];
        String[] sourceOf = new String[size];
        boolean[] namedOf = new boolean[size];
        Condition[] conditionOf = new Condition[size];
        Map<Prefix, String> prefixes = new HashMap<>();
        Map<String, Condition> perCondition = new HashMap<>();
        Prefix lastKey = null;
        String lastPrefix = null;
        int i = 0;
        for (Plan.PlanItem it : items.values()) {
            String section = section(it);
            boolean named = named(it, section, prefs);
            String store = it.storeName(), condition = String.valueOf(it.condition()), question = question(it);
            // a compaction chain's deletions are one line with the other chains decided alike, whatever rules its
            // members matched: a group answer then decides whole chains (never one member of a chain)
            boolean chain = chainDeletion(it);
            // items come in rule order: most share the previous item's prefix
            Prefix key = new Prefix(
                    section,
                    store,
                    chain ? CHAIN : it.rule(),
                    chain ? CHAIN : condition,
                    it.action(),
                    it.confidence(),
                    question);
            if (!key.equals(lastKey)) {
                lastKey = key;
                lastPrefix = prefixes.computeIfAbsent(key, DecisionGroups::joined);
            }
            String prefix = lastPrefix;
            String ck = named ? prefix + it.session_id() : prefix;
            Condition c = perCondition.computeIfAbsent(ck, Condition::new);
            c.count++;
            its[i] = it;
            sectionOf[i] = section;
            namedOf[i] = named;
            conditionOf[i] = c;
            sourceOf[i] = source(rowOf.apply(it));
            i++;
        }
        Map<String, Building> byKey = new HashMap<>();
        List<Building> created = new ArrayList<>();
        Building[] groupOf = new Building[size];
        for (i = 0; i < size; i++) {
            Plan.PlanItem it = its[i];
            Condition c = conditionOf[i];
            String source = sourceOf[i];
            boolean split = c.count > SPLIT_BY_SOURCE;
            Building b = split ? (c.bySource == null ? null : c.bySource.get(source)) : c.only;
            if (b == null) {
                String key = split ? c.key + "\u0000" + source : c.key;
                String section = sectionOf[i];
                boolean named = namedOf[i];
                b = byKey.computeIfAbsent(key, k -> {
                    Building nb =
                            new Building(section, it.storeName(), split ? source : null, it, named, created.size());
                    created.add(nb);
                    return nb;
                });
                if (!split) c.only = b;
                else {
                    if (c.bySource == null) c.bySource = new HashMap<>();
                    c.bySource.put(source, b);
                }
            }
            b.items.add(it);
            b.sources.computeIfAbsent(source, k -> new int[1])[0]++;
            groupOf[i] = b;
        }
        // an item's group by its position; by item id (the last item of an id wins) should two entries share one
        Map<String, Building> ofItem = null;
        i = 0;
        for (Map.Entry<String, Plan.PlanItem> e : items.entrySet()) {
            if (!e.getKey().equals(e.getValue().item_id())) {
                ofItem = new HashMap<>();
                for (int j = 0; j < size; j++) ofItem.put(its[j].item_id(), groupOf[j]);
                break;
            }
            i++;
        }
        List<Building> ordered = new ArrayList<>(created);
        ordered.sort(Comparator.<Building>comparingInt(b -> SECTIONS.indexOf(b.section))
                .thenComparingInt(b -> b.section.equals("ask") ? confidenceOrder(b.confidence) : 0)
                .thenComparingInt(b -> AuditEngine.ruleIndex(b.rule))
                .thenComparingInt(b -> b.order));
        int n = 0;
        for (Building b : ordered) if (answerable(b.section)) b.id = "q" + (++n);
        Map<String, Plan.PlanItem> out = new LinkedHashMap<>(size * 4 / 3 + 1);
        i = 0;
        for (Map.Entry<String, Plan.PlanItem> e : items.entrySet()) {
            Building b = ofItem == null ? groupOf[i] : ofItem.get(e.getValue().item_id());
            String id = b.id;
            out.put(e.getKey(), id == null ? e.getValue() : e.getValue().withGroup(id));
            i++;
        }
        List<AuditResult.DecisionGroup> groups = new ArrayList<>();
        for (Building b : ordered) {
            List<AuditResult.Example> examples = new ArrayList<>();
            for (Plan.PlanItem it : b.items) {
                if (examples.size() >= (b.named ? 1 : EXAMPLES)) break;
                SessionRow row = rowOf.apply(it);
                examples.add(new AuditResult.Example(
                        it.session_id(), row == null ? null : row.title(), detail(it.reason())));
            }
            List<String> itemIds = b.items.stream()
                    .limit(IDS_PER_GROUP)
                    .map(Plan.PlanItem::item_id)
                    .toList();
            Map<String, Integer> sources = new LinkedHashMap<>();
            b.sources.entrySet().stream()
                    .sorted(Comparator.<Map.Entry<String, int[]>>comparingInt(e -> e.getValue()[0])
                            .reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .forEach(e -> sources.put(e.getKey(), e.getValue()[0]));
            int along = 0;
            List<AuditResult.Example> notable = new ArrayList<>();
            Map<String, Integer> notableCounts = new LinkedHashMap<>();
            for (Plan.PlanItem it : b.items) {
                if (it.held_by() == null) continue;
                along += it.held_by().size();
                // the children that make the question matter (kept, running, titled): counted, and the first named on
                // the line itself
                for (String child : it.held_by()) {
                    Plan.PlanItem ci = items.get(child);
                    SessionRow row = ci == null ? null : rowOf.apply(ci);
                    String why = row == null ? null : notable(row, prefs);
                    if (why == null) continue;
                    notableCounts.merge(why, 1, Integer::sum);
                    if (notable.size() < EXAMPLES)
                        notable.add(new AuditResult.Example(child, row.untitled() ? null : row.title(), why));
                }
            }
            groups.add(new AuditResult.DecisionGroup(
                    b.id,
                    b.section,
                    b.store,
                    b.source,
                    sources,
                    b.rule,
                    b.condition,
                    b.action,
                    b.confidence,
                    b.question,
                    b.named,
                    b.items.size(),
                    along,
                    List.copyOf(notable),
                    java.util.Collections.unmodifiableMap(notableCounts),
                    List.copyOf(examples),
                    itemIds,
                    b.items.size() - itemIds.size()));
        }
        return new Result(out, List.copyOf(groups));
    }

    /** The condition of a group of compaction chains' deletions (its rule is the first member's). */
    public static final String CHAIN = "chain";

    /** A compaction chain member's own deletion (decided only with its whole chain). */
    static boolean chainDeletion(Plan.PlanItem it) {
        return it.chain() != null && it.cascade_of() == null && it.action().equals("delete");
    }

    /** Why a subagent taken along matters to the answer: kept by the user, still running, titled; null: none of these. */
    static String notable(SessionRow c, Preferences prefs) {
        if (prefs.protectedSession(c.id())) return "kept";
        if (c.active()) return "running";
        if (!c.untitled()) return "titled";
        return null;
    }

    /** Asked by name: a session the user kept before, or a deletion that would take such a session along. */
    private static boolean named(Plan.PlanItem it, String section, Preferences prefs) {
        return section.equals("ask") && QuestionPlan.byName(it, prefs);
    }

    /**
     * Everything that makes two items one decision, but the source: section, store, rule, condition, action, confidence
     * and way of asking, joined by NUL, then the session id of an item asked by name (else nothing).
     */
    private static String joined(Prefix p) {
        return String.join("\u0000", p.section, p.store, p.rule, p.condition, p.action, p.confidence, p.question)
                + "\u0000";
    }

    /** The way an item is asked, as its group counts it ("later" is waiting too; none: empty). */
    private static String question(Plan.PlanItem it) {
        return it.question() == null ? "" : it.question().equals("later") ? "waiting" : it.question();
    }

    /** Where a session came from: Hermes' {@code source} (cli, cron, telegram, …); for a Claude Code session its project. */
    private static String source(SessionRow row) {
        if (row != null && row.group() != null) return row.group();
        return row == null || row.source() == null || row.source().isBlank() ? "unknown" : row.source();
    }

    private static int confidenceOrder(String c) {
        return switch (c) {
            case "HIGH" -> 0;
            case "MEDIUM" -> 1;
            default -> 2;
        };
    }

    /** What the rule saw, without the question it asks ("last active 4 days ago: mark as ended?" → "last active 4 days ago"). */
    static String detail(String reason) {
        if (reason == null) return null;
        int cut = -1;
        // the question, or the subagents a deletion takes along (the group line counts them; the item's reason names
        // them)
        for (String m : List.of(": ", "：", Cascade.ALONG_EN, Cascade.ALONG_ZH)) {
            int i = reason.indexOf(m);
            if (i >= 0 && (cut < 0 || i < cut)) cut = i;
        }
        return (cut < 0 ? reason : reason.substring(0, cut)).strip();
    }
}
