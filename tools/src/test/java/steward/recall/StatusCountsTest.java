package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;

/** steward_status counts the items the index holds now, not the deleted copies of items indexed again. */
class StatusCountsTest {
    @TempDir
    Path tmp;

    @Test
    void itemCountsLeaveOutTheDeletedCopiesOfReindexedEntries() throws Exception {
        StringBuilder user = new StringBuilder("user fact 0");
        for (int i = 1; i < 100; i++) user.append("\n§\nuser fact ").append(i);
        // few deletions in a large segment: Lucene merges them away only later (a small test index would merge at once)
        Path home = RecallTestHomes.memoryHome(tmp, "alpha fact\n§\nbeta fact\n§\ngamma fact", user.toString());
        Path mem = home.resolve("memories/MEMORY.md");
        try (RecallEngine e = RecallTestHomes.engine(home)) {
            e.sync();
            // 3 + 100 entries (USER.md is memory too), then 1 more; each change re-indexes the whole file: its earlier
            // documents are deleted, not yet merged away
            for (int i = 0; i < 1; i++) {
                Files.writeString(mem, Files.readString(mem) + "\n§\nfact number " + i);
                e.sync();
            }
            try (RecallIndex idx = new RecallIndex(
                    RecallEngine.recallDir(StewardPaths.of(home)).resolve("index"))) {
                assertEquals(104, idx.counts(List.of(RecallItem.MEMORY)).get(RecallItem.MEMORY));
            }
        }
    }
}
