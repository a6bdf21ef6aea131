package steward.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Simulated users with hidden preferences. Each answers only what the report asks — the questions it lists by name,
 * the waiting questions when the report says some are waiting, and a collapsed rule line — as an agent relaying the
 * user would, and judges every automatic action by its own hidden preference. The preferences are stated on what a
 * user knows about a session (source, title, size, running or not, what they said before), never on Steward's rule
 * names, so they apply to any home.
 */
final class SimulatedUsers {
    private SimulatedUsers() {}

    /** What the user thinks of one proposed action: {@code null} reason = they want it done. */
    record Wish(boolean yes, String keepReason) {
        static final Wish YES = new Wish(true, null);

        static Wish no(String reason) {
            return new Wish(false, reason);
        }
    }

    /** What the user has told Steward so far (their own memory of it). */
    static final class Memory {
        /** Sessions the user kept: rejected a proposal for, or restored. */
        final Set<String> kept = new HashSet<>();
        /** Rule conditions the user vetoed (rejected or restored an item of). */
        final Set<String> vetoedConditions = new HashSet<>();
    }

    interface Profile {
        String name();

        /** Answers questions at all (false: the silent user). */
        default boolean answers() {
            return true;
        }

        /** Whether the user wants {@code action} (delete, mark_ended, review) done to this session in this run. */
        Wish wish(EvolvingHome.Session s, String action, int run, Memory m);

        /** Answers rule D's questions (the "too many active sessions" warning). */
        default boolean answersRuleD() {
            return true;
        }

        /** Answers by rule group (one decision per rule, exceptions by item) instead of item by item. */
        default boolean byRuleGroup() {
            return false;
        }

        /** Reads the automatic list after an apply and restores what it does not want. */
        default boolean restoresAutomatic() {
            return false;
        }
    }

    /** The action a user is asked about: name_or_delete is answered as a deletion (naming is a rename). */
    static String action(JsonNode item) {
        String a = item.get("action").asString();
        return a.equals("name_or_delete") ? "delete" : a;
    }

    /** The user's wish about one item, taking into account every subagent its deletion takes along. */
    static Wish wish(Profile p, JsonNode item, Map<String, EvolvingHome.Session> sessions, int run, Memory m) {
        EvolvingHome.Session s = sessions.get(item.get("session_id").asString());
        if (s == null) return Wish.YES;
        String action = action(item);
        Wish w = p.wish(s, action, run, m);
        if (!w.yes()) return w;
        JsonNode along = item.get("takes_along");
        if (along != null && along.isArray()) {
            for (JsonNode c : along) {
                EvolvingHome.Session cs = sessions.get(c.asString());
                if (cs == null) continue;
                Wish cw = p.wish(cs, "delete", run, m);
                if (!cw.yes()) return cw;
            }
        }
        return w;
    }

    static final Profile KEEPS_RUNNING_SUBAGENTS = new Profile() {
        public String name() {
            return "keeps running subagents";
        }

        public Wish wish(EvolvingHome.Session s, String action, int run, Memory m) {
            if (m.kept.contains(s.id())) return Wish.no("in_use");
            if (s.subagent() && s.active() && !action.equals("review")) return Wish.no("in_use");
            return Wish.YES;
        }
    };

    static final Profile NEVER_DELETES_TITLED = new Profile() {
        public String name() {
            return "never deletes titled sessions";
        }

        public Wish wish(EvolvingHome.Session s, String action, int run, Memory m) {
            if (m.kept.contains(s.id())) return Wish.no("want_kept");
            if (action.equals("delete") && s.titled()) return Wish.no("want_kept");
            return Wish.YES;
        }
    };

    /** Approves everything for two runs, then wants long untitled chats kept and restores those that ran automatically. */
    static final Profile CHANGES_MIND = new Profile() {
        public String name() {
            return "changes mind, restores";
        }

        public Wish wish(EvolvingHome.Session s, String action, int run, Memory m) {
            if (m.kept.contains(s.id())) return Wish.no("want_kept");
            if (run >= 3 && action.equals("delete") && !s.subagent() && !s.titled() && s.messages() > 10)
                return Wish.no("want_kept");
            return Wish.YES;
        }

        public boolean restoresAutomatic() {
            return true;
        }
    };

    /** Answers per rule group: deletions yes, "mark as ended" no (wants them kept active), topics consolidated. */
    static final Profile BY_RULE_GROUP = new Profile() {
        public String name() {
            return "answers by rule group";
        }

        public Wish wish(EvolvingHome.Session s, String action, int run, Memory m) {
            if (m.kept.contains(s.id())) return Wish.no("want_kept");
            if (action.equals("mark_ended")) return Wish.no("want_kept");
            return Wish.YES;
        }

        public boolean byRuleGroup() {
            return true;
        }
    };

    /** Never answers. Would accept what the rules do on their own (shells, short untitled chats) and nothing else. */
    static final Profile SILENT = new Profile() {
        public String name() {
            return "never answers";
        }

        public boolean answers() {
            return false;
        }

        public Wish wish(EvolvingHome.Session s, String action, int run, Memory m) {
            if (action.equals("mark_ended") && s.subagent())
                return Wish.YES; // rule M: a subagent run left open for over a day
            if (!action.equals("delete") || s.active()) return Wish.no(null);
            if (s.subagent() && (s.messages() <= 4 || !s.titled())) return Wish.YES;
            if (!s.titled() && s.messages() <= 10) return Wish.YES;
            return Wish.no(null);
        }
    };

