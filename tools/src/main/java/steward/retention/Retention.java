package steward.retention;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import steward.StewardError;
import steward.config.Origin;
import steward.config.StewardConfig;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.sessions.backup.SessionBackup;
import steward.sessions.store.Sqlite;
import steward.state.FileMoves;
import tools.jackson.databind.JsonNode;

/**
 * How long Steward keeps its own plans and session backups, and the pruning that follows from it.
 * <ul>
 * <li>Plans (housekeeping {@code p_…}, consolidation {@code mc_…}) are pruned once expired: they can never be applied.</li>
 * <li>A session backup ({@code backups/sessions/b_…}) older than {@code steward.backup_retention_days} (config.yaml,
 * default {@value #DEFAULT_BACKUP_DAYS}) is pruned only when it is not the only copy of anything: every session it
 * holds exists in state.db (restored, or only ended or renamed), every side file it holds is back in place, and every
 * Claude Code file it moved is back in the Claude Code home (the file there begins with the backed-up bytes: one
 * merely present at the path may hold only turns written since). A
 * backup that still holds a deleted session or a side file found nowhere else is kept, whatever its age, and reported
 * ({@code steward backups}); only an explicit {@link #discard} with {@code force} removes it.</li>
 * </ul>
 * Memory snapshots keep their own count-based rule (the newest 2 per file, {@code MemoryBackups}).
 */
public final class Retention {
    public static final int DEFAULT_BACKUP_DAYS = StewardConfig.DEFAULT_BACKUP_DAYS;
    public static final String KEY = "steward.backup_retention_days";
    static final long PLAN_SECONDS = 24 * 3600;
    private static final Pattern BACKUP = Pattern.compile("(b_(\\d{8}T\\d{6}Z)_[0-9a-f]{6})(\\.claude)?\\.jsonl");
    private static final Pattern PLAN = Pattern.compile("(p_[0-9a-f]{16}|mc_[0-9a-f]{16})\\.json");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    private final StewardPaths paths;
    private final Clock clock;
    private final Settings settings;

    public Retention(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
        this.settings = Settings.load(paths.configYaml());
    }

    /** {@code steward.backup_retention_days} from config.yaml ({@link StewardConfig}): a positive number of days, else the default (with a warning). */
    public record Settings(int backupDays, Origin origin, List<String> warnings) {
        public static Settings load(Path configYaml) {
            return of(StewardConfig.load(configYaml));
        }

        public static Settings of(StewardConfig config) {
            var days = config.backupRetentionDays();
            String file = switch (config.read().state()) {
                case UNREADABLE -> config.file() + " unreadable: backups kept " + DEFAULT_BACKUP_DAYS + " days";
                case MALFORMED -> config.file() + " malformed: backups kept " + DEFAULT_BACKUP_DAYS + " days";
                default -> null;
            };
            List<String> w = new ArrayList<>();
            if (file != null) w.add(file);
            w.addAll(StewardConfig.warnings(List.of(days)));
            return new Settings(days.value(), days.origin(), List.copyOf(w));
        }
    }

    public Settings settings() {
        return settings;
    }

    /**
     * One session backup as retention sees it. {@code only_copy_sessions}: its sessions that are in no other place
     * (not in state.db; a Claude Code session with a file not back in its home); {@code only_copy_files}: side files not
     * back under {@code <home>/sessions/} and Claude Code files not back in the Claude Code home.
     */
    public record Backup(
            String backup_id,
            String created_at,
            double age_days,
            long bytes,
            int sessions,
            int only_copy_sessions,
            int only_copy_files,
            String state) {
        public boolean onlyCopy() {
            return only_copy_sessions > 0 || only_copy_files > 0;
        }
    }

    /** What a run found and did; {@code pruned} lists what was (or, without pruning, would be) removed. */
    public record Report(
            int backup_days,
            Origin backup_days_origin,
            List<Backup> backups,
            List<String> pruned_backups,
            List<String> pruned_plans,
            long bytes_freed,
            List<String> warnings) {
        public List<Backup> keptAsOnlyCopy() {
            return backups.stream()
                    .filter(b -> b.state().equals(KEPT_ONLY_COPY))
                    .toList();
        }
    }

    public static final String WITHIN = "within retention";
    public static final String KEPT_ONLY_COPY = "kept: the only copy";
    public static final String PRUNABLE = "past retention";

