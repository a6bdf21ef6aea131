package steward.memory.lifecycle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import steward.StewardError;
import steward.memory.MemoryRules;
import steward.memory.MemoryWriter;
import steward.memory.lifecycle.rules.UnreferencedDecayRule;
import steward.state.IoErrors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code memory_health}: the seed's indicators with their thresholds and the action each calls for. Read-only:
 * it reads the memory files, logs, index and evidence, and writes nothing.
 */
public final class MemoryHealth {
    public static final int MAX_UNPROCESSED_DAYS = 7;
    public static final int MAX_LOG_FILES = 30;

    private final MemoryRoot root;
    private final EvidenceStore evidence;
    private final Clock clock;
    private final ZoneId zone;

    public MemoryHealth(MemoryRoot root, Path stateDir, Clock clock, ZoneId zone) {
        this.root = root;
        this.evidence = new EvidenceStore(stateDir);
        this.clock = clock;
        this.zone = zone;
    }

    /** One indicator: its value, the threshold, ok / warn / act, and the action it calls for. */
    public record Indicator(String id, String value, String threshold, String status, String action) {}

    public record PartitionView(String name, String path, int chars, int entries) {}

    public record Result(
            String overall,
            List<Indicator> indicators,
            List<PartitionView> partitions,
            String memory_file,
            int chars,
            int limit) {}

