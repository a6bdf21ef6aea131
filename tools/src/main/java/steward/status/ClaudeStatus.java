package steward.status;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import steward.claude.ClaudeHome;
import steward.claude.ClaudeSessionFile;
import steward.claude.SessionsIndex;
import steward.config.StewardPaths;
import steward.sessions.audit.Times;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.SessionRow;

/** The Claude Code part of {@code steward_status}: read-only (the scan cache is used, never written). */
final class ClaudeStatus {
    private ClaudeStatus() {}

    static final int MAX_PROJECTS = 10;
    static final int DEFAULT_CLEANUP_DAYS = ClaudeHome.DEFAULT_CLEANUP_DAYS;

    static StatusReport.Claude of(StewardPaths paths, Clock clock, List<String> warnings) {
        Path home = paths.claudeHome();
        StatusReport.Location loc = new StatusReport.Location(
                home.toString(), paths.claudeHomeOrigin().name().toLowerCase(Locale.ROOT));
        int cleanup = DEFAULT_CLEANUP_DAYS;
        String cleanupOrigin = "default";
        if (!paths.claudePresent()) {
            return new StatusReport.Claude(
                    loc,
                    false,
                    home.resolve("projects").toString(),
                    0,
                    0,
                    0,
                    0,
                    0,
                    ClaudeSessions.DEFAULT_IDLE_SECONDS / 3600,
                    List.of(),
                    0,
                    0,
                    List.of(),
                    0,
                    0,
                    cleanup,
                    cleanupOrigin,
                    null);
        }
        ClaudeHome.Cleanup settings = ClaudeHome.cleanup(home);
        cleanup = settings.days();
        cleanupOrigin = settings.origin();
        if (settings.error() != null)
            warnings.add("claude settings.json: cannot be read (" + settings.error() + "); cleanupPeriodDays taken as "
                    + DEFAULT_CLEANUP_DAYS);
        ClaudeSessions src = new ClaudeSessions(
                home,
                paths.stateDir(),
                new ClaudeSessions.Options(
                        Times.epoch(clock.instant()), ClaudeSessions.DEFAULT_IDLE_SECONDS, null, false));
        List<SessionRow> rows = src.rows();
        ClaudeHome.Listing l = src.listing();
        for (String w : l.warnings()) warnings.add(w);
        Map<String, int[]> per = new LinkedHashMap<>();
        Map<String, String> cwd = new HashMap<>();
        int live = 0, subagents = 0, malformed = 0;
        for (SessionRow r : rows) {
            int[] c = per.computeIfAbsent(r.group(), k -> new int[3]);
            ClaudeSessionFile f = src.file(r.id());
            malformed += f.facts().malformed();
            if (r.subagent()) {
                subagents++;
                c[2]++;
                continue;
            }
            c[0]++;
            if (r.active()) {
                live++;
                c[1]++;
            }
            if (f.facts().cwd() != null) cwd.putIfAbsent(r.group(), f.facts().cwd());
        }
        int indexFiles = 0, orphans = 0;
        List<String> broken = new ArrayList<>();
        for (ClaudeHome.Project p : l.projects()) {
            per.computeIfAbsent(p.name(), k -> new int[3]);
            if (p.index().exists()) indexFiles++;
            if (p.index().exists() && !p.index().usable()) broken.add(p.name() + "/" + SessionsIndex.FILE);
            orphans += p.orphanDirs().size();
        }
        List<StatusReport.ClaudeProject> projects = new ArrayList<>();
        per.forEach((k, c) -> projects.add(new StatusReport.ClaudeProject(k, cwd.get(k), c[0], c[1], c[2])));
        projects.sort(Comparator.comparingInt(StatusReport.ClaudeProject::sessions)
                .reversed()
                .thenComparing(StatusReport.ClaudeProject::project));
        int main = rows.size() - subagents;
        return new StatusReport.Claude(
                loc,
                true,
                src.location(),
                l.projects().size(),
                main,
                live,
                main - live,
                subagents,
                ClaudeSessions.DEFAULT_IDLE_SECONDS / 3600,
                List.copyOf(projects.subList(0, Math.min(MAX_PROJECTS, projects.size()))),
                Math.max(0, projects.size() - MAX_PROJECTS),
                indexFiles,
                List.copyOf(broken),
                malformed,
                orphans,
                cleanup,
                cleanupOrigin,
                ClaudeMemoryStatus.of(home, Path.of(System.getProperty("user.dir")), warnings));
    }
}
