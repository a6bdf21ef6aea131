package steward.sessions.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import steward.json.Json;

class ToolResultsTest {
    /** One tool result per line: {@code failed|ok <TAB> effect or - <TAB> content}. */
    static final String CASES = """
            failed	-	{"output": "1 failed", "exit_code": 1, "error": null}
            ok	-	{"output": "3 passed", "exit_code": 0, "error": null}
            failed	-	{"error": "rate limited"}
            ok	-	{"error": null, "result": "fine"}
            ok	-	{"error": "", "result": "fine"}
            ok	-	{"error": false}
            failed	-	{"success": false, "message": "denied"}
            ok	-	{"success": true}
            failed	-	{"status": "timeout"}
            ok	-	{"status": "completed"}
            failed	-	{"is_error": true, "content": "boom"}
            failed	-	{"returncode": 2}
            failed	-	Error: file not found
            failed	-	Traceback (most recent call last):
            ok	-	def invoice_total(lines): ...
            ok	-	There was no error in the logs.
            failed	error	all fine according to the text
            failed	failed	{"ok": 1}
            ok	applied	{"ok": 1}
            """;

    @Test
    void failuresAreReadFromWhatTheResultSays() {
        for (String line : CASES.strip().split("\n")) {
            String[] c = line.split("\t", 3);
            String effect = c[1].equals("-") ? null : c[1];
            boolean failed = ToolResults.failed(c[2], ToolResults.json(c[2]), effect, null);
            assertEquals(c[0].equals("failed"), failed, line);
        }
        assertEquals(true, ToolResults.failed("fine", null, null, true), "the store's own is_error flag");
    }

    @Test
    void aResultTooLongToParseIsScanned() {
        String pad = "x".repeat(ToolResults.PARSE_LIMIT);
        assertEquals(true, ToolResults.failed("{\"exit_code\": 3, \"output\": \"" + pad + "\"}", null, null, null));
        assertEquals(false, ToolResults.failed("{\"exit_code\": 0, \"output\": \"" + pad + "\"}", null, null, null));
        assertNull(ToolResults.json("{\"exit_code\": 0, \"output\": \"" + pad + "\"}"));
    }

    @Test
    void recordedDurations() {
        assertEquals(
                35.0,
                ToolResults.recordedSeconds(ToolResults.json(
                        "{\"results\": [], \"total_duration_seconds\": 35.0, \"duration_seconds\": 1}")));
        assertEquals(2.5, ToolResults.recordedSeconds(ToolResults.json("{\"duration_ms\": 2500}")));
        assertNull(ToolResults.recordedSeconds(ToolResults.json("{\"output\": \"x\"}")));
        assertNull(ToolResults.recordedSeconds(null));
    }

    static MessageEvent.ToolCall call(String name, String args) {
        return new MessageEvent.ToolCall(
                "c", name, ToolResults.arguments(Json.MAPPER.getNodeFactory().stringNode(args)));
    }

    @Test
    void filesAndCommandsFromArguments() {
        assertEquals(
                List.of(new ToolResults.FileUse("src/a.py", false)),
                ToolResults.files(call("read_file", "{\"path\": \" src/a.py \"}")));
        assertEquals(
                List.of(new ToolResults.FileUse("b.txt", true)),
                ToolResults.files(call("write_file", "{\"file_path\": \"b.txt\"}")));
        assertEquals(
                List.of(new ToolResults.FileUse("x", true), new ToolResults.FileUse("y", true)),
                ToolResults.files(call("patch", "{\"paths\": [\"x\", \"y\", \"x\"]}")));
        assertEquals(List.of(), ToolResults.files(call("read_file", "not json")));
        assertEquals("git status", ToolResults.command(call("terminal", "{\"command\": \"  git\\n  status \"}")));
        assertEquals("ls -la", ToolResults.command(call("shell", "{\"cmd\": [\"ls\", \"-la\"]}")));
        assertNull(ToolResults.command(call("web_search", "{\"query\": \"x\"}")));
        String longCmd = ToolResults.command(call("terminal", "{\"command\": \"" + "a".repeat(500) + "\"}"));
        assertEquals(ToolResults.MAX_COMMAND, longCmd.codePointCount(0, longCmd.length()));
    }

    @Test
    void hermesToolCallShapes() {
        List<MessageEvent.ToolCall> calls = HermesSessionSource.toolCalls("""
                [{"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{\\"path\\": \\"a\\"}"}},
                 {"id": "c2", "name": "terminal", "arguments": {"command": "ls"}},
                 {"function": {"arguments": "{}"}}]""");
        assertEquals(2, calls.size(), "a call without a name is skipped");
        assertEquals("a", calls.get(0).arguments().get("path").asString());
        assertEquals("ls", calls.get(1).arguments().get("command").asString());
        assertEquals(List.of(), HermesSessionSource.toolCalls("{not json"));
        assertEquals(List.of(), HermesSessionSource.toolCalls(null));
    }
}
