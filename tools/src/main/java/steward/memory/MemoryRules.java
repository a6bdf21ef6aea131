package steward.memory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import steward.config.HermesConfig;
import steward.config.Origin;
import steward.json.Json;
import steward.memory.lifecycle.Confidence;
import steward.text.CodePoints;

/**
 * Everything {@code memory_write} and {@code memory_precheck} both check, in one place: size arithmetic and
 * usage strings as Hermes renders them, content cleaning, the threat scan, duplicate detection, the
 * near-limit threshold, the USER.md single-entry trap and the MEMORY.md tag convention.
 */
public final class MemoryRules {
    private MemoryRules() {}

    public static final double NEAR_LIMIT = 0.85;
    public static final List<String> TAGS = List.of("[base]", "[env]", "[ops]", "[rule]");

    /** Code points of the entries joined with the delimiter (0 when there are none). */
    public static int chars(List<String> entries) {
        if (entries.isEmpty()) return 0;
        int n = 0;
        for (String e : entries) n += CodePoints.length(e);
        return n + 3 * (entries.size() - 1);
    }

    /** Hermes' percent: {@code min(100, int(current / limit * 100))} (float arithmetic, truncated). */
    public static int hermesPercent(int current, int limit) {
        return limit > 0 ? Math.min(100, (int) ((double) current / limit * 100)) : 0;
    }

    /** The uncapped percent Steward reports next to Hermes' capped one. */
    public static int percent(int current, int limit) {
        return limit > 0 ? (int) ((long) current * 100 / limit) : 0;
    }

    public static String n(int v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    /** {@code "31% — 38/120 chars"} */
    public static String usage(int current, int limit) {
        return hermesPercent(current, limit) + "% — " + n(current) + "/" + n(limit) + " chars";
    }

    /** {@code "38/120"} (the short form in failure results). */
    public static String shortUsage(int current, int limit) {
        return n(current) + "/" + n(limit);
    }

    public static boolean nearLimit(int current, int limit) {
        return limit > 0 && current >= NEAR_LIMIT * limit;
    }

    public static String clean(String s) {
        return s == null ? "" : CodePoints.pyStrip(s);
    }

    /** Hermes' refusal of a memory write ({@link ThreatScan#blockMessage}). */
    public static Optional<String> threat(String content) {
        return ThreatScan.blockMessage(content);
    }

    /**
     * Hermes' refusal of a write to {@code t}, or Steward's when Hermes would accept the write but hide the entry from
     * its system prompt when it loads it ({@link ThreatScan#loadBlockMessage}).
     */
    public static Optional<String> threat(String content, MemoryTarget t) {
        var hermes = ThreatScan.blockMessage(content);
        return hermes.isPresent() ? hermes : ThreatScan.loadBlockMessage(content, t.fileName);
    }

    /** Hermes' 80-code-point previews for the multiple-match error. */
    public static String preview(String e) {
        return CodePoints.length(e) > 80 ? CodePoints.prefix(e, 80) + "..." : e;
    }

    public static List<Integer> matches(List<String> entries, String oldText) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) if (CodePoints.contains(entries.get(i), oldText)) out.add(i);
        return out;
    }

    public static boolean distinct(List<String> entries, List<Integer> idx) {
        return idx.stream().map(entries::get).distinct().count() > 1;
    }

    /** USER.md stored as one entry with no delimiter: a remove would delete the whole profile. */
    public static boolean singleEntryUserFile(MemoryTarget t, MemoryDocument doc) {
        return t == MemoryTarget.USER
                && doc.entries().size() == 1
                && !doc.text().contains(MemoryDocument.DELIMITER);
    }

    /** Whether the entry starts with a tag, after its confidence prefix ({@code [0.5] [env] …}) if it has one. */
    public static boolean hasTag(String content) {
        String c = Confidence.parse(content).body().toLowerCase(Locale.ROOT);
        for (String t : TAGS) if (c.startsWith(t)) return true;
        return false;
    }

    public static String tagWarning() {
        return "MEMORY.md entries should start with one of the tags " + String.join(" ", TAGS)
                + " ([env] where the agent runs, [ops] high-frequency mechanics, [rule] a trigger pointing to a skill or rule, [base] memory governance)";
    }

    public static String nearLimitWarning(MemoryTarget t, int chars, int limit) {
        return t.fileName + " is at " + percent(chars, limit) + "% of its limit (" + n(chars) + "/" + n(limit)
                + " chars, warning from 85%): compress redundant entries (replace/remove, or one operations batch) before adding more.";
    }

    public static int limit(MemoryTarget t, HermesConfig cfg) {
        return t.limit(cfg);
    }

    /** Whether memory writes wait for the user's approval, where that comes from, and why (for the staged result). */
    public record Approval(boolean on, Origin origin, String why) {}

    /**
     * Whether writes wait for the user's approval: config.yaml (approval on when it is there but cannot be read, see
     * {@link HermesConfig}), else {@code memory.write_approval} in Steward's {@code settings.json}. A settings file that
     * is there but cannot be read (emptied, cut short, not an object, a directory) or whose value is not true or false
     * is refused: the user may have turned approval on, so no write goes through unreviewed because of it, and the file
     * is left as it is.
     */
    public static Approval approval(HermesConfig cfg, Path stateDir) {
        if (cfg.writeApprovalOrigin() == Origin.UNREADABLE) {
            return new Approval(
                    true,
                    Origin.UNREADABLE,
                    "config.yaml cannot be read, so write approval is taken as on until it is fixed");
        }
        if (cfg.writeApproval()) return new Approval(true, Origin.CONFIG_FILE, "memory.write_approval is on");
        if (settingsWriteApproval(stateDir)) {
            return new Approval(
                    true, Origin.STEWARD_SETTINGS, "memory.write_approval is on in Steward's settings.json");
        }
        return new Approval(false, Origin.DEFAULT, "");
    }

    /** {@code memory.write_approval} in the state dir's {@code settings.json}: false when absent, refused when unreadable. */
    public static boolean settingsWriteApproval(Path stateDir) {
        Path settings = stateDir.resolve("settings.json");
        if (!Files.exists(settings, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return false;
        String why;
        try {
            var node = Json.MAPPER.readTree(Files.readAllBytes(settings));
            var m = node == null ? null : node.path("memory").path("write_approval");
            if (node == null || !node.isObject()) why = "not a JSON object";
            else if (m.isMissingNode() || m.isNull()) return false;
            else if (m.isBoolean()) return m.asBoolean();
            else why = "memory.write_approval is " + m + ", not true or false";
        } catch (java.io.IOException e) {
            why = steward.state.IoErrors.describe(e);
        } catch (RuntimeException e) {
            why = Json.problem(e);
        }
        throw new steward.StewardError(
                "memory_write",
                "cannot tell whether write approval is on: " + settings + " cannot be read (" + why
                        + "); nothing was written. Fix the file, or move it aside if you never turned approval on there");
    }
}
