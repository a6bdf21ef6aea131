package steward.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import steward.StewardError;
import steward.config.HermesConfig;
import steward.config.Origin;
import steward.config.StewardPaths;
import steward.memory.MemoryDocument;
import steward.memory.MemoryRules;
import steward.recall.RecallRuntime;
import steward.recall.RecallStatus;
import steward.sessions.store.DiskUsage;
import steward.sessions.store.SessionStore;

/** Builds {@link StatusReport}: read-only, never creates or changes a file. */
public final class StatusEngine {
    private final StewardPaths paths;
    private final RecallRuntime recall;
    private final Clock clock;

    public StatusEngine(StewardPaths paths) {
        this(paths, RecallRuntime.process(), Clock.systemUTC());
    }

    public StatusEngine(StewardPaths paths, Clock clock) {
        this(paths, RecallRuntime.process(), clock);
    }

    /** With the process's recall runtime (its settings, its model, its background indexer) and the engines' clock. */
    public StatusEngine(StewardPaths paths, RecallRuntime recall, Clock clock) {
        this.paths = paths;
        this.recall = recall;
        this.clock = clock;
    }

    public StatusReport status() {
        List<String> warnings = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Path home = paths.hermesHome();
        boolean homeExists = Files.isDirectory(home);
        boolean claude = paths.claudePresent();
        boolean named = paths.hermesHomeOrigin() == Origin.FLAG || paths.hermesHomeOrigin() == Origin.ENVIRONMENT;
        if (!homeExists && claude && !named) {
            warnings.add("hermes home: " + home + " does not exist; serving the Claude Code home only");
        } else if (!homeExists && claude) { // named but missing: a mistyped path, as the other tools say
            errors.add("hermes home: " + home + " does not exist (from " + paths.hermesHomeSource()
                    + "); serving the Claude Code home only");
        } else if (!homeExists) {
            errors.add(
                    "hermes home: " + home + " does not exist or is not a directory (set --hermes-home or HERMES_HOME"
                            + (paths.claudeHome() == null
                                    ? ")"
                                    : "; no Claude Code home at " + paths.claudeHome()
                                            + " either: --claude-home or CLAUDE_CONFIG_DIR)"));
        }
        if (paths.claudeHome() != null && !claude && paths.claudeHomeOrigin() != Origin.DEFAULT) {
            warnings.add("claude home: " + paths.claudeHome() + " does not exist or is not a directory");
        }
        HermesConfig cfg = HermesConfig.load(paths.configYaml());
        warnings.addAll(cfg.warnings());

        StatusReport.StateDb stateDb;
        StatusReport.Sessions sessions = null;
        DiskUsage disk = null;
        Path db = paths.stateDb();
        String supported = SessionStore.MIN_SCHEMA + "-" + SessionStore.MAX_SCHEMA;
        if (!Files.exists(db)) {
            stateDb = new StatusReport.StateDb(db.toString(), false, null, supported, false, null);
            if (homeExists) warnings.add("state.db: not found at " + db + " (Hermes has not stored a session yet)");
        } else {
            try (SessionStore store = SessionStore.openReadOnly(db)) {
                SessionStore.Counts c = store.counts();
                sessions = new StatusReport.Sessions(
                        c.total(), c.active(), c.ended(), c.archived(), c.bySource(), c.messages());
                stateDb = new StatusReport.StateDb(db.toString(), true, store.schemaVersion(), supported, true, null);
            } catch (StewardError e) {
                stateDb = new StatusReport.StateDb(db.toString(), true, null, supported, false, e.getMessage());
                errors.add(e.getMessage());
            }
            if (stateDb.readable()) {
                try {
                    disk = DiskUsage.of(home, db);
                } catch (StewardError e) {
                    warnings.add("disk usage: " + e.getMessage());
                }
            }
        }

        Map<String, StatusReport.MemoryUsage> memory = new LinkedHashMap<>();
        memory.put("memory", usage(paths.memoriesDir().resolve("MEMORY.md"), cfg.memoryCharLimit(), warnings, errors));
        memory.put("user", usage(paths.memoriesDir().resolve("USER.md"), cfg.userCharLimit(), warnings, errors));

        int skills = countSkills(paths.skillsDir(), warnings);
        // the approval memory_write would apply: config.yaml or Steward's settings.json (an unreadable settings.json
        // refuses writes, named among the state files below)
        MemoryRules.Approval approval;
        try {
            approval = MemoryRules.approval(cfg, paths.stateDir());
        } catch (StewardError e) {
            approval = new MemoryRules.Approval(true, Origin.UNREADABLE, e.getMessage());
        }
        StatusReport.Config config = new StatusReport.Config(
                cfg.memoryCharLimit(),
                origin(cfg.memoryCharLimitOrigin()),
                cfg.userCharLimit(),
                origin(cfg.userCharLimitOrigin()),
                approval.on(),
                origin(approval.origin()));
        StatusReport.Paths p = new StatusReport.Paths(
                new StatusReport.Location(paths.hermesHome().toString(), origin(paths.hermesHomeOrigin())),
                new StatusReport.Location(paths.stateDir().toString(), origin(paths.stateDirOrigin())),
                paths.configYaml().toString(),
                Files.isRegularFile(paths.configYaml()),
                paths.claudeHome() == null
                        ? null
                        : new StatusReport.Location(paths.claudeHome().toString(), origin(paths.claudeHomeOrigin())));
        RecallStatus rs = RecallStatus.of(paths, recall, clock);
        for (String w : rs.settings_warnings()) warnings.add("recall settings: " + w);
        // Steward's own files it cannot read: reported here, left as they are
        warnings.addAll(StateFiles.problems(paths, clock));
        StatusReport.Claude claudeStatus = paths.claudeHome() == null ? null : ClaudeStatus.of(paths, clock, warnings);
        return new StatusReport(
                p,
                homeExists,
                stateDb,
                sessions,
                memory,
                config,
                skills,
                List.copyOf(warnings),
                List.copyOf(errors),
                rs,
                claudeStatus,
                disk);
    }

    private static String origin(Origin o) {
        return o.name().toLowerCase(Locale.ROOT);
    }

    static StatusReport.MemoryUsage usage(Path file, int limit, List<String> warnings, List<String> errors) {
        try {
            MemoryDocument doc = MemoryDocument.read(file);
            int chars = doc.chars();
            int pct = MemoryRules.percent(chars, limit);
            String usage = MemoryRules.usage(chars, limit); // Hermes' own rendering, as memory_write reports it
            if (chars > limit) {
                warnings.add(
                        file.getFileName() + ": over its limit (" + usage + "); compress it before the next write");
            } else if (MemoryRules.nearLimit(chars, limit)) {
                warnings.add(file.getFileName() + ": near its limit (" + usage + ")");
            }
            return new StatusReport.MemoryUsage(
                    file.toString(),
                    doc.exists(),
                    chars,
                    limit,
                    pct,
                    doc.entries().size(),
                    usage,
                    null);
        } catch (StewardError e) {
            errors.add(e.getMessage());
            return new StatusReport.MemoryUsage(file.toString(), true, 0, limit, 0, 0, null, e.getMessage());
        }
    }

    static int countSkills(Path skillsDir, List<String> warnings) {
        if (!Files.isDirectory(skillsDir)) return 0;
        try (Stream<Path> s = Files.walk(skillsDir)) {
            return (int) s.filter(p -> p.getFileName().toString().equals("SKILL.md") && Files.isRegularFile(p))
                    .count();
        } catch (IOException | UncheckedIOException e) {
            warnings.add("skills: cannot list " + skillsDir + ": " + e.getMessage());
            return 0;
        }
    }
}
