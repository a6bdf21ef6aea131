package steward.sessions.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.claude.ClaudeHome;
import steward.claude.ClaudeSessionFile;
import steward.claude.ScanCache;
import steward.claude.TranscriptFacts;
import steward.sessions.audit.AuditResult;
import steward.sessions.audit.PlanStore;

/**
 * The sessions of a Claude Code home, mapped onto the rules' view. A transcript is <em>live</em> (active) while it
 * was appended to within the idle time, or while a running Claude Code registers it in {@code sessions/<pid>.json};
 * otherwise it is ended, at its last modification. A session's own transcript has source {@code claude} and its
 * title from its title entries; a subagent transcript has source {@code subagent}, no title and its session as
 * parent. A session that was continued after compaction ({@code continued-in}) heads a chain: the continuation's
 * parent is it, and its end reason is {@code compression}, so the safety guard keeps it while the chain is in use.
 * Claude Code has no ended mark: rows are not markable.
 */
public final class ClaudeSessions implements SessionSource {
    public static final String STORE = "claude";
    public static final double DEFAULT_IDLE_SECONDS = 24 * 3600.0;
    /** A file modified this recently is never moved, whatever the plan says. */
    public static final double QUIET_SECONDS = 300;

    /** {@code now} and {@code idleSeconds} decide liveness; {@code callerCwd} finds the current session; the scan cache is saved when asked. */
    public record Options(double now, double idleSeconds, Path callerCwd, boolean saveCache) {}

    private final ClaudeHome home;
    private final Path stateDir;
    private final Options options;
    private ClaudeHome.Listing listing;
    private List<SessionRow> rows;
    private Map<String, ClaudeSessionFile> byId;

    public ClaudeSessions(Path claudeHome, Path stateDir, Options options) {
        this.home = new ClaudeHome(claudeHome);
        this.stateDir = stateDir;
        this.options = options;
    }

    public ClaudeHome home() {
        return home;
    }

    public Options options() {
        return options;
    }

    @Override
    public String store() {
        return STORE;
    }

    @Override
    public String location() {
        return home.projectsDir().toString();
    }

    @Override
    public String key() {
        return PlanStore.databaseKey(home.projectsDir());
    }

    /** The listing behind the rows (read once). */
    public ClaudeHome.Listing listing() {
        if (listing == null) {
            ScanCache cache = stateDir == null ? ScanCache.none() : ScanCache.load(ScanCache.defaultFile(stateDir));
            listing = home.list(cache, true);
            if (options.saveCache()) {
                try {
                    cache.save();
                } catch (IOException e) {
                    // a cache we cannot write only costs the next listing time
                }
            }
        }
        return listing;
    }

    /** The listed file of a session id, or null. */
    public ClaudeSessionFile file(String id) {
        rows();
        return byId.get(id);
    }

    @Override
    public List<SessionRow> rows() {
        if (rows != null) return rows;
        ClaudeHome.Listing l = listing();
        Map<String, ClaudeSessionFile> files = new LinkedHashMap<>();
        for (ClaudeSessionFile f : l.sessions()) files.put(f.id(), f);
        // continuation chains: a session whose tail says it was continued in another one of this home is that one's
        // parent
        Map<String, String> predecessor = new HashMap<>();
        Set<String> continued = new HashSet<>();
        for (ClaudeSessionFile f : l.sessions()) {
            String next = f.facts().continuedIn();
            if (f.kind() != ClaudeSessionFile.Kind.MAIN || next == null || next.equals(f.id())) continue;
            ClaudeSessionFile n = files.get(next);
            if (n == null || n.kind() != ClaudeSessionFile.Kind.MAIN) continue;
            predecessor.putIfAbsent(next, f.id());
            continued.add(f.id());
        }
        List<SessionRow> out = new ArrayList<>(files.size());
        for (ClaudeSessionFile f : files.values())
            out.add(row(f, l.liveRegistered(), predecessor.get(f.id()), continued.contains(f.id())));
        byId = files;
        rows = List.copyOf(out);
        return rows;
    }

    private SessionRow row(ClaudeSessionFile f, Set<String> registered, String predecessor, boolean continued) {
        TranscriptFacts x = f.facts();
        double modified = f.lastModifiedMillis() / 1000.0;
        double last = modified;
        boolean live = options.now() - modified < options.idleSeconds()
                || registered.contains(
                        f.kind() == ClaudeSessionFile.Kind.MAIN ? f.id() : f.parentId() == null ? "" : f.parentId());
        double started = Double.isNaN(x.firstEpoch()) ? modified : Math.min(x.firstEpoch(), modified);
        String parent = f.subagent() ? f.parentId() : predecessor;
        String title = f.subagent() ? null : x.title();
        return new SessionRow(
                f.id(),
                f.subagent() ? "subagent" : STORE,
                title,
                parent,
                started,
                live ? null : last,
                continued ? "compression" : null,
                x.messages(),
                -1,
                false,
                false,
                false,
                null,
                last,
                -1,
                new SessionRow.Place(STORE, f.project(), f.size(), x.exact(), false));
    }

    @Override
    public AuditResult.Current current(List<SessionRow> rows, String argument, double now) {
        if (argument != null && rows.stream().anyMatch(r -> r.id().equals(argument)))
            return new AuditResult.Current(argument, "argument");
        if (options.callerCwd() == null) return new AuditResult.Current(null, "none");
        String project = ClaudeHome.encodeCwd(
                options.callerCwd().toAbsolutePath().normalize().toString());
        // a transcript modified in the future (a clock set wrong, a copy from such a machine) is no sign of use
        List<SessionRow> live = rows.stream()
                .filter(r -> r.active() && !r.subagent() && project.equals(r.group()))
                .toList();
        boolean skipped = live.stream().anyMatch(r -> r.futureDated(now));
        return live.stream()
                .filter(r -> !r.futureDated(now))
                .max(Comparator.comparingDouble(SessionRow::lastActivity).thenComparing(SessionRow::id))
                .map(r -> new AuditResult.Current(
                        r.id(), skipped ? "newest_live_in_cwd_skipped_future_dated" : "newest_live_in_cwd"))
                .orElse(new AuditResult.Current(null, "none"));
    }
}
