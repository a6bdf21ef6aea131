package steward.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FirstPromptTest {
    @TempDir
    Path tmp;

    String first(String jsonl) throws Exception {
        Path f = tmp.resolve("s.jsonl");
        Files.writeString(f, jsonl);
        return FirstPrompt.read(f, 300);
    }

    @Test
    void skipsWhatTheUserDidNotType() throws Exception {
        assertEquals("Fix the login redirect", first("""
                {"type":"summary","summary":"Old title","leafUuid":"x"}
                {"type":"file-history-snapshot","messageId":"m","isSnapshotUpdate":false}
                {"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"<command-name>/clear</command-name>"},"isMeta":false}
                {"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Caveat: The messages below were generated"},"isMeta":true}
                {"parentUuid":null,"isSidechain":true,"type":"user","message":{"role":"user","content":"A subagent's goal"}}
                {"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}}
                {"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"text","text":"  Fix the login redirect  "}]}}
                {"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Second prompt"}}
                """));
    }

    @Test
    void aContinuationOrASessionWithoutPromptsHasNone() throws Exception {
        assertNull(first("""
                {"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context."}}
                """));
        assertNull(first("""
                {"type":"ai-title","aiTitle":"A title only"}
                not json
                """));
    }

    @Test
    void aFirstLineLongerThanTheHeadStillGivesItsPromptCutToTheLimit() throws Exception {
        String big = "Please review this log: " + "x".repeat(FirstPrompt.HEAD * 2);
        String p = first("{\"type\":\"user\",\"isSidechain\":false,\"message\":{\"role\":\"user\",\"content\":\"" + big
                + "\"}}\n");
        assertEquals(
                ("Please review this log: " + "x".repeat(300)).substring(0, 300),
                p,
                "the beginning of a content string the head window cuts");
        String shortFirst = first(
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"Summarise the incident\"},\"pad\":\""
                        + "y".repeat(FirstPrompt.HEAD * 2) + "\"}\n");
        assertEquals("Summarise the incident", shortFirst);
        assertEquals(
                300,
                first("{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"" + "z".repeat(1000) + "\"}}\n")
                        .length());
    }
}
