package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import steward.learning.Preferences;
import steward.sessions.rules.RuleContext;
import steward.sessions.rules.RuleFixtures;
import steward.sessions.store.SessionRow;

/**
 * Compaction chains: continuations of a parent ended for compression are one conversation: deleted as a whole at the
 * confidence of their least certain member, kept as a whole when one member is kept, never duplicates of each other for
 * rule E. Numbered titles ("… #2") without the parent link are no chain: the user, cron jobs and Steward's own topic
 * renames number titles of unrelated sessions. A chain's id is its own ({@code c1}, …), never a session id.
 */
class ChainsTest {
    static final String ROWS = """
            # id     | source   | title            | parent | msgs | state  | arch | idle | end_reason
            cur      | tui      | -                | -      | 2    | active | 0    | 0    | -
            r1       | cli      | -                | -      | 3    | ended  | 0    | 20   | compression
            r2       | cli      | -                | r1     | 5    | ended  | 0    | 19   | compression
            r3       | cli      | -                | r2     | 12   | ended  | 0    | 18   | cli_close
            k1       | cli      | Taxes            | -      | 30   | ended  | 0    | 20   | compression
            k2       | cli      | -                | k1     | 2    | ended  | 0    | 19   | cli_close
            s1       | cli      | -                | -      | 3    | ended  | 0    | 20   | cli_close
            sub      | subagent | -                | s1     | 2    | ended  | 0    | 20   | completed
            d1       | tui      | Deploy pipeline  | -      | 9    | active | 0    | 1    | compression
            d2       | tui      | Deploy pipeline #2 | d1   | 9    | active | 0    | 0.5  | -
            n1       | cron     | cron: nightly    | -      | 3    | ended  | 0    | 30   | cron_complete
            n2       | cron     | cron: nightly #2 | -      | 3    | ended  | 0    | 25   | cron_complete
            n3       | cron     | cron: nightly #3 | -      | 3    | ended  | 0    | 20   | cron_complete
            w1       | cli      | [Weekly report]  | -      | 4    | ended  | 0    | 9    | cli_close
            w2       | cli      | [Weekly report] #2 | -    | 4    | ended  | 0    | 8    | cli_close
            """;

    final List<SessionRow> rows = RuleFixtures.rows(ROWS);
    final RuleContext ctx = RuleContext.of(RuleFixtures.NOW, "cur", rows, Preferences.empty(), 0);
    final Map<String, Plan.PlanItem> items =
            AuditEngine.planItems(rows, ctx, new AuditRequest("cur", null, "interactive", "en", 50));

    @Test
    void continuationsFormChainsButSubagentsDoNot() {
        assertEquals(
                Map.of("r1", List.of("r1", "r2", "r3"), "k1", List.of("k1", "k2"), "d1", List.of("d1", "d2")),
                ctx.chains());
        assertNull(ctx.chainOf("sub"), "a subagent is its parent's cascade, not its chain");
        assertNull(ctx.chainOf("s1"));
    }

    @Test
    void numberedTitlesWithoutAParentLinkAreNoChain() {
        // a cron job's runs and Steward's own topic renames number titles of sessions that are no continuation
        for (String id : List.of("n1", "n2", "n3", "w1", "w2")) {
            assertNull(ctx.chainOf(id), id);
            Plan.PlanItem p = items.get(id);
            if (p != null) assertNull(p.chain(), id);
        }
    }

    @Test
    void aChainsIdIsItsOwnNeverASessionId() {
        Set<String> sessions = new HashSet<>();
        for (SessionRow r : rows) sessions.add(r.id());
        String r = items.get("r1").chain();
        assertNotNull(r);
        assertFalse(sessions.contains(r), r);
        assertTrue(r.matches("c\\d+"), r);
        // a session that happens to be called like a chain id never shares it
        List<SessionRow> named = RuleFixtures.rows(ROWS.replace("r1 ", "c1 ").replace("| r1 ", "| c1 ")
                + "c2       | cli      | -                | -      | 1    | ended  | 0    | 20   | cli_close\n");
        RuleContext c2 = RuleContext.of(RuleFixtures.NOW, "cur", named, Preferences.empty(), 0);
        Map<String, Plan.PlanItem> it2 =
                AuditEngine.planItems(named, c2, new AuditRequest("cur", null, "interactive", "en", 50));
        assertEquals(List.of("c1", "r2", "r3"), c2.chains().get("c1"));
        Set<String> ids = new HashSet<>();
        for (String m : List.of("c1", "r2", "r3", "k2")) ids.add(it2.get(m).chain());
        assertFalse(ids.contains("c1") || ids.contains("c2"), ids.toString());
        assertEquals(2, ids.size(), ids.toString());
    }

    @Test
    void aChainIsDeletedAsAWholeNeverAboveItsLeastCertainMember() {
        // r1 and r2 alone would go at HIGH (B/short), r3 has 12 messages (B/long, MEDIUM): the whole chain is asked at
        // MEDIUM
        String chain = items.get("r1").chain();
        for (String id : List.of("r1", "r2", "r3")) {
            Plan.PlanItem p = items.get(id);
            assertEquals(chain, p.chain(), id);
            assertEquals("delete", p.action(), id);
            assertEquals("MEDIUM", p.confidence(), id);
            assertTrue(p.executable(), id);
        }
        assertTrue(
                items.get("r1").reason().contains("compaction chain " + chain + ", 3 sessions, deleted together"),
                items.get("r1").reason());
        assertEquals("B/short", items.get("r1").key(), "the member's own condition is still what is learned");
        assertEquals("HIGH", items.get("s1").confidence(), "a session in no chain is unchanged");
    }

    @Test
    void aChainWithAKeptMemberIsKeptAsAWhole() {
        assertNull(items.get("k1"), "Taxes is titled and ended: kept");
        Plan.PlanItem k2 = items.get("k2");
        assertNotNull(k2.chain());
        assertFalse(k2.chain().equals("k1") || k2.chain().equals("k2"), "the chain's own id, no session's");
        assertEquals("review", k2.action(), "its B/short deletion would cut the chain");
        assertFalse(k2.executable());
        assertTrue(k2.reason().contains("kept as a whole"), k2.reason());
    }

    @Test
    void ruleENeverCountsAChainsMembersAsDuplicatesOfEachOther() {
        assertTrue(ctx.topics().isEmpty(), ctx.topics().toString());
        assertNull(items.get("d1"));
        List<SessionRow> more =
                RuleFixtures.rows(ROWS + "d3 | tui | Deploy pipeline fixes | - | 9 | active | 0 | 0.5 | -\n");
        RuleContext c2 = RuleContext.of(RuleFixtures.NOW, "cur", more, Preferences.empty(), 0);
        assertEquals(
                List.of("d1", "d2", "d3"),
                c2.topics().get(0).sessionIds(),
                "a third session on the topic makes two distinct conversations");
    }
}
