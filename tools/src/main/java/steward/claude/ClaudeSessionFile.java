package steward.claude;

import java.nio.file.Path;

/**
 * One transcript of a Claude Code home, as listed: a main session ({@code projects/<project>/<uuid>.jsonl}, with
 * its {@code <uuid>/} directory when there is one) or a subagent transcript ({@code <uuid>/subagents/**}{@code
 * /agent-<id>.jsonl} with its {@code .meta.json}, or an older project-level {@code agent-<id>.jsonl}).
 * {@code lastModifiedMillis} of a main session is the newest modification of its transcript and its subagents'
 * transcripts. {@code escapes}: a symlink on the way leads out of the Claude home (never moved).
 * {@code indexed}: its project's {@code sessions-index.json} has an entry for it.
 */
public record ClaudeSessionFile(
        String id,
        Kind kind,
        String project,
        Path file,
        Path dir,
        Path meta,
        String parentId,
        long size,
        long mtimeNanos,
        long lastModifiedMillis,
        TranscriptFacts facts,
        boolean escapes,
        boolean indexed) {

    public enum Kind {
        MAIN,
        SUBAGENT,
        FLAT_SUBAGENT
    }

    /** A subagent's description from its {@code .meta.json} ({@code agentType: description}), or null. */
    public String agentDescription() {
        return ClaudeHome.description(meta);
    }

    public boolean subagent() {
        return kind != Kind.MAIN;
    }

    /** The session uuid of a main session (its file name without {@code .jsonl}). */
    public String uuid() {
        String n = file.getFileName().toString();
        return n.substring(0, n.length() - ".jsonl".length());
    }
}
