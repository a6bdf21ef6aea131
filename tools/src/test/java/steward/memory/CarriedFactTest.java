package steward.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.state.FileTrees;
import steward.testing.TestHomes;

/**
 * already_covered only when an entry really carries the content: the same words in exchanged roles, a reversed rule or a
 * negation state another fact and are written (a false "already covered" silently drops a fact); a fix told in the past
 * tense is history.
 */
class CarriedFactTest {
    @TempDir
    Path tmp;

    MemoryPrecheck precheck;

    static final String ENTRIES = """
            [env] Production database is Postgres 15 on db04, replica on db05
            [rule] Always run terraform plan before terraform apply
            [ops] Backups go to s3://acme-backups nightly at 03:00
            """;

    /** expected verdict | content. */
    static final String CASES = """
            already_covered | [env] Production database is Postgres 15 on db04, replica on db05
            already_covered | [env] Prod database: Postgres 15 on db04 with its replica on db05
            already_covered | [rule] Always run terraform plan before terraform apply!
            already_covered | [ops] Nightly at 03:00 backups go to s3://acme-backups
            write           | [env] Production database is Postgres 15 on db05, replica on db04
            write           | [rule] Always run terraform apply before terraform plan
            write           | [rule] Always run terraform apply without plan
            write           | [rule] Don't run terraform plan before terraform apply
            reject_history  | Fixed the replication lag on db04 yesterday by raising wal_keep_size
            reject_history  | [ops] db04 replica lag fixed on 2026-12-03 (wal_keep_size 4GB)
            reject_history  | [ops] 昨天修好了 db04 的复制延迟
            """;

    @BeforeEach
    void setUp() throws Exception {
        FileTrees.copy(TestHomes.repo().resolve("fixtures/hermes-home"), tmp);
        Files.writeString(
                tmp.resolve("memories/MEMORY.md"),
                String.join("\n§\n", ENTRIES.strip().split("\n")));
        precheck = new MemoryPrecheck(new MemoryWriter(
                StewardPaths.of(tmp), Clock.fixed(Instant.parse("2026-12-04T12:00:00Z"), ZoneOffset.UTC)));
    }

    @Test
    void onlyWhatAnEntryReallyCarriesIsAlreadyCovered() {
        List<String> wrong = new ArrayList<>();
        for (String line : CASES.strip().split("\n")) {
            int bar = line.indexOf('|');
            String expected = line.substring(0, bar).strip();
            String content = line.substring(bar + 1).strip();
            MemoryPrecheck.Result r = precheck.check("memory", content, MemoryPrecheckTest.YES);
            if (!r.verdict().equals(expected))
                wrong.add(content + ": expected " + expected + ", got " + r.verdict() + " (" + r.checks() + ")");
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void aSwapIsWrittenWithANoteNamingTheEntry() {
        MemoryPrecheck.Result r = precheck.check(
                "memory", "[env] Production database is Postgres 15 on db05, replica on db04", MemoryPrecheckTest.YES);
        String detail = r.checks().stream()
                .filter(c -> c.id().equals("already_carried"))
                .findFirst()
                .orElseThrow()
                .detail();
        assertEquals(
                "best candidate MEMORY.md entry 1 covers 100 % of the content but names db05 and db04 the other way"
                        + " round: another fact (if it replaces that one, update it instead)",
                detail);
    }
}
