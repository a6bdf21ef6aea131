package steward.sessions.inspect;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One message of a session. {@code toolCalls} are the calls an assistant message makes; a tool result names the call it
 * answers ({@code toolCallId}) and the tool. {@code state}: live, compacted (summarised away by a compaction, still
 * stored) or rewound (taken back by the user). {@code effect} is the store's own outcome mark for a tool result, if any.
 */
public record MessageEvent(
        String id,
        String role,
        double timestamp,
        String text,
        List<ToolCall> toolCalls,
        String toolCallId,
        String toolName,
        Integer tokenCount,
        State state,
        String effect) {

    public enum State {
        live,
        compacted,
        rewound
    }

    /** One tool call: its id, the tool's name and the parsed arguments (an empty object when they do not parse). */
    public record ToolCall(String id, String name, JsonNode arguments) {}

    public MessageEvent {
        toolCalls = toolCalls == null ? List.of() : toolCalls;
        text = text == null ? "" : text;
        state = state == null ? State.live : state;
    }
}
