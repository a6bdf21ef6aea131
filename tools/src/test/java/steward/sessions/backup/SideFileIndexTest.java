package steward.sessions.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One listing of sessions/ answers exactly as the per-session listing does, for every kind of side-file name. */
class SideFileIndexTest {
    @TempDir
    Path home;

    @Test
    void answersAsThePerSessionListing() throws Exception {
        Path sd = Files.createDirectories(home.resolve("sessions"));
        for (String n : List.of(
                "a.json",
                "a.jsonl",
                "request_dump_a_1.json",
                "request_dump_a_2.json",
                "request_dump_a_b_1.json",
                "a_b.json",
                "request_dump_a_3.txt",
                "ab.json",
                "sessions.json",
                "request_dump_c_9.json",
                "日本_1.json",
                "request_dump_日本_1_x.json")) {
            Files.writeString(sd.resolve(n), n);
        }
        Files.createDirectories(sd.resolve("d.json")); // a directory is not a side file
        Files.createDirectories(sd.resolve("request_dump_d_1.json"));
        SessionBackup.SideFileIndex index = SessionBackup.SideFileIndex.of(home);
        for (String id : List.of("a", "a_b", "ab", "b", "c", "d", "日本_1", "sessions", "request")) {
            assertEquals(SessionBackup.sideFiles(home, id), index.of(id), id);
        }
        assertEquals(
                List.of(
                        sd.resolve("a.json"),
                        sd.resolve("a.jsonl"),
                        sd.resolve("request_dump_a_1.json"),
                        sd.resolve("request_dump_a_2.json"),
                        sd.resolve("request_dump_a_b_1.json")),
                index.of("a"),
                "a's dumps include a_b's, as Hermes' own glob does");
        Files.delete(sd.resolve("a.jsonl"));
        assertEquals(
                SessionBackup.sideFiles(home, "a"), index.of("a"), "a file gone since the listing is not reported");
    }

    @Test
    void noSessionsDirectoryMeansNoSideFiles() throws Exception {
        assertEquals(List.of(), SessionBackup.SideFileIndex.of(home).of("a"));
    }
}
