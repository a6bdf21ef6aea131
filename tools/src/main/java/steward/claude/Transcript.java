package steward.claude;

import java.nio.file.Path;
import java.util.List;

/**
 * A Claude Code transcript read whole ({@link TranscriptReader}): its conversation events in file order (with
 * sidechain events of older versions flagged, not removed), its title entries, and what the reader had to
 * skip. {@code malformed} counts lines that are not a JSON object (a truncated last line included);
 * {@code truncatedTail} says the last line had no newline and did not parse (a writer in progress or a cut
 * file); {@code otherEntries} counts well-formed entries of types a reader skips (snapshots, queue operations…).
 */
public record Transcript(
        Path file,
        String sessionId,
        String cwd,
        String gitBranch,
        String version,
        List<TranscriptEvent> events,
        List<TitleEntry> titles,
        String continuedIn,
        boolean continuation,
        int lines,
        int malformed,
        boolean truncatedTail,
        int otherEntries) {

    /** The effective title: the latest {@code custom-title}, else the latest {@code ai-title}, else the latest {@code summary}. */
    public String title() {
        TitleEntry t = Titles.effective(titles);
        return t == null ? null : t.text();
    }

    /** Which kind of entry gave the title, or null. */
    public String titleKind() {
        TitleEntry t = Titles.effective(titles);
        return t == null ? null : t.kind();
    }

    /** The latest {@code tag}, or null. */
    public String tag() {
        String tag = null;
        for (TitleEntry t : titles) if (TitleEntry.TAG.equals(t.kind())) tag = t.text();
        return tag;
    }

    /** User and assistant turns that are not sidechain events. */
    public long messageCount() {
        return events.stream().filter(e -> e.message() && !e.sidechain()).count();
    }

    public long sidechainCount() {
        return events.stream().filter(e -> e.message() && e.sidechain()).count();
    }

    /** Epoch seconds of the first and last timestamped event, NaN when none. */
    public double firstEpoch() {
        for (TranscriptEvent e : events) if (!Double.isNaN(e.epoch())) return e.epoch();
        return Double.NaN;
    }

    public double lastEpoch() {
        for (int i = events.size() - 1; i >= 0; i--)
            if (!Double.isNaN(events.get(i).epoch())) return events.get(i).epoch();
        return Double.NaN;
    }
}