    public Result check() {
        LocalDate today = LocalDate.ofInstant(clock.instant(), zone);
        List<Indicator> out = new ArrayList<>();
        Scope rootScope = Scope.root(root);
        List<String> entries = MemoryWriter.load(rootScope.file()).doc().entries();
        int chars = MemoryRules.chars(entries);
        int limit = root.rootLimit();
        out.add(new Indicator(
                "memory_size",
                MemoryRules.n(chars) + " chars"
                        + (Files.exists(rootScope.file())
                                ? ""
                                : " (no " + rootScope.file().getFileName() + " yet)"),
                "≤ 4,000 healthy; > 4,000 trim; > 6,000 consolidate now",
                chars > Scope.URGENT_CHARS ? "act" : chars > Scope.HEALTHY_CHARS ? "warn" : "ok",
                chars > Scope.URGENT_CHARS
                        ? "consolidate now"
                        : chars > Scope.HEALTHY_CHARS ? "trim at the next consolidation" : "none"));
        int pct = MemoryRules.percent(chars, limit);
        out.add(new Indicator(
                "hermes_cap",
                MemoryRules.n(chars) + "/" + MemoryRules.n(limit) + " chars (" + pct + " %)",
                "< 85 % of Hermes' cap",
                chars > limit ? "act" : MemoryRules.nearLimit(chars, limit) ? "warn" : "ok",
                chars > limit
                        ? "over Hermes' cap: compress now (memory_write batch or consolidate with prunes)"
                        : MemoryRules.nearLimit(chars, limit)
                                ? "compress redundant entries before adding more"
                                : "none"));

        ObjectNode index = MemoryIndex.read(root);
        Map<String, MemoryIndex.Position> wms = MemoryIndex.positions(index);
        Map<LocalDate, Path> logs = DailyLog.files(root.logsDir());
        Set<String> live = Partitions.names(root);
        LocalDate oldestUnprocessed = null;
        int unprocessedLines = 0;
        for (var f : logs.entrySet()) {
            for (DailyLog.Line l : DailyLog.read(f.getValue(), f.getKey()).lines()) {
                MemoryIndex.Position w = wms.get(DailyLog.owner(l, live));
                if (w != null && w.processed(f.getKey().toString(), l.number())) continue;
                unprocessedLines++;
                if (oldestUnprocessed == null) oldestUnprocessed = f.getKey();
            }
        }
        long days = oldestUnprocessed == null ? 0 : ChronoUnit.DAYS.between(oldestUnprocessed, today);
        out.add(new Indicator(
                "unprocessed_logs",
                oldestUnprocessed == null
                        ? "none"
                        : days + " days (" + unprocessedLines + " lines since " + oldestUnprocessed + ")",
                "< " + MAX_UNPROCESSED_DAYS + " days",
                days >= MAX_UNPROCESSED_DAYS ? "act" : "ok",
                days >= MAX_UNPROCESSED_DAYS ? "consolidate (memory_consolidate)" : "none"));
        out.add(new Indicator(
                "log_files",
                String.valueOf(logs.size()),
                "< " + MAX_LOG_FILES,
                logs.size() >= MAX_LOG_FILES ? "act" : "ok",
                logs.size() >= MAX_LOG_FILES ? "consolidate: logs older than 30 days move to archive/" : "none"));

        int unprefixed = 0, pastDecay = 0;
        Map<String, Evidence> ev = evidence.read();
        Map<String, LocalDate> refs = evidence.references();
        for (String e : entries) {
            Confidence.Parsed p = Confidence.parse(e);
            if (!p.prefixed()) unprefixed++;
            Evidence x = ev.get(EntryKey.of(e));
            LocalDate last = Consolidation.lastActivity(x, refs.get(EntryKey.of(e)));
            if (x == null || last == null || p.level() <= 0.3) continue;
            LocalDate changed = x.level_changed() == null ? last : LocalDate.parse(x.level_changed());
            if (!Consolidation.max(last, changed)
                    .plusDays(UnreferencedDecayRule.DAYS)
                    .isAfter(today)) pastDecay++;
        }
        out.add(new Indicator(
                "unprefixed_entries",
                String.valueOf(unprefixed),
                "0 (entries without [0.3]–[0.9] read as [0.5])",
                unprefixed > 0 ? "warn" : "ok",
                unprefixed > 0 ? "the next consolidation adds [0.5]" : "none"));
        out.add(new Indicator(
                "past_decay",
                String.valueOf(pastDecay),
                "0 (30 days unreferenced)",
                pastDecay > 0 ? "warn" : "ok",
                pastDecay > 0 ? "the next consolidation demotes them one level" : "none"));

        List<PartitionView> parts = new ArrayList<>();
        for (Partitions.Workspace w : Partitions.list(root)) {
            List<String> pe = MemoryWriter.load(w.memoryFile()).doc().entries();
            parts.add(new PartitionView(w.name(), w.path(), MemoryRules.chars(pe), pe.size()));
        }
        long bigParts =
                parts.stream().filter(p -> p.chars() > Scope.HEALTHY_CHARS).count();
        out.add(new Indicator(
                "partitions",
                parts.size()
                        + (parts.isEmpty()
                                ? ""
                                : " ("
                                        + String.join(
                                                ", ",
                                                parts.stream()
                                                        .map(PartitionView::name)
                                                        .toList()) + ")"),
                "each ≤ 4,000 chars",
                bigParts > 0 ? "warn" : "ok",
                bigParts > 0 ? "consolidate the large partition(s)" : "none"));

        String generated = index.path("generated_at").asString(null);
        String fresh;
        String status;
        try {
            Instant mtime = Files.exists(rootScope.file())
                    ? Files.getLastModifiedTime(rootScope.file()).toInstant()
                    : null;
            if (generated == null) {
                fresh = "no memory-index.json";
                status = "warn";
            } else if (mtime != null && mtime.isAfter(Instant.parse(generated).plusSeconds(1))) {
                fresh = "older than MEMORY.md (index " + generated + ")";
                status = "warn";
            } else {
                fresh = "current (" + generated + ")";
                status = "ok";
            }
        } catch (IOException | RuntimeException e) {
            fresh = "unreadable (" + e.getMessage() + ")";
            status = "warn";
        }
        out.add(new Indicator(
                "index_freshness",
                fresh,
                "rebuilt after the last change",
                status,
                status.equals("ok") ? "none" : "the next consolidation rebuilds memory-index.json"));
        JsonNode audit = index.path("audit_history");
        JsonNode last = audit.isArray() && audit.size() > 0 ? audit.get(audit.size() - 1) : null;
        out.add(new Indicator(
                "last_audit",
                last == null
                        ? "never"
                        // read leniently: memory-index.json is rebuilt by the next consolidation, never a reason to
                        // fail
                        : last.path("at").asString("?") + " ("
                                + last.path("scope").asString("?") + ", +"
                                + last.path("added").asInt(0) + " / ↑"
                                + last.path("promoted").asInt(0) + " / ↓"
                                + last.path("demoted").asInt(0) + ")",
                "a run in the last 7 days when logs are written",
                "ok",
                "none"));

        int baks = 0, surplus = 0;
        Map<String, Integer> perFile = new TreeMap<>();
        List<Path> dirs = new ArrayList<>(List.of(root.dir()));
        for (Partitions.Workspace w : Partitions.list(root)) dirs.add(w.dir());
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) continue;
            try (Stream<Path> s = Files.list(d)) {
                for (Path p : s.toList()) {
                    Matcher m = Consolidation.BAK.matcher(p.getFileName().toString());
                    if (m.matches()) {
                        baks++;
                        perFile.merge(d + "/" + m.group(1), 1, Integer::sum);
                    }
                }
            } catch (IOException e) {
                throw new StewardError("memory_health", "cannot list " + d + ": " + IoErrors.describe(e));
            }
        }
        for (int n : perFile.values()) surplus += Math.max(0, n - Consolidation.KEEP_BAKS);
        out.add(new Indicator(
                "bak_files",
                baks + " (" + surplus + " beyond the newest " + Consolidation.KEEP_BAKS + " per file)",
                "≤ " + Consolidation.KEEP_BAKS + " per file",
                surplus > 0 ? "warn" : "ok",
                surplus > 0 ? "consolidate moves the surplus to Steward's backups" : "none"));

        String overall = out.stream().anyMatch(i -> i.status().equals("act"))
                ? "act"
                : out.stream().anyMatch(i -> i.status().equals("warn")) ? "warn" : "ok";
        return new Result(overall, out, parts, root.relative(rootScope.file()), chars, limit);
    }
}
