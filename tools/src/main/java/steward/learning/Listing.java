package steward.learning;

import java.util.Map;

/**
 * The sessions one housekeeping run found, to check the user's earlier delete requests against (rule F's requests hold
 * only for the session as the user saw it). {@code complete}: every home that has sessions was listed, so a session in
 * none of them is gone; false: only some homes were listed, so a session not found is out of sight, not gone.
 */
public record Listing(Map<String, Now> sessions, boolean complete) {
    /** A session as it is now: its title (null when untitled), message count, newest activity and whether it ended. */
    public record Now(String title, int messages, double lastActivity, boolean ended) {}

    public Listing {
        sessions = Map.copyOf(sessions);
    }
}
