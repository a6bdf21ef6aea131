package steward.claude;

import java.util.List;

/**
 * One conversation event of a Claude Code transcript ({@code user}, {@code assistant} or {@code system}),
 * permissively read: absent fields are null (or false), {@code epoch} is NaN when the timestamp is missing or
 * unreadable. {@code line} is the 1-based line number in the file.
 */
public record TranscriptEvent(
        int line,
        String type,
        String uuid,
        String parentUuid,
        String sessionId,
        String timestamp,
        double epoch,
        String cwd,
        String gitBranch,
        String version,
        boolean sidechain,
        String agentId,
        String role,
        List<ContentBlock> blocks,
        boolean compactSummary,
        boolean meta) {

    /** What was said: the text blocks joined by blank lines (no thinking, no tool calls, no tool output). */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (ContentBlock b : blocks) {
            if (b.kind() != ContentBlock.Kind.TEXT
                    || b.text() == null
                    || b.text().isEmpty()) continue;
            if (sb.length() > 0) sb.append("\n\n");
            sb.append(b.text());
        }
        return sb.toString();
    }

    /** A user or assistant turn (what counts as a message). */
    public boolean message() {
        return "user".equals(type) || "assistant".equals(type);
    }

    /** Whether this is a user turn that only carries tool results (no text of the user's own). */
    public boolean toolResultOnly() {
        if (blocks.isEmpty()) return false;
        for (ContentBlock b : blocks) if (b.kind() != ContentBlock.Kind.TOOL_RESULT) return false;
        return true;
    }
}