    /** Lists the session backups and plans, and removes what the rules allow when {@code prune} is set. */
    public Report run(boolean prune) {
        Instant now = clock.instant();
        List<String> warnings = new ArrayList<>(settings.warnings());
        List<String> prunedPlans = prunePlans(now, prune, warnings);
        List<Backup> backups = new ArrayList<>();
        List<String> prunedBackups = new ArrayList<>();
        long freed = 0;
        SessionBackup store = new SessionBackup(paths.stateDir());
        Set<String> seen = new LinkedHashSet<>();
        for (Path f : list(store.dir())) {
            Matcher m = BACKUP.matcher(f.getFileName().toString());
            if (!m.matches() || !seen.add(m.group(1)))
                continue; // a backup's Hermes part and Claude Code part are one backup
            String id = m.group(1);
            Instant created = LocalDateTime.parse(m.group(2), STAMP).toInstant(ZoneOffset.UTC);
            double age = (now.getEpochSecond() - created.getEpochSecond()) / 86_400.0;
            long bytes = size(store.file(id)) + size(store.claudeFile(id)) + size(store.filesDir(id));
            Backup b;
            try {
                b = examine(store, id, created, age, bytes);
            } catch (IOException | SQLException | RuntimeException e) {
                warnings.add("backup " + id + " kept: cannot check what it holds (" + e.getMessage() + ")");
                backups.add(new Backup(id, created.toString(), round(age), bytes, 0, 0, 0, KEPT_ONLY_COPY));
                continue;
            }
            backups.add(b);
            if (prune && b.state().equals(PRUNABLE)) {
                try {
                    store.remove(id);
                    prunedBackups.add(id);
                    freed += bytes;
                } catch (IOException e) {
                    warnings.add("backup " + id + " not pruned: " + e.getMessage());
                }
            } else if (!prune && b.state().equals(PRUNABLE)) {
                prunedBackups.add(id);
                freed += bytes;
            }
        }
        return new Report(
                settings.backupDays(), settings.origin(), backups, prunedBackups, prunedPlans, freed, warnings);
    }