    /** Answers everything except the too-many-active warning; would not want sessions marked as ended unasked. */
    static final Profile IGNORES_RULE_D = new Profile() {
        public String name() {
            return "ignores too-many-active";
        }

        public Wish wish(EvolvingHome.Session s, String action, int run, Memory m) {
            if (m.kept.contains(s.id())) return Wish.no("want_kept");
            if (action.equals("mark_ended")) return Wish.no(null);
            return Wish.YES;
        }

        public boolean answersRuleD() {
            return false;
        }
    };

    static final Profile APPROVES_ALL = new Profile() {
        public String name() {
            return "approves everything";
        }

        public Wish wish(EvolvingHome.Session s, String action, int run, Memory m) {
            return m.kept.contains(s.id()) ? Wish.no("want_kept") : Wish.YES;
        }
    };

    static final List<Profile> ALL = List.of(
            KEEPS_RUNNING_SUBAGENTS,
            NEVER_DELETES_TITLED,
            CHANGES_MIND,
            BY_RULE_GROUP,
            SILENT,
            IGNORES_RULE_D,
            APPROVES_ALL);

    /** The session_apply decisions of one user for one report, and what the user now remembers having said. */
    record Answers(
            Map<String, String> items, Map<String, String> rules, Map<String, String> keepReasons, String waiting) {}

    static Answers answer(Profile p, JsonNode audit, Map<String, EvolvingHome.Session> sessions, int run, Memory m) {
        Map<String, String> items = new LinkedHashMap<>(),
                rules = new LinkedHashMap<>(),
                reasons = new LinkedHashMap<>();
        if (!p.answers()) return new Answers(items, rules, reasons, null);
        JsonNode g = audit.get("groups");
        List<JsonNode> asked = new ArrayList<>();
        for (JsonNode rg : g.get("confirm")) for (JsonNode it : rg.get("items")) if (askedNow(it)) asked.add(it);
        for (JsonNode it : g.get("info").get("items")) if (askedNow(it)) asked.add(it);
        // the report says some questions are still waiting: an answering user asks to see them and answers them
        for (JsonNode it : g.get("waiting").get("items"))
            if ("waiting".equals(it.path("question").asString(""))) asked.add(it);
        Map<String, List<JsonNode>> byRule = new LinkedHashMap<>();
        for (JsonNode it : asked) {
            if (it.get("rule").asString().equals("D") && !p.answersRuleD()) continue;
            byRule.computeIfAbsent(it.get("rule").asString(), k -> new ArrayList<>())
                    .add(it);
        }
        for (Map.Entry<String, List<JsonNode>> e : byRule.entrySet()) {
            int yes = 0;
            Map<String, Wish> wishes = new LinkedHashMap<>();
            for (JsonNode it : e.getValue()) {
                Wish w = wish(p, it, sessions, run, m);
                wishes.put(it.get("item_id").asString(), w);
                if (w.yes()) yes++;
            }
            boolean groupYes = yes * 2 >= e.getValue().size();
            boolean group = p.byRuleGroup() && e.getValue().stream().anyMatch(SimulatedUsers::askedNow);
            if (group) rules.put(e.getKey(), groupYes ? "approve" : "reject");
            for (JsonNode it : e.getValue()) {
                String id = it.get("item_id").asString();
                Wish w = wishes.get(id);
                boolean coveredByGroup = group && askedNow(it) && w.yes() == groupYes;
                if (!coveredByGroup) items.put(id, w.yes() ? "approve" : "reject");
                if (!w.yes()) {
                    if (w.keepReason() != null) reasons.put(id, w.keepReason());
                    remember(it, m);
                }
            }
        }
        // a collapsed rule line: one decision for all of it
        for (JsonNode c : g.get("collapsed")) {
            String rule = c.get("rule").asString();
            if (c.get("items").isEmpty()
                    || "status".equals(c.get("items").get(0).path("question").asString(""))) continue; // asks nothing
            if (rule.equals("D") && !p.answersRuleD()) continue;
            int yes = 0, n = 0;
            for (JsonNode it : c.get("items")) {
                n++;
                if (wish(p, it, sessions, run, m).yes()) yes++;
            }
            rules.put(rule, yes * 2 >= n ? "approve" : "reject");
        }
        return new Answers(items, rules, reasons, null);
    }

    /** Asked in this report: by name, or in a grouped line. */
    static boolean askedNow(JsonNode it) {
        String q = it.path("question").asString("");
        return q.equals("new") || q.equals("grouped");
    }

    /** The user said no to this item: they kept the session (and, unless it was about the children, the condition). */
    static void remember(JsonNode item, Memory m) {
        m.kept.add(item.get("session_id").asString());
        JsonNode along = item.get("takes_along");
        if (along == null || !along.isArray() || along.isEmpty())
            m.vetoedConditions.add(item.get("condition").asString());
    }
}
