package steward.claude;

/**
 * What the audit needs to know about one transcript file, from {@link TranscriptScanner}: identity and place
 * (session id, cwd, branch, agent id), first and last event times (epoch seconds, NaN when unknown), the
 * effective title and its kind, the number of user and assistant turns ({@code messages}: outside sidechains for a
 * session's own transcript, all of them for a subagent's; exact when {@code exact}, else estimated from the parts read), sidechain turns seen, whether every turn is a
 * sidechain turn (a subagent transcript), whether it opens as a continuation after compaction, the session it
 * was continued in ({@code continued-in}), malformed lines seen, and whether the last line is unterminated and
 * unreadable (being written, or cut).
 */
public record TranscriptFacts(
        String sessionId,
        String cwd,
        String gitBranch,
        String agentId,
        double firstEpoch,
        double lastEpoch,
        String title,
        String titleKind,
        int messages,
        boolean exact,
        int sidechainMessages,
        boolean allSidechain,
        boolean continuation,
        String continuedIn,
        int malformed,
        boolean openTail) {}