    private Backup examine(SessionBackup store, String id, Instant created, double age, long bytes)
            throws IOException, SQLException {
        // only the ids: a backup of tens of thousands of sessions (hundreds of MB) is read a line at a time, never
        // whole
        List<String> ids = new ArrayList<>();
        if (Files.exists(store.file(id)))
            store.forEachLine(id, l -> ids.add(l.path("id").asString()));
        List<JsonNode> claudeLines = store.readClaude(id);
        int onlySessions = 0, onlyFiles = 0;
        if (!ids.isEmpty()) {
            try (Connection c = Sqlite.openReadOnly(paths.stateDb());
                    PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
                for (String sid : ids) {
                    // deleted by the apply, or ended / renamed by it and deleted since outside Steward (Hermes'
                    // auto_prune deletes ended sessions): the backup holds the session whole, and restore brings it
                    // back
                    ps.setString(1, sid);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) onlySessions++;
                    }
                }
            }
        }
        for (Path side : list(store.filesDir(id))) {
            if (side.getFileName().toString().equals(CLAUDE_FILES)) continue;
            if (!Files.exists(paths.hermesHome()
                    .resolve("sessions")
                    .resolve(side.getFileName().toString()))) onlyFiles++;
        }
        // the Claude Code part: a file still in the backup and not back where it was is the only copy of its session
        Path claudeFiles = store.filesDir(id).resolve(CLAUDE_FILES);
        int claudeSessions = 0;
        for (JsonNode l : claudeLines) {
            claudeSessions += 1 + l.path("with").size();
            String made = l.path("_steward").path("claude_home").asString(null);
            Path home = made != null ? Path.of(made) : paths.claudeHome();
            int missing = 0;
            for (JsonNode r : l.path("paths")) {
                Path saved = claudeFiles.resolve(r.asString());
                if (Files.exists(saved, LinkOption.NOFOLLOW_LINKS)
                        && (home == null || !carried(saved, home.resolve(r.asString())))) missing++;
            }
            if (missing > 0) {
                onlySessions += 1 + l.path("with").size();
                onlyFiles += missing;
            }
        }
        // a file of the Claude Code part that no manifest line names (its manifest lost) and not back in the home is
        // the only copy all the same
        onlyFiles += unlistedOnlyCopies(claudeFiles, claudeLines);
        String state =
                age < settings.backupDays() ? WITHIN : onlySessions > 0 || onlyFiles > 0 ? KEPT_ONLY_COPY : PRUNABLE;
        return new Backup(
                id, created.toString(), round(age), bytes, ids.size() + claudeSessions, onlySessions, onlyFiles, state);
    }

    /** Where a backup keeps the Claude Code files it moved ({@code <id>.files/claude/}). */
    static final String CLAUDE_FILES = "claude";

    /**
     * Whether every file the backup holds at {@code saved} (a file or a folder) is carried by the Claude Code home at
     * {@code inHome}: the file there begins with the backup's bytes. A file merely present at the path is not enough:
     * Claude Code appends to a session's transcript by path, so a window still open on a moved session writes a new
     * file there that holds only the new turns, and the backup stays the only copy of the rest.
     */
    static boolean carried(Path saved, Path inHome) throws IOException {
        for (Path f : FileMoves.files(saved)) {
            Path at = Files.isDirectory(saved, LinkOption.NOFOLLOW_LINKS)
                    ? inHome.resolve(saved.relativize(f).toString())
                    : inHome;
            if (!FileMoves.startsWith(at, f)) return false;
        }
        return Files.exists(inHome, LinkOption.NOFOLLOW_LINKS);
    }

    /** Files under {@code claudeFiles} outside every path {@code lines} name and not in the Claude Code home. */
    private int unlistedOnlyCopies(Path claudeFiles, List<JsonNode> lines) throws IOException {
        if (!Files.isDirectory(claudeFiles, LinkOption.NOFOLLOW_LINKS)) return 0;
        List<Path> named = new ArrayList<>();
        for (JsonNode l : lines) for (JsonNode r : l.path("paths")) named.add(claudeFiles.resolve(r.asString()));
        Path home = paths.claudeHome();
        int n = 0;
        try (Stream<Path> s = Files.walk(claudeFiles)) {
            for (Path f : s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .toList()) {
                if (named.stream().anyMatch(f::startsWith)) continue;
                String rel = claudeFiles.relativize(f).toString();
                // a transcript must hold the backed-up bytes; an index (sessions-index.json) is Claude Code's to
                // rewrite
                boolean back = home != null
                        && (rel.endsWith(".jsonl")
                                ? carried(f, home.resolve(rel))
                                : Files.exists(home.resolve(rel), LinkOption.NOFOLLOW_LINKS));
                if (!back) n++;
            }
        }
        return n;
    }

    /** Removes one backup on the user's explicit word; one that holds the only copy of something needs {@code force}. */
    public Backup discard(String backupId, boolean force) {
        SessionBackup store = new SessionBackup(paths.stateDir());
        store.requireExisting(backupId, "steward backups");
        Backup b = run(false).backups().stream()
                .filter(x -> x.backup_id().equals(backupId))
                .findFirst()
                .orElseThrow(() -> new StewardError("steward backups", "no backup " + backupId));
        if (b.onlyCopy() && !force) {
            throw new StewardError(
                    "steward backups",
                    "backup " + backupId + " holds the only copy of " + b.only_copy_sessions()
                            + " deleted session(s) and " + b.only_copy_files()
                            + " side file(s); restore them with session_restore, or pass --force "
                            + "to discard them for good");
        }
        try {
            store.remove(backupId);
        } catch (IOException e) {
            throw new StewardError("steward backups", "cannot remove " + backupId + ": " + e.getMessage(), e);
        }
        return b;
    }

    /** Expired plans: housekeeping plans past their validity (used or not), consolidation plans past expires_epoch. */
    private List<String> prunePlans(Instant now, boolean prune, List<String> warnings) {
        List<String> out = new ArrayList<>();
        Path dir = paths.stateDir().resolve("plans");
        for (Path d : List.of(dir, dir.resolve("used"))) {
            for (Path p : list(d)) {
                Matcher m = PLAN.matcher(p.getFileName().toString());
                if (!m.matches()) continue;
                try {
                    boolean expired;
                    if (m.group(1).startsWith("mc_") && d.equals(dir)) {
                        JsonNode plan = Json.MAPPER.readTree(Files.readAllBytes(p));
                        expired = plan.path("expires_epoch").asLong(Long.MAX_VALUE) < now.getEpochSecond();
                    } else {
                        expired = Files.getLastModifiedTime(p).toInstant().getEpochSecond()
                                < now.getEpochSecond() - PLAN_SECONDS;
                    }
                    if (!expired) continue;
                    if (prune) Files.deleteIfExists(p);
                    out.add(m.group(1));
                } catch (IOException | RuntimeException e) {
                    warnings.add("plan " + p.getFileName() + " not checked: " + e.getMessage());
                }
            }
        }
        return out;
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Bytes of a file, or of every file under a directory; 0 when absent. */
    static long size(Path p) {
        if (!Files.exists(p)) return 0;
        try (Stream<Path> s = Files.walk(p)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(f -> {
                        try {
                            return Files.size(f);
                        } catch (IOException e) {
                            return 0;
                        }
                    })
                    .sum();
        } catch (IOException e) {
            return 0;
        }
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
