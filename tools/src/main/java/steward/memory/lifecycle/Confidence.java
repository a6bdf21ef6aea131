package steward.memory.lifecycle;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The seed's confidence prefix at the start of an entry: {@code [0.3]} tentative (mentioned once), {@code [0.5]}
 * leaning (2–3 mentions), {@code [0.7]} confirmed (4+ mentions), {@code [0.9]} core (the user confirmed it).
 * An entry without a prefix is read as {@code [0.5]}.
 */
public final class Confidence {
    private Confidence() {}

    public static final List<Double> LEVELS = List.of(0.3, 0.5, 0.7, 0.9);
    public static final double DEFAULT = 0.5;
    static final Pattern PREFIX = Pattern.compile("^\\[(0\\.[3579])\\][ \\t]*");

    /** An entry split into its confidence and its body; {@code prefixed} says whether the text carried one. */
    public record Parsed(double level, String body, boolean prefixed) {
        public String text() {
            return format(level, body);
        }
    }

    public static Parsed parse(String entry) {
        Matcher m = PREFIX.matcher(entry);
        if (m.find()) return new Parsed(Double.parseDouble(m.group(1)), entry.substring(m.end()), true);
        return new Parsed(DEFAULT, entry, false);
    }

    public static String format(double level, String body) {
        // an entry that is only a prefix stays one: a trailing space would make Hermes read the file as drifted
        return body.isEmpty() ? label(level) : label(level) + " " + body;
    }

    public static String label(double level) {
        return "[" + String.format(Locale.ROOT, "%.1f", level) + "]";
    }

    public static double up(double level) {
        int i = index(level);
        return LEVELS.get(Math.min(LEVELS.size() - 1, i + 1));
    }

    public static double down(double level) {
        int i = index(level);
        return LEVELS.get(Math.max(0, i - 1));
    }

    public static int index(double level) {
        for (int i = 0; i < LEVELS.size(); i++) if (Math.abs(LEVELS.get(i) - level) < 1e-9) return i;
        throw new IllegalArgumentException("not a confidence level: " + level);
    }

    /** The number of mentions a level stands for when no evidence was recorded (1, 2, 4, 5). */
    public static int impliedMentions(double level) {
        return switch (index(level)) {
            case 0 -> 1;
            case 1 -> 2;
            case 2 -> 4;
            default -> 5;
        };
    }

    public static String meaning(double level) {
        return switch (index(level)) {
            case 0 -> "tentative";
            case 1 -> "leaning";
            case 2 -> "confirmed";
            default -> "core";
        };
    }
}
