package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.memory.lifecycle.EntryKey;
import steward.memory.lifecycle.EvidenceStore;

/** A memory entry recall_search returns counts as referenced (the lifecycle's decay clock restarts); others do not. */
class RecallReferencesTest {
    @TempDir
    Path tmp;

    @Test
    void entriesReturnedBySearchAreRecordedAsReferenced() throws Exception {
        Path home = RecallTestHomes.memoryHome(
                tmp,
                "[0.7] [env] The NAS lives at 10.0.0.5 in the closet\n§\n[0.5] [ops] Grafana dashboards are in folder Ops",
                null);
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            new RecallService(e).search(new RecallService.SearchRequest("where is the NAS", 1, null, null, null, null));
        }
        Map<String, LocalDate> refs = new EvidenceStore(StewardPaths.of(home).stateDir()).references();
        assertEquals(
                LocalDate.parse("2026-09-01"),
                refs.get(EntryKey.of("[0.7] [env] The NAS lives at 10.0.0.5 in the closet")));
        assertNull(refs.get(EntryKey.of("[0.5] [ops] Grafana dashboards are in folder Ops")));
    }
}
