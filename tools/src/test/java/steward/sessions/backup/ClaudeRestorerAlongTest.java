package steward.sessions.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.json.Json;
import steward.state.FileMoves;
import tools.jackson.databind.JsonNode;

/** Subagents that moved with their parent's folder come back with it, and are not reported as skipped. */
class ClaudeRestorerAlongTest {
    @TempDir
    Path tmp;

    static final String ID = "0e63d7e3-b474-4fdc-ab1e-52544722bb15";

    @Test
    void subagentsMovedWithTheirParentsFolderAreRestoredWithItAndNotSkipped() throws Exception {
        Path home = Files.createDirectories(tmp.resolve(".claude/projects/-home-u-api"));
        SessionBackup bk = new SessionBackup(tmp.resolve("state"));
        String b = "b_20260810T120000Z_abcdef";
        Path saved =
                Files.createDirectories(bk.filesDir(b).resolve("claude/projects/-home-u-api/" + ID + "/subagents"));
        Path transcript =
                Files.writeString(saved.getParent().getParent().resolve(ID + ".jsonl"), "{\"type\":\"user\"}\n");
        Path agent = Files.writeString(saved.resolve("agent-a1.jsonl"), "{\"type\":\"assistant\"}\n");
        String p = "projects/-home-u-api/";
        List<JsonNode> lines = List.of(
                Json.MAPPER.readTree("""
                        {"id":"%s","paths":["%s%s.jsonl","%s%s"],"with":["%s/agent-a1"],
                         "files":[{"path":"%s%s.jsonl","sha256":"%s"},{"path":"%s%s/subagents/agent-a1.jsonl","sha256":"%s"}]}
                        """.formatted(
                        ID, p, ID, p, ID, ID, p, ID, FileMoves.sha256(transcript), p, ID, FileMoves.sha256(agent))),
                Json.MAPPER.readTree("{\"id\":\"%s/agent-a1\",\"paths\":[],\"with\":[],\"files\":[]}".formatted(ID)));
        ClaudeRestorer r = new ClaudeRestorer(tmp.resolve(".claude"), bk, b, 1786363200.0);

        ClaudeRestorer.Outcome o = r.restore(lines, Set.of(ID, ID + "/agent-a1"));
        assertEquals(List.of(), o.skipped());
        assertTrue(
                o.restored().containsAll(List.of(ID, ID + "/agent-a1")),
                o.restored().toString());
        assertTrue(Files.isRegularFile(home.resolve(ID + "/subagents/agent-a1.jsonl")));
    }

    @Test
    void aSubagentAskedForAloneNamesTheParentToRestore() throws Exception {
        SessionBackup bk = new SessionBackup(tmp.resolve("state"));
        List<JsonNode> lines = List.of(
                Json.MAPPER.readTree("{\"id\":\"%s/agent-a1\",\"paths\":[],\"with\":[],\"files\":[]}".formatted(ID)));
        ClaudeRestorer.Outcome o = new ClaudeRestorer(tmp.resolve(".claude"), bk, "b_20260810T120000Z_abcdef", 0)
                .restore(lines, Set.of(ID + "/agent-a1"));
        assertEquals(1, o.skipped().size());
        assertTrue(
                o.skipped().get(0).reason().contains("restore " + ID),
                o.skipped().toString());
    }
}
