package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import steward.StewardError;
import steward.memory.MemoryDocument;
import steward.state.IoErrors;

/**
 * One daily log, {@code logs/YYYY-MM-DD.md}: a {@code # date} header, then one note per line,
 * {@code - HH:MM text} or {@code - HH:MM @workspace: text} for a partition's note (the root's once that partition is
 * deleted). Lines in another shape (written by hand or by another tool) are kept as they are and belong to the root.
 */
public final class DailyLog {
    private DailyLog() {}

    public static final Pattern NAME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})\\.md");
    static final Pattern NOTE = Pattern.compile("^- (\\d{2}:\\d{2}) (?:@([a-z0-9._-]+): )?(.*)$");
    /** The mark that makes a note a partition's ({@code @name: }), as {@link #NOTE} reads it after the time. */
    static final Pattern WORKSPACE_MARK = Pattern.compile("@[a-z0-9._-]+: ");

    /** One line of a log: its 1-based number, time (null for a free line), partition (null for the root) and text. */
    public record Line(int number, LocalTime time, String workspace, String text) {
        public boolean note() {
            return time != null;
        }
    }

    public record Day(LocalDate date, Path file, List<Line> lines) {
        public List<Line> notes() {
            return lines.stream().filter(Line::note).toList();
        }

        /** The lines marked for {@code workspace} (null: unmarked), whether or not that partition exists. */
        public List<Line> in(String workspace) {
            return lines.stream()
                    .filter(l -> workspace == null ? l.workspace() == null : workspace.equals(l.workspace()))
                    .toList();
        }

        /** The lines of scope {@code scopeId}, as {@link DailyLog#owner} assigns them. */
        public List<Line> of(String scopeId, Set<String> live) {
            return lines.stream().filter(l -> owner(l, live).equals(scopeId)).toList();
        }
    }

    /**
     * The scope a line belongs to: its partition's ({@code ws:<name>}) when that partition exists ({@code live}), else
     * the root's — a note of a deleted partition is the root's, so it is still consolidated (with its mark shown).
     */
    public static String owner(Line l, Set<String> live) {
        return l.workspace() == null || !live.contains(l.workspace()) ? "root" : "ws:" + l.workspace();
    }

    /** A note of a partition that does not exist (any more): the root's, as {@link #owner} reads it. */
    public static boolean orphan(Line l, Set<String> live) {
        return l.workspace() != null && !live.contains(l.workspace());
    }

    public static Path file(MemoryRoot root, LocalDate d) {
        return root.logsDir().resolve(d + ".md");
    }

    public static Day read(Path file, LocalDate date) {
        String text;
        try {
            // read-only uses (gather, plan, health) read a damaged log leniently; memory_log never rewrites one
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new Day(date, file, List.of());
        } catch (IOException e) {
            throw new StewardError("memory_log", "cannot read " + file + ": " + IoErrors.describe(e));
        }
        return parse(text, file, date);
    }

    public static Day parse(String text, Path file, LocalDate date) {
        List<Line> out = new ArrayList<>();
        String[] ls = MemoryDocument.normalizeNewlines(text).split("\n", -1);
        for (int i = 0; i < ls.length; i++) {
            String l = ls[i];
            if (l.isBlank() || l.startsWith("# ")) continue;
            Matcher m = NOTE.matcher(l);
            if (m.matches()) {
                LocalTime t;
                try {
                    t = LocalTime.parse(m.group(1));
                } catch (RuntimeException e) {
                    out.add(new Line(i + 1, null, null, l.strip()));
                    continue;
                }
                out.add(new Line(i + 1, t, m.group(2), m.group(3).strip()));
            } else {
                out.add(new Line(i + 1, null, null, l.strip().replaceFirst("^[-*]\\s+", "")));
            }
        }
        return new Day(date, file, out);
    }

    /** Every log file under {@code dir} by date (oldest first). */
    public static Map<LocalDate, Path> files(Path dir) {
        Map<LocalDate, Path> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (m.matches() && Files.isRegularFile(p)) {
                    try {
                        out.put(LocalDate.parse(m.group(1)), p);
                    } catch (RuntimeException e) {
                        // not a real date: not a daily log
                    }
                }
            });
        } catch (IOException e) {
            throw new StewardError("memory", "cannot list " + dir + ": " + IoErrors.describe(e));
        }
        return out;
    }

    public static String noteLine(LocalTime t, String workspace, String text) {
        return "- " + String.format("%02d:%02d", t.getHour(), t.getMinute()) + " "
                + (workspace == null ? "" : "@" + workspace + ": ") + text;
    }

    public static String header(LocalDate d) {
        return "# " + d + "\n\n";
    }
}
