package steward.sessions.apply;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import steward.StewardError;
import steward.claude.ClaudeHome;
import steward.claude.ClaudeSessionFile;
import steward.claude.SessionsIndex;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.sessions.audit.Plan;
import steward.sessions.audit.Times;
import steward.sessions.backup.SessionBackup;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.SessionRow;
import steward.state.AtomicFiles;
import steward.state.Crashpoint;
import steward.state.FileMoves;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Claude Code part of {@code session_apply}. Deleting a session moves its transcript, its {@code <uuid>/}
 * directory (subagents, tool results) and its {@code sessions-index.json} entry into the backup: first every file is
 * hashed and the backup's manifest written and read back, then the files are moved (renamed, or copied, fsynced,
 * compared and only then removed), fsynced and compared with their hashes again, and only then is each index
 * rewritten (atomically, in its own layout). A failure at any step moves everything back; a kill at any step is
 * settled by the next call from the part's crash journal ({@link ClaudeJournal}, written before anything else, removed
 * once the part is complete or taken back whole), which takes the part back. Never moved: the current
 * session, a file modified in the last {@link ClaudeSessions#QUIET_SECONDS} seconds or registered by a running
 * Claude Code, anything behind a symlink leading out of the Claude home, and sessions of a project whose
 * {@code sessions-index.json} cannot be parsed (it is left byte-identical).
 */
final class ClaudeApplier {
    static final String CTX = ApplyEngine.CTX;

    private final StewardPaths paths;
    private final Clock clock;
    private final Plan plan;
    private final List<Plan.PlanItem> items;
    private final Plan.StoreRef ref;
    private final Path callerCwd;
    /** The crash journal of the part being executed (kept after it completes, for {@link #undo}), or null. */
    private ClaudeJournal.Entry journal;

    ClaudeApplier(StewardPaths paths, Clock clock, Plan plan, List<Plan.PlanItem> items, Path callerCwd) {
        this.paths = paths;
        this.clock = clock;
        this.plan = plan;
        this.items = items;
        this.ref = plan.storeRefs().stream()
                .filter(r -> r.store().equals(ClaudeSessions.STORE))
                .findFirst()
                .orElseThrow(() -> new StewardError(
                        CTX, "plan " + plan.plan_id() + " has Claude Code items but no Claude Code store"));
        this.callerCwd = callerCwd;
    }

    /** What the Claude Code part did: its decision, backup, counts after, checks, and how to take it back. */
    record Part(
            ApplyEngine.Decision decision,
            ApplyResult.Backup backup,
            ApplyResult.Counts after,
            List<ApplyResult.Check> checks,
            Undo undo) {}

    /**
     * Moves done (from, to) and index files replaced (file, original bytes), in order; the index copies saved in the
     * backup.
     */
    record Undo(List<Path[]> moved, Map<Path, byte[]> indexes, List<Path> saved) {}

    /** One thing moved into the backup for a session: its transcript, its directory, a subagent's meta file. */
    private record Unit(ApplyEngine.Planned planned, ClaudeSessionFile file, List<Path> roots) {}

    private ClaudeSessions source(double now) {
        if (paths.claudeHome() == null)
            throw new StewardError(
                    CTX, "plan " + plan.plan_id() + " has Claude Code items but no Claude Code home is configured");
        double idle = ref.idle_seconds() == null ? ClaudeSessions.DEFAULT_IDLE_SECONDS : ref.idle_seconds();
        return new ClaudeSessions(
                paths.claudeHome(), paths.stateDir(), new ClaudeSessions.Options(now, idle, callerCwd, true));
    }

    private record Decided(
            ApplyEngine.Decision decision, List<Unit> units, ClaudeSessions source, List<SessionRow> rows) {}

    Part decide(ApplyRequest req) {
        Decided d = decideNow(req);
        return new Part(d.decision(), null, null, List.of(), null);
    }

    private Decided decideNow(ApplyRequest req) {
        double now = Times.epoch(clock.instant());
        ClaudeSessions src = source(now);
        List<SessionRow> rows = src.rows();
        String inferred = src.current(rows, null, now).session_id();
        ApplyEngine.Decided dd = ApplyEngine.decide(rows, items, plan, req, ApplyEngine.currents(ref, req, inferred));
        Map<String, ApplyEngine.Planned> run = new LinkedHashMap<>();
        for (ApplyEngine.Planned p : dd.run()) run.put(p.item().session_id(), p);
        List<ApplyResult.Skipped> skipped = new ArrayList<>(dd.skipped());
        Map<String, SessionsIndex.Read> indexes = new HashMap<>();
        for (ClaudeHome.Project p : src.listing().projects()) indexes.put(p.name(), p.index());
        Set<String> registered = src.listing().liveRegistered();
        // safety: what may not be moved now, whatever the plan says
        boolean changed = true;
        Set<String> unsafe = new HashSet<>();
        for (ApplyEngine.Planned p : run.values()) {
            ClaudeSessionFile f = src.file(p.item().session_id());
            String why = unsafe(f, now, registered, indexes);
            if (why != null) {
                unsafe.add(f.id());
                skipped.add(new ApplyResult.Skipped(
                        p.item().item_id(), p.item().session_id(), p.item().rule(), why));
            }
        }
        run.keySet().removeAll(unsafe);
        while (changed) {
            changed = false;
            for (ApplyEngine.Planned p : new ArrayList<>(run.values())) {
                ClaudeSessionFile f = src.file(p.item().session_id());
                String parent = p.item().cascade_of();
                String why = null;
                if (parent != null && !run.containsKey(parent)) why = "deleted only together with its parent " + parent;
                else if (f.kind() == ClaudeSessionFile.Kind.MAIN) {
                    for (SessionRow r : rows) {
                        if (r.subagent() && f.id().equals(r.parentSessionId()) && !run.containsKey(r.id())) {
                            why = "its subagent " + r.id() + " is not being deleted";
                            break;
                        }
                    }
                }
                if (why != null) {
                    run.remove(p.item().session_id());
                    skipped.add(new ApplyResult.Skipped(
                            p.item().item_id(), p.item().session_id(), p.item().rule(), why));
                    changed = true;
                }
            }
        }
        List<Unit> units = new ArrayList<>();
        for (ApplyEngine.Planned p : run.values()) {
            ClaudeSessionFile f = src.file(p.item().session_id());
            List<Path> roots = new ArrayList<>();
            switch (f.kind()) {
                case MAIN -> {
                    roots.add(f.file());
                    if (f.dir() != null) roots.add(f.dir());
                }
                case SUBAGENT -> {
                    if (run.containsKey(f.parentId())) break; // moves with its session's directory
                    roots.add(f.file());
                    if (f.meta() != null) roots.add(f.meta());
                }
                case FLAT_SUBAGENT -> roots.add(f.file());
            }
            units.add(new Unit(p, f, roots));
        }
        ApplyEngine.Decision decision = new ApplyEngine.Decision(List.copyOf(run.values()), skipped, counts(rows));
        return new Decided(decision, units, src, rows);
    }

    /** Why a session may not be moved now, or null. */
    private String unsafe(
            ClaudeSessionFile f, double now, Set<String> registered, Map<String, SessionsIndex.Read> indexes) {
        if (f.escapes()) return "a symlink leads out of the Claude home: not moved";
        double age = now - f.lastModifiedMillis() / 1000.0;
        if (age < ClaudeSessions.QUIET_SECONDS)
            return "being written (modified " + Math.max(0, Math.round(age)) + " s ago)";
        String owner = f.kind() == ClaudeSessionFile.Kind.MAIN ? f.id() : f.parentId();
        if (owner != null && registered.contains(owner)) return "open in a running Claude Code";
        SessionsIndex.Read idx = indexes.get(f.project());
        if (f.kind() == ClaudeSessionFile.Kind.MAIN && idx != null && idx.exists() && !idx.usable()) {
            return SessionsIndex.FILE + " of its project cannot be parsed (" + idx.error()
                    + "): left as it is, session kept";
        }
        if (f.dir() != null) {
            try (Stream<Path> s = Files.walk(f.dir())) {
                Path realHome = paths.claudeHome().toRealPath();
                for (Path p : s.toList()) {
                    if (Files.isSymbolicLink(p) && !ClaudeHome.inside(p, realHome))
                        return "a symlink in its directory leads out of the Claude home: not moved";
                    if (now
                                    - Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS)
                                                    .toMillis()
                                            / 1000.0
                            < ClaudeSessions.QUIET_SECONDS) {
                        return "being written (" + f.dir().relativize(p) + " was modified moments ago)";
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                return "cannot read its directory: " + e.getMessage();
            }
        }
        return null;
    }

    static ApplyResult.Counts counts(List<SessionRow> rows) {
        int active = 0, untitled = 0;
        for (SessionRow r : rows) {
            if (r.active()) active++;
            if (r.untitled() && !r.subagent()) untitled++;
        }
        return new ApplyResult.Counts(rows.size(), active, rows.size() - active, 0, untitled);
    }

    Part execute(ApplyRequest req, String backupId) {
        Decided d = decideNow(req);
        List<ApplyResult.Check> checks = new ArrayList<>();
        if (d.units().isEmpty()) {
            checks.add(new ApplyResult.Check("claude_backup", true, "nothing in Claude Code needed a backup"));
            return new Part(
                    d.decision(), null, d.decision().before(), checks, new Undo(List.of(), Map.of(), List.of()));
        }
        Path home = paths.claudeHome().toAbsolutePath().normalize();
        SessionBackup bk = new SessionBackup(paths.stateDir());
        Path filesRoot = bk.filesDir(backupId).resolve("claude");
        double now = Times.epoch(clock.instant());
        // 1. what will move, hashed; the index changes, computed
        Map<String, Set<String>> indexedByProject = new LinkedHashMap<>();
        for (Unit u : d.units()) {
            if (u.file().kind() == ClaudeSessionFile.Kind.MAIN && u.file().indexed()) {
                indexedByProject
                        .computeIfAbsent(u.file().project(), k -> new LinkedHashSet<>())
                        .add(u.file().id());
            }
        }
        Map<String, SessionsIndex.Read> before = new LinkedHashMap<>();
        Map<String, byte[]> after = new LinkedHashMap<>();
        Map<String, SessionsIndex.Removed> removedById = new HashMap<>();
        for (Map.Entry<String, Set<String>> e : indexedByProject.entrySet()) {
            SessionsIndex.Read r =
                    SessionsIndex.read(d.source().home().projectDir(e.getKey()).resolve(SessionsIndex.FILE));
            if (!r.usable()) continue; // gone since the listing: nothing to keep consistent
            before.put(e.getKey(), r);
            after.put(e.getKey(), SessionsIndex.without(r, e.getValue()));
            for (SessionsIndex.Removed x : SessionsIndex.entriesOf(r, e.getValue())) {
                removedById.put(x.entry().path("sessionId").asString(), x);
            }
        }
        List<ObjectNode> lines = new ArrayList<>();
        long bytes = 0;
        int files = 0, messages = 0;
        Set<String> chainFollowers = ApplyEngine.chainFollowers(plan.items(), req);
        try {
            for (Unit u : d.units()) {
                ObjectNode line = Json.MAPPER.createObjectNode();
                ClaudeSessionFile f = u.file();
                line.put("id", f.id());
                line.put("store", ClaudeSessions.STORE);
                line.put("project", f.project());
                line.put("kind", f.kind().name().toLowerCase(Locale.ROOT));
                line.put("title", f.subagent() ? null : f.facts().title());
                ArrayNode roots = line.putArray("paths");
                ArrayNode fl = line.putArray("files");
                for (Path root : u.roots()) {
                    roots.add(home.relativize(root).toString());
                    for (Path x : FileMoves.files(root)) {
                        ObjectNode fe = fl.addObject();
                        fe.put("path", home.relativize(x).toString());
                        long size = Files.size(x);
                        fe.put("size", size);
                        fe.put("sha256", FileMoves.sha256(x));
                        bytes += size;
                        files++;
                    }
                }
                // the subagents moved with a session's directory are part of its line
                ArrayNode with = line.putArray("with");
                for (ApplyEngine.Planned p : d.decision().run()) {
                    ClaudeSessionFile c = d.source().file(p.item().session_id());
                    if (c.kind() == ClaudeSessionFile.Kind.SUBAGENT
                            && f.id().equals(c.parentId())
                            && f.kind() == ClaudeSessionFile.Kind.MAIN) {
                        with.add(c.id());
                    }
                }
                SessionsIndex.Removed rem = removedById.get(f.id());
                if (rem != null) {
                    ObjectNode ix = line.putObject("index");
                    String project = f.project();
                    ix.put("path", home.relativize(before.get(project).file()).toString());
                    ix.put("position", rem.position());
                    ix.set("entry", rem.entry());
                    ix.put("before_sha256", FileMoves.sha256(before.get(project).bytes()));
                    ix.put("after_sha256", FileMoves.sha256(after.get(project)));
                    ix.putArray("removed_with")
                            .addAll(indexedByProject.get(project).stream()
                                    .map(Json.MAPPER.getNodeFactory()::stringNode)
                                    .toList());
                }
                messages += f.facts().messages();
                ObjectNode note = line.putObject("_steward");
                note.put("backup_id", backupId);
                note.put("store", ClaudeSessions.STORE);
                note.put("claude_home", home.toString());
                note.put("action", "delete");
                note.put("rule", u.planned().item().rule());
                note.put("condition", u.planned().item().key());
                note.put("item_id", u.planned().item().item_id());
                note.put("automatic", ApplyEngine.automatic(u.planned(), req));
                note.put("confidence", u.planned().item().confidence());
                note.put("approved", ApplyEngine.approvalTaught(u.planned().item(), req, chainFollowers));
                note.put("base", u.planned().item().base());
                note.put("at", Times.iso(now));
                lines.add(line);
            }
        } catch (IOException | UncheckedIOException e) {
            throw new StewardError(
                    CTX, "backup failed, nothing was changed: cannot read a Claude Code session: " + e.getMessage(), e);
        }
        // the crash journal lists all of it before anything is written: a kill from here on is taken back by the next
        // call
        List<String> journalRoots = new ArrayList<>();
        for (Unit u : d.units())
            for (Path root : u.roots()) journalRoots.add(home.relativize(root).toString());
        List<ClaudeJournal.FileRef> journalFiles = new ArrayList<>();
        for (ObjectNode l : lines) {
            for (var fe : l.get("files")) {
                journalFiles.add(new ClaudeJournal.FileRef(
                        fe.get("path").asString(),
                        fe.get("size").asLong(),
                        fe.get("sha256").asString()));
            }
        }
        List<ClaudeJournal.Index> journalIndexes = new ArrayList<>();
        for (Map.Entry<String, SessionsIndex.Read> e : before.entrySet()) {
            journalIndexes.add(new ClaudeJournal.Index(
                    home.relativize(e.getValue().file()).toString(),
                    FileMoves.sha256(e.getValue().bytes()),
                    FileMoves.sha256(after.get(e.getKey())),
                    SessionsIndex.entriesOf(e.getValue(), indexedByProject.get(e.getKey()))));
        }
        journal = ClaudeJournal.open(
                paths,
                ClaudeJournal.record(clock, plan.plan_id(), backupId, home, journalRoots, journalFiles, journalIndexes),
                ClaudeJournal.Phase.CLAIMED);
        Crashpoint.reach("apply.claude-claimed");
        // 2. the manifest and the indexes' original bytes, verified, before anything moves; what a failure here wrote
        // goes again
        List<Path> savedIndexes = new ArrayList<>();
        SessionBackup.Written w;
        try {
            w = bk.writeClaude(backupId, lines);
        } catch (StewardError e) {
            discard(backupId, savedIndexes);
            throw e;
        }
        try {
            for (Map.Entry<String, SessionsIndex.Read> e : before.entrySet()) {
                Path saved =
                        filesRoot.resolve(home.relativize(e.getValue().file()).toString());
                savedIndexes.add(saved);
                AtomicFiles.write(saved, e.getValue().bytes());
                if (!Arrays.equals(Files.readAllBytes(saved), e.getValue().bytes()))
                    throw new IOException("read-back mismatch of " + saved);
            }
        } catch (IOException e) {
            discard(backupId, savedIndexes);
            throw new StewardError(
                    CTX,
                    "backup failed, nothing was changed: cannot save " + SessionsIndex.FILE + ": " + e.getMessage(),
                    e);
        }
        try {
            journal.write(ClaudeJournal.Phase.PREPARED);
        } catch (RuntimeException e) {
            discard(backupId, savedIndexes);
            throw e;
        }
        Crashpoint.reach("apply.claude-prepared");
        // 3. move, fsync, compare
        Undo undo = new Undo(new ArrayList<>(), new LinkedHashMap<>(), savedIndexes);
        try {
            journal.write(ClaudeJournal.Phase.MOVING);
            for (Unit u : d.units()) {
                for (Path root : u.roots()) {
                    Path to = filesRoot.resolve(home.relativize(root).toString());
                    FileMoves.move(root, to);
                    undo.moved().add(new Path[] {root, to});
                    FileMoves.fsyncTree(to);
                    if (undo.moved().size() == 1) Crashpoint.reach("apply.claude-moved-one");
                }
            }
            for (ObjectNode l : lines) {
                for (var fe : l.get("files")) {
                    Path moved = filesRoot.resolve(fe.get("path").asString());
                    if (!Files.isRegularFile(moved, LinkOption.NOFOLLOW_LINKS)
                            || Files.size(moved) != fe.get("size").asLong()
                            || !FileMoves.sha256(moved).equals(fe.get("sha256").asString())) {
                        throw new IOException(
                                fe.get("path").asString() + " changed while it was moved (being written?)");
                    }
                }
            }
            Crashpoint.reach("apply.claude-moved");
            // 4. the indexes, unchanged since they were read, rewritten without the moved sessions
            journal.write(ClaudeJournal.Phase.INDEXES);
            for (Map.Entry<String, SessionsIndex.Read> e : before.entrySet()) {
                Path file = e.getValue().file();
                byte[] now2 = Files.readAllBytes(file);
                if (!Arrays.equals(now2, e.getValue().bytes()))
                    throw new IOException(file + " changed during the apply");
                Set<PosixFilePermission> mode = mode(file);
                undo.indexes().put(file, e.getValue().bytes());
                AtomicFiles.write(file, after.get(e.getKey()));
                if (mode != null) AtomicFiles.setMode(file, mode);
                if (undo.indexes().size() == 1) Crashpoint.reach("apply.claude-index-one");
            }
            Crashpoint.reach("apply.claude-indexes");
        } catch (IOException | RuntimeException e) {
            Part part = new Part(d.decision(), null, null, List.of(), undo);
            if (undo(part)) {
                discard(backupId, savedIndexes);
                throw new StewardError(
                        CTX,
                        "moving Claude Code sessions into the backup failed, everything was moved back, nothing was changed: "
                                + e.getMessage(),
                        e);
            }
            throw new StewardError(
                    CTX,
                    "moving Claude Code sessions into the backup failed: " + e.getMessage() + "; " + notBack(backupId),
                    e);
        }
        journal.close(); // done: the part is complete
        Set<String> gone = new HashSet<>();
        for (ApplyEngine.Planned p : d.decision().run()) gone.add(p.item().session_id());
        List<SessionRow> left =
                d.rows().stream().filter(r -> !gone.contains(r.id())).toList();
        checks.add(new ApplyResult.Check(
                "claude_backup",
                true,
                bk.claudeFile(backupId) + " (" + lines.size() + " sessions, " + files + " files, " + bytes
                        + " bytes moved, fsynced and compared by SHA-256)"));
        checks.add(new ApplyResult.Check(
                "claude_index",
                true,
                before.isEmpty()
                        ? "no " + SessionsIndex.FILE + " entry to remove"
                        : before.size() + " " + SessionsIndex.FILE + " rewritten without the moved sessions"));
        ApplyResult.Backup b = new ApplyResult.Backup(
                backupId, w.path(), w.size_bytes() + bytes, d.decision().run().size(), messages, files);
        return new Part(d.decision(), b, counts(left), checks, undo);
    }

    /**
     * Takes a Claude Code part back: indexes restored, files moved back (newest move first). Returns whether all of it
     * is back; what is not stays in the backup, where session_restore finds it.
     */
    boolean undo(Part p) {
        if (p == null || p.undo() == null) return true;
        // the journal says the part is being taken back (started again when the part had completed): a kill from here
        // on is taken back by the next call; without a journal the undo runs all the same
        try {
            if (journal != null && journal.isOpen()) journal.write(ClaudeJournal.Phase.ROLLBACK);
            else if (journal != null)
                journal = ClaudeJournal.open(paths, journal.record(), ClaudeJournal.Phase.ROLLBACK);
        } catch (RuntimeException e) {
            // an open journal keeps its last phase (the next call takes a part back from any phase) and still goes with
            // the part once the undo gets everything back; one that could not be started again is simply not there
            if (journal != null && !journal.isOpen()) journal = null;
        }
        boolean all = true;
        for (Map.Entry<Path, byte[]> e : p.undo().indexes().entrySet()) {
            try {
                Set<PosixFilePermission> mode = mode(e.getKey());
                AtomicFiles.write(e.getKey(), e.getValue());
                if (mode != null) AtomicFiles.setMode(e.getKey(), mode);
            } catch (IOException ignored) {
                all = false; // the original stays in the backup's files
            }
        }
        List<Path[]> moved = new ArrayList<>(p.undo().moved());
        Collections.reverse(moved);
        for (Path[] m : moved) {
            try {
                if (!Files.exists(m[0], LinkOption.NOFOLLOW_LINKS)) FileMoves.move(m[1], m[0]);
                if (m == moved.get(0)) Crashpoint.reach("apply.claude-undo-one");
                // something took its place meanwhile: the moved one is kept in the backup
                if (Files.exists(m[1], LinkOption.NOFOLLOW_LINKS)) all = false;
            } catch (IOException ignored) {
                all = false;
            }
        }
        // not all back: the journal stays for the next call, which puts back what it can and says what it cannot; all
        // back: it goes with the backup's part (discard)
        if (!all && journal != null) journal.abandon();
        return all;
    }

    /**
     * Removes this part from backup {@code backupId} once {@link #undo} put all of it back: nothing of it was applied, so
     * session_restore must not offer it. Failing to remove it only leaves a backup whose sessions all exist.
     */
    void discard(String backupId, Part p) {
        discard(backupId, p == null || p.undo() == null ? List.of() : p.undo().saved());
    }

    private void discard(String backupId, List<Path> savedIndexes) {
        try {
            new SessionBackup(paths.stateDir()).discardUnapplied(backupId, false, savedIndexes);
        } catch (IOException e) {
            // harmless: every session it names is back in the Claude Code home
        }
        if (journal != null) journal.close(); // the part is taken back whole
    }

    /** What the error says when a taken-back part could not all be put back. */
    static String notBack(String backupId) {
        return "not every Claude Code file could be moved back: what is missing in the Claude Code home is in backup "
                + backupId + " (session_restore puts it back)";
    }

    private static Set<PosixFilePermission> mode(Path f) {
        try {
            return Files.getPosixFilePermissions(f);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }
}
