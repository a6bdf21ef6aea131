package steward.sessions.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.StewardError;
import steward.json.Json;

class PlanStoreTest {
    @TempDir
    Path tmp;

    static Plan plan(List<Plan.PlanItem> items, String report) {
        return new Plan(
                PlanStore.newId(),
                "2026-08-10T12:00:00Z",
                1786363200.0,
                1786363200.0 + PlanStore.VALIDITY_SECONDS,
                "/h/state.db",
                "/h/state.db#1",
                "interactive",
                "en",
                "cur",
                "argument",
                3.0,
                items,
                report,
                null);
    }

    static List<Plan.PlanItem> items(int n) {
        List<Plan.PlanItem> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = String.format("20260810_1012%02d_%06x", i % 60, i);
            out.add(new Plan.PlanItem(
                    id,
                    id,
                    "B",
                    "B/short",
                    "delete",
                    "HIGH",
                    true,
                    null,
                    i % 4 == 0 ? "parent_" + i : null,
                    i % 5 == 0 ? "topic \"quoted\" ]}" : null,
                    new Plan.Fingerprint(
                            i % 3 == 0 ? "O'Brien ]} \u001f 中文 " + i : null,
                            i,
                            1.7863631438372943E9 + i,
                            i % 2 == 0 ? null : 1.786e9 + i / 7.0,
                            i % 7 == 0),
                    "HIGH",
                    i % 3 == 0 ? "new" : null,
                    i % 4 == 0 ? List.of("child_" + i) : null,
                    i % 2 == 0,
                    null,
                    null,
                    null,
                    null,
                    null));
        }
        return out;
    }

    @Test
    void itemsSerialisedAheadAreSplicedIntoTheSamePlan() throws Exception {
        for (int n : new int[] {0, 1, 250}) {
            List<Plan.PlanItem> its = items(n);
            Plan p = plan(its, "report with \"quotes\", [brackets] and }braces{\n行二");
            byte[] spliced = PlanStore.bytes(p, PlanStore.serialiseAhead(its));
            byte[] plain = PlanStore.bytes(p, null);
            assertEquals(Json.MAPPER.readTree(plain), Json.MAPPER.readTree(spliced), "n=" + n);
            Plan back = Json.MAPPER.readValue(spliced, Plan.class);
            assertEquals(its.size(), back.items().size());
            for (int i = 0; i < n; i++) {
                assertEquals(
                        its.get(i).fingerprint(),
                        back.items().get(i).fingerprint(),
                        "exact times and titles round-trip");
                assertEquals(its.get(i).cascade_of(), back.items().get(i).cascade_of());
            }
        }
    }

    @Test
    void itemsSerialisedForAnotherListAreNotUsed() throws Exception {
        List<Plan.PlanItem> its = items(5);
        Plan p = plan(its, "r");
        byte[] out = PlanStore.bytes(p, PlanStore.serialiseAhead(items(3)));
        assertEquals(5, Json.MAPPER.readValue(out, Plan.class).items().size());
    }

    @Test
    void savedPlanLoadsAndAPlanOfAnotherShapeIsRefusedWithTheReason() throws Exception {
        PlanStore store = new PlanStore(tmp);
        List<Plan.PlanItem> its = items(20);
        Plan p = plan(its, "r");
        store.save(p, PlanStore.serialiseAhead(its));
        Plan back = store.load(p.plan_id(), p.created_at_epoch() + 1, p.database_key());
        assertEquals(its.get(7).fingerprint(), back.items().get(7).fingerprint());
        // a plan written with object-shaped items (an older Steward) is refused, not misread
        Path old = store.file(PlanStore.newId());
        Files.writeString(
                old,
                Files.readString(store.file(p.plan_id())).replace("\"items\":[[", "\"items\":[{\"item_id\":\"x\"},["));
        String id = old.getFileName().toString().replace(".json", "");
        StewardError e =
                assertThrows(StewardError.class, () -> store.load(id, p.created_at_epoch() + 1, p.database_key()));
        assertTrue(
                e.getMessage().contains("unreadable") && e.getMessage().contains("session_audit again"),
                e.getMessage());
    }
}
