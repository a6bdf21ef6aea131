package steward.sessions.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.StewardError;
import steward.Work;
import steward.config.HousekeepingSettings;
import steward.config.StewardConfig;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.learning.DecisionEvent;
import steward.learning.LearningEngine;
import steward.learning.LearningReport;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceStore;
import steward.learning.RuleKey;
import steward.sessions.apply.ApplyJournal;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.Times;
import steward.sessions.rules.HermesPruneRule;
import steward.sessions.store.AuditListings;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.FtsIndex;
import steward.sessions.store.FtsNulRows;
import steward.sessions.store.SessionHomes;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;
import steward.state.Crashpoint;
import tools.jackson.databind.JsonNode;

/**
 * {@code session_restore}: undoes a {@code session_apply} from its backup, in one transaction.
 * Deleted sessions are re-inserted with their ids, messages and usage rows, and their side files are moved back;
 * sessions marked as ended or renamed are put back if nobody changed them since. A session that exists again is
 * skipped and reported, and its side files still go back to it.
 *
 * <p>Messages get new row ids, as Hermes' own {@code import_sessions} gives them: re-inserting a deleted row under its
 * old id puts a rowid that was deleted back into Hermes' FTS5 index, and when Hermes' SQLite is older than Steward's
 * (segments written by SQLite 3.44 and later, merged by 3.43 and earlier) the next merge drops the delete markers, so
 * rows deleted later reappear in the index ("database disk image is malformed"). New ids keep each FTS rowid
 * inserted once and deleted at most once. The order of a session's messages is kept.
 */
public final class RestoreEngine {
    static final String CTX = "session_restore";
    private final StewardPaths paths;
    private final Clock clock;

    public RestoreEngine(StewardPaths paths) {
        this(paths, Clock.systemUTC());
    }

    public RestoreEngine(StewardPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    public record Skipped(String session_id, String reason) {}

    /** A session restored under another title: its own is used by another session now (Hermes' titles are unique). */
    public record Retitled(String session_id, String title, String was) {}

    public record Result(
            String backup_id,
            List<String> restored,
            List<Skipped> skipped,
            int messages_restored,
            int side_files_restored,
            int sessions_after,
            int active_after,
            LearningReport learning,
            List<Check> checklist,
            List<String> recovered,
            AutoPrune hermes_auto_prune,
            List<Retitled> retitled,
            List<Merged> merged,
            KeptFromCleanup claude_cleanup) {}

    /**
     * A Claude Code transcript written at its path again after the apply: the backup's {@code backup_bytes} were put
     * before the {@code new_bytes} written since.
     */
    public record Merged(String session_id, String path, long backup_bytes, long new_bytes) {}

    /** Restored Claude Code sessions whose transcripts got the current time as mtime (see ClaudeRestorer). */
    public record KeptFromCleanup(int cleanup_period_days, List<String> session_ids) {}

    public record Check(String check, boolean ok, String detail) {}

    /**
     * Restored Hermes sessions that Hermes' own {@code sessions.auto_prune} deletes again: ended and started more than
     * retention_days ago ({@code eligible_from} in the past: at its next run, the first Hermes start after {@code
     * next_run_after}, or its next start when null), or within the next 7 days. Null when auto_prune is off or none is.
     */
    public record AutoPrune(
            double retention_days, String next_run_after, int due, int due_within_7_days, List<Due> sessions) {}

    public record Due(String session_id, String eligible_from) {}

    public Result restore(String backupId, List<String> sessionIds) {
        return restore(backupId, sessionIds, null, Work.NONE);
    }

    /** {@code store}: only the part of the backup from this home ({@code hermes} or {@code claude}); null: all of it. */
    public Result restore(String backupId, List<String> sessionIds, String store) {
        return restore(backupId, sessionIds, store, Work.NONE);
    }

    /**
     * Progress goes to {@code work}; a cancellation is honoured only before anything is written: before the Claude Code
     * files move back and before the transaction starts.
     */
    public Result restore(String backupId, List<String> sessionIds, String store, Work work) {
        // an empty list names no session: never read as "all of them" (leaving it out is how to ask for the whole
        // backup)
        if (sessionIds != null && sessionIds.isEmpty())
            throw new StewardError(
                    CTX,
                    "session_ids is empty: name the sessions to restore, or leave it out to restore the whole backup;"
                            + " nothing was restored");
        if (store != null && !SessionHomes.STORES.contains(store)) {
            throw new StewardError(CTX, "store must be hermes or claude, not " + store);
        }
        work.progress(0, 3, "reading backup " + backupId);
        SessionBackup bk = new SessionBackup(paths.stateDir());
        // an apply killed earlier (any process) is settled first: its files go where their sessions say
        List<String> recovered = SessionBackup.isBackupId(backupId)
                ? new ApplyJournal(paths, clock).recover().notices()
                : List.of();
        bk.requireExisting(backupId, CTX);
        String interrupted = bk.interruptedReason(backupId);
        if (interrupted != null)
            throw new StewardError(CTX, "backup " + backupId + " was " + interrupted + "; nothing to restore");
        List<JsonNode> lines;
        List<JsonNode> claudeLines;
        try {
            lines = Files.exists(bk.file(backupId)) && !"claude".equals(store) ? bk.read(backupId) : List.of();
            claudeLines = "hermes".equals(store) ? List.of() : bk.readClaude(backupId);
        } catch (IOException | RuntimeException e) {
            throw new StewardError(
                    CTX,
                    "backup " + backupId + " is unreadable: "
                            + (e instanceof IOException && e.getMessage() != null
                                    ? steward.state.IoErrors.describe(e)
                                    : Json.problem(e))
                            + "; nothing was restored (the backup is left as it is)",
                    e);
        }
        if (store != null && lines.isEmpty() && claudeLines.isEmpty()) {
            throw new StewardError(CTX, "backup " + backupId + " holds no " + store + " sessions");
        }
        Set<String> inBackup = new LinkedHashSet<>();
        for (JsonNode l : lines) inBackup.add(l.path("id").asString());
        for (JsonNode l : claudeLines) inBackup.addAll(ClaudeRestorer.ids(l));
        Set<String> wanted = sessionIds == null ? inBackup : new LinkedHashSet<>(sessionIds);
        List<String> unknown =
                wanted.stream().filter(id -> !inBackup.contains(id)).toList();
        if (!unknown.isEmpty())
            throw new StewardError(CTX, "not in backup " + backupId + ": " + String.join(", ", unknown));

        List<String> restored = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        List<Retitled> retitled = new ArrayList<>();
        int files = 0, sessionsAfter = 0, activeAfter = 0;
        List<Check> checks = new ArrayList<>();
        int[] messages = {0};
        boolean claude = !claudeLines.isEmpty();
        boolean hermes = !lines.isEmpty() || !claude;
        List<Merged> merged = List.of();
        KeptFromCleanup claudeCleanup = null;
        int steps = (claude ? 1 : 0) + (hermes ? 2 : 0) + 1;
        if (claude) {
            if (paths.claudeHome() == null)
                throw new StewardError(
                        CTX,
                        "backup " + backupId + " holds Claude Code sessions but no Claude Code home is configured");
            work.checkpoint(CTX); // the last safe point: from here the restore (the Claude Code files, then Hermes'
            // transaction) runs to its end
            work = work.pastSafePoint();
            work.progress(1, steps, "moving Claude Code files back");
            ClaudeRestorer.Outcome o = new ClaudeRestorer(
                            paths.claudeHome(), bk, backupId, Times.epoch(clock.instant()))
                    .restore(claudeLines, wanted);
            merged = o.merged();
            claudeCleanup = o.keptFromCleanup();
            restored.addAll(o.restored());
            skipped.addAll(o.skipped());
            files += o.files();
            List<SessionRow> rows = new ClaudeSessions(
                            paths.claudeHome(),
                            paths.stateDir(),
                            new ClaudeSessions.Options(
                                    Times.epoch(clock.instant()), ClaudeSessions.DEFAULT_IDLE_SECONDS, null, false))
                    .rows();
            sessionsAfter += rows.size();
            activeAfter += (int) rows.stream().filter(SessionRow::active).count();
        }
        AutoPrune hermesPrune = null;
        if (hermes) {
            Hermes h = restoreHermes(
                    bk, backupId, lines, wanted, restored, skipped, retitled, messages, work, claude ? 2 : 1, steps);
            files += h.files();
            checks.addAll(h.checks());
            sessionsAfter += h.sessions();
            activeAfter += h.active();
            hermesPrune = h.prune();
        }
        List<JsonNode> all = new ArrayList<>(lines);
        all.addAll(claudeLines);
        LearningReport learning = learn(backupId, restored, all);
        work.progress(steps, steps, "restored " + restored.size() + " sessions");
        return new Result(
                backupId,
                restored,
                skipped,
                messages[0],
                files,
                sessionsAfter,
                activeAfter,
                learning,
                checks,
                recovered,
                hermesPrune,
                List.copyOf(retitled),
                List.copyOf(merged),
                claudeCleanup);
    }

    private record Hermes(int files, int sessions, int active, List<Check> checks, AutoPrune prune) {}

    private Hermes restoreHermes(
            SessionBackup bk,
            String backupId,
            List<JsonNode> lines,
            Set<String> wanted,
            List<String> restored,
            List<Skipped> skipped,
            List<Retitled> retitled,
            int[] messages,
            Work work,
            int step,
            int steps) {
        try (SessionStore store = SessionStore.openReadWrite(paths.stateDb())) {
            // never write through Hermes' triggers into a damaged search index
            FtsIndex.requireConsistent(paths.stateDb(), CTX);
            Set<String> sessionCols = store.sessionColumns();
            Set<String> messageCols = store.messageColumns();
            List<String> broughtBack = new ArrayList<>();
            work.checkpoint(CTX); // the last safe point of a Hermes-only restore: from here it runs to its end
            work.progress(step, steps, "restoring " + wanted.size() + " sessions in one transaction");
            // the journal lists the side files before anything changes: a kill from here on is settled by the next call
            List<ApplyJournal.Move> moves = new ArrayList<>();
            for (JsonNode l : lines) {
                String id = l.path("id").asString();
                if (!wanted.contains(id)) continue;
                for (JsonNode f : l.path("_steward").path("side_files")) {
                    if (!SessionBackup.isSideFileName(f.asString(), id)) continue;
                    moves.add(new ApplyJournal.Move(
                            id,
                            paths.hermesHome()
                                    .resolve("sessions")
                                    .resolve(f.asString())
                                    .toString(),
                            bk.filesDir(backupId).resolve(f.asString()).toString()));
                }
            }
            ApplyJournal.Entry entry = moves.isEmpty() ? null : new ApplyJournal(paths, clock).beginRestore(backupId);
            if (entry != null) entry.write(ApplyJournal.Phase.PREPARED, List.of(), moves);
            try {
                LaterDeletions later = new LaterDeletions(bk, backupId);
                store.write(c -> {
                    Set<String> reinserted = new HashSet<>();
                    boolean usage = SessionBackup.hasTable(c, "session_model_usage");
                    for (JsonNode l : lines) {
                        String id = l.path("id").asString();
                        if (!wanted.contains(id)) continue;
                        JsonNode note = l.path("_steward");
                        String action = note.path("action").asString("delete");
                        // a session this apply ended and something outside Steward deleted since (Hermes' auto_prune
                        // deletes ended sessions, or a `hermes sessions delete`): the backup holds it whole, as it was
                        // before the apply, so undoing the apply brings it back (a later Steward apply that deleted it
                        // is undone from that backup, in order)
                        boolean back = action.equals("mark_ended") && !exists(c, id) && later.deletedBy(id) == null;
                        String why = back
                                ? reinsert(c, l, sessionCols, messageCols, usage, messages, retitled)
                                : switch (action) {
                                    case "delete" ->
                                        reinsert(c, l, sessionCols, messageCols, usage, messages, retitled);
                                    case "mark_ended" -> unmark(c, l, note, later);
                                    case "rename" -> unrename(c, l, note);
                                    default -> "unknown action " + action + " in the backup";
                                };
                        if (why == null) restored.add(id);
                        else skipped.add(new Skipped(id, why));
                        if (why == null && (action.equals("delete") || back)) reinserted.add(id);
                        if (why == null && back) broughtBack.add(id);
                    }
                    relink(c, lines, reinserted);
                    // a restored message holding a NUL (Hermes' list content) is indexed as every SQLite reads it
                    FtsNulRows.indexByPrefix(c, messageIds(c, reinserted));
                    Crashpoint.reach("restore.before-commit");
                    return null;
                });
            } catch (RuntimeException e) {
                if (entry != null) entry.close(); // rolled back: the files never left the backup
                throw e;
            }
            Crashpoint.reach("restore.committed");
            // messages came back with their old ids: an audit listing kept in this process would not look for them
            AuditListings.forget(paths.stateDb());
            work.progress(step + 1, steps, "moving side files back");
            int files = returnSideFiles(bk, backupId, lines, wanted, store, skipped);
            if (entry != null) entry.close();
            var counts = store.counts();
            FtsIndex.Report fts = FtsIndex.check(paths.stateDb());
            List<Check> checks = new ArrayList<>();
            checks.add(new Check(
                    "fts_integrity",
                    fts.ok(),
                    fts.ok()
                            ? fts.summary()
                            : "Hermes' search index is inconsistent (" + fts.summary() + "). " + FtsIndex.REPAIR_HINT));
            if (!broughtBack.isEmpty()) {
                checks.add(new Check(
                        "brought_back",
                        true,
                        broughtBack.size() + " session(s) this apply ended were deleted since outside Steward (Hermes' "
                                + "auto_prune deletes ended sessions): re-created from the backup as they were before the "
                                + "apply, active; side files Hermes removed with them are not in the backup: "
                                + String.join(", ", broughtBack.subList(0, Math.min(5, broughtBack.size())))
                                + (broughtBack.size() > 5 ? ", …" : "")));
            }
            return new Hermes(files, counts.total(), counts.active(), checks, autoPrune(store, restored));
        }
    }

    /** What Hermes' auto_prune will delete again of the sessions restored (see {@link AutoPrune}). */
    private AutoPrune autoPrune(SessionStore store, List<String> restored) {
        HousekeepingSettings hk = StewardConfig.load(paths.configYaml()).housekeeping();
        if (!hk.autoPrune() || restored.isEmpty()) return null;
        double now = Times.epoch(clock.instant());
        Map<String, SessionRow> rows = store.sessionsById(restored);
        List<Due> due = new ArrayList<>();
        int dueNow = 0, soon = 0;
        for (String id : restored) {
            SessionRow r = rows.get(id);
            Double from = r == null ? null : HermesPruneRule.dueAt(r, hk);
            if (from == null || from > now + 7 * 86400.0) continue;
            if (from <= now) dueNow++;
            else soon++;
            due.add(new Due(id, Times.iso(from)));
        }
        if (due.isEmpty()) return null;
        Double last = AuditEngine.lastAutoPrune(paths.stateDb());
        Double after = last == null ? null : last + hk.pruneIntervalHours() * 3600.0;
        return new AutoPrune(
                hk.pruneRetentionDays(), after == null || after <= now ? null : Times.iso(after), dueNow, soon, due);
    }

    /**
     * Side files go back to every session of the backup that exists now, whether this call restored it or it exists
     * again for another reason: a session in state.db never stays without its files. A file already back in place is
     * left alone (never overwritten).
     */
    private int returnSideFiles(
            SessionBackup bk,
            String backupId,
            List<JsonNode> lines,
            Set<String> wanted,
            SessionStore store,
            List<Skipped> skipped) {
        Set<String> withFiles = new LinkedHashSet<>();
        for (JsonNode l : lines) {
            String id = l.path("id").asString();
            if (wanted.contains(id) && l.path("_steward").path("side_files").size() > 0) withFiles.add(id);
        }
        if (withFiles.isEmpty()) return 0;
        Set<String> existing = store.sessionsById(withFiles).keySet();
        int files = 0;
        for (JsonNode l : lines) {
            String id = l.path("id").asString();
            if (!withFiles.contains(id) || !existing.contains(id)) continue;
            for (JsonNode f : l.path("_steward").path("side_files")) {
                String name = f.asString();
                if (!SessionBackup.isSideFileName(name, id)) continue;
                Path from = bk.filesDir(backupId).resolve(name);
                Path to = paths.hermesHome().resolve("sessions").resolve(name);
                try {
                    if (Files.isRegularFile(from) && !Files.exists(to)) {
                        Files.createDirectories(to.getParent());
                        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
                        files++;
                    }
                } catch (IOException e) {
                    skipped.add(new Skipped(id, "side file " + name + " stays in the backup: " + e.getMessage()));
                }
            }
        }
        return files;
    }

    /**
     * Restoring is the user taking an action back, and it teaches: the session is kept from now on (it is not proposed
     * again, and never deleted without being asked by name), and when the action had run automatically, the restore is
     * a veto of its rule condition — asked from now on, demoted after two, and a contradiction when the condition had
     * been promoted by the user's approvals (so is restoring an approved deletion that would have run unasked anyway, HIGH).
     * A restore of a deletion the user had approved takes that approval back (Outcome.WITHDRAWN: it no longer counts, and a
     * condition it promoted is asked again); one that only went along with an approved parent, or a rule F request,
     * teaches about its session only. A paused (unreadable) store is left alone; the restore itself stands.
     */
    private LearningReport learn(String backupId, List<String> restored, List<JsonNode> lines) {
        List<DecisionEvent> events = new ArrayList<>();
        Set<String> done = new HashSet<>(restored);
        for (JsonNode l : lines) {
            String id = l.path("id").asString();
            JsonNode note = l.path("_steward");
            String action = note.path("action").asString("delete");
            if (!done.contains(id) || action.equals("rename")) continue;
            String rule = note.path("rule").asString("");
            String key = note.path("condition").asString(rule);
            String condition = RuleKey.condition(key);
            boolean own = !rule.equals("F") && !rule.equals("S");
            // HIGH: it would have run unasked anyway, so an approval of it changed nothing: restoring it is a veto
            boolean automatic = own
                    && (note.path("automatic").asBoolean(false)
                            || note.path("confidence").asString("").equals("HIGH"));
            // the user approved it, and that approval taught its condition: restoring it takes the approval back
            boolean withdrawn = own && !automatic && note.path("approved").asBoolean(false);
            Level base = Level.HIGH;
            try {
                if (note.hasNonNull("base"))
                    base = Level.valueOf(note.path("base").asString());
            } catch (IllegalArgumentException ignored) {
                // an unknown level in an old backup: the rule's own level is only needed for a condition seen the first
                // time
            }
            JsonNode title = l.get("title");
            events.add(new DecisionEvent(
                    id,
                    title == null || title.isNull() ? null : title.asString(),
                    rule.isEmpty() ? "?" : rule,
                    condition,
                    Level.HIGH,
                    action,
                    withdrawn ? Outcome.WITHDRAWN : Outcome.RESTORED,
                    null,
                    null,
                    base,
                    null,
                    !automatic && !withdrawn,
                    false,
                    false,
                    null,
                    null));
        }
        if (events.isEmpty()) return LearningReport.notRecorded("nothing restored");
        return LearningReport.of(new LearningEngine(new PreferenceStore(paths.stateDir(), clock), clock)
                .recordRestore(backupId, events));
    }

    /**
     * Parent links once the sessions are back. The apply orphaned the children a deletion left (as Hermes' own delete
     * does, {@code _steward.orphaned}); they, and the sessions of this backup deleted with it and restored since, are
     * linked to a restored session again while they still have no parent. A restored session whose parent this apply
     * deleted and that is still gone is detached, as Hermes' import detaches a child without its parent: a row pointing
     * at a missing session fails Hermes' foreign key check on its next upsert. A link that pointed nowhere before the
     * apply is restored as it was.
     */
    private static void relink(Connection c, List<JsonNode> lines, Set<String> reinserted) throws SQLException {
        if (reinserted.isEmpty()) return;
        Set<String> deletedByApply = new HashSet<>();
        Map<String, List<String>> childrenInBackup = new HashMap<>();
        for (JsonNode l : lines) {
            String id = l.path("id").asString();
            if (l.path("_steward").path("action").asString("delete").equals("delete")) deletedByApply.add(id);
            String parent = text(l.get("parent_session_id"));
            if (parent != null)
                childrenInBackup.computeIfAbsent(parent, k -> new ArrayList<>()).add(id);
        }
        try (PreparedStatement exists = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?");
                PreparedStatement detach = c.prepareStatement(
                        "UPDATE sessions SET parent_session_id = NULL WHERE id = ? AND parent_session_id = ?");
                PreparedStatement link = c.prepareStatement(
                        "UPDATE sessions SET parent_session_id = ? WHERE id = ? AND parent_session_id IS NULL")) {
            for (JsonNode l : lines) {
                String id = l.path("id").asString();
                if (!reinserted.contains(id)) continue;
                List<String> kids = new ArrayList<>(childrenInBackup.getOrDefault(id, List.of()));
                for (JsonNode k : l.path("_steward").path("orphaned")) kids.add(k.asString());
                for (String k : kids) {
                    link.setString(1, id);
                    link.setString(2, k);
                    link.executeUpdate();
                }
                String parent = text(l.get("parent_session_id"));
                if (parent == null || !deletedByApply.contains(parent)) continue;
                exists.setString(1, parent);
                try (ResultSet rs = exists.executeQuery()) {
                    if (rs.next()) continue;
                }
                detach.setString(1, id);
                detach.setString(2, parent);
                detach.executeUpdate();
            }
        }
    }

    private static String text(JsonNode v) {
        return v == null || v.isNull() ? null : v.asString();
    }

    private static boolean titleUsed(Connection c, String title) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE title = ?")) {
            ps.setString(1, title);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static List<Long> messageIds(Connection c, Set<String> sessions) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM messages WHERE session_id = ?")) {
            for (String s : sessions) {
                ps.setString(1, s);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    private static String reinsert(
            Connection c,
            JsonNode l,
            Set<String> sessionCols,
            Set<String> messageCols,
            boolean usage,
            int[] messages,
            List<Retitled> retitled)
            throws SQLException {
        String id = l.path("id").asString();
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) return "exists again";
            }
        }
        JsonNode title = l.get("title");
        JsonNode row = l;
        if (title != null && title.isString() && titleUsed(c, title.asString())) {
            // Hermes' titles are unique: the session comes back under a title that says so, never left in the backup
            String t = title.asString() + " (restored)";
            for (int n = 2; titleUsed(c, t); n++) t = title.asString() + " (restored " + n + ")";
            row = ((tools.jackson.databind.node.ObjectNode) l.deepCopy()).put("title", t);
            retitled.add(new Retitled(id, t, title.asString()));
        }
        insert(c, "sessions", row, sessionCols, Set.of("messages", "_steward"));
        // new row ids in the stored order (the backup lists a session's messages by id): see the class comment
        for (JsonNode m : l.path("messages")) {
            insert(c, "messages", m, messageCols, Set.of("id"));
            messages[0]++;
        }
        if (usage) {
            for (JsonNode u : l.path("_steward").path("session_model_usage"))
                insert(c, "session_model_usage", u, null, Set.of());
        }
        return null;
    }

    private static void insert(Connection c, String table, JsonNode row, Set<String> allowed, Set<String> skip)
            throws SQLException {
        List<String> cols = new ArrayList<>();
        List<JsonNode> vals = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = row.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (skip.contains(e.getKey())) continue;
            if (allowed != null && !allowed.contains(e.getKey())) continue;
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) continue;
            cols.add(e.getKey());
            vals.add(e.getValue());
        }
        String sql = "INSERT INTO " + table + " (" + String.join(", ", cols) + ") VALUES ("
                + "?, ".repeat(cols.size() - 1) + "?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < vals.size(); i++) bind(ps, i + 1, vals.get(i));
            ps.executeUpdate();
        }
    }

    static void bind(PreparedStatement ps, int i, JsonNode v) throws SQLException {
        if (v == null || v.isNull()) ps.setObject(i, null);
        else if (v.isIntegralNumber()) ps.setLong(i, v.asLong());
        else if (v.isNumber()) ps.setDouble(i, v.asDouble());
        else if (v.isBoolean()) ps.setInt(i, v.asBoolean() ? 1 : 0);
        else if (v.isBinary()) ps.setBytes(i, v.binaryValue());
        else ps.setString(i, v.asString());
    }

    private static boolean exists(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String unmark(Connection c, JsonNode l, JsonNode note, LaterDeletions deletions)
            throws SQLException {
        String id = l.path("id").asString();
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sessions WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    // deleted by a later apply (an ended untitled machine session is rule B's next): say which backup
                    // holds it, so the undo can be done in order
                    String later = deletions.deletedBy(id);
                    return later == null
                            ? "no longer in state.db (deleted since)"
                            : "deleted since by the apply of backup " + later + ": restore it from " + later
                                    + " first, then this";
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at = ? AND end_reason = 'housekeeping'")) {
            bind(ps, 1, l.get("ended_at"));
            bind(ps, 2, l.get("end_reason"));
            ps.setString(3, id);
            ps.setDouble(4, note.path("ended_at").asDouble());
            return ps.executeUpdate() == 1 ? null : "changed since apply (no longer ended by housekeeping)";
        }
    }

    /**
     * Which later backup deleted a session: the newest backup after {@code backupId} that holds it as deleted, or null.
     * The later backups are read once per restore, line by line, on the first question (they were read whole for every
     * session asked about, inside the write transaction: a restore of an old apply of thousands of sessions ended
     * since deleted took minutes per thousand while Hermes could not write).
     */
    static final class LaterDeletions {
        private final SessionBackup bk;
        private final String backupId;
        private Map<String, String> byId;

        LaterDeletions(SessionBackup bk, String backupId) {
            this.bk = bk;
            this.backupId = backupId;
        }

        String deletedBy(String sessionId) {
            if (byId == null) byId = read();
            return byId.get(sessionId);
        }

        private Map<String, String> read() {
            List<String> ids = new ArrayList<>();
            try (var files = java.nio.file.Files.list(bk.dir())) {
                files.map(f -> f.getFileName().toString())
                        .filter(n -> n.endsWith(".jsonl") && !n.endsWith(".claude.jsonl"))
                        .map(n -> n.substring(0, n.length() - ".jsonl".length()))
                        .filter(n -> SessionBackup.isBackupId(n) && n.compareTo(backupId) > 0)
                        .sorted(java.util.Comparator.reverseOrder())
                        .forEach(ids::add);
            } catch (IOException e) {
                return Map.of();
            }
            Map<String, String> out = new HashMap<>();
            for (String id : ids) { // newest first: the newest deletion of a session is the one named
                Map<String, String> own = new HashMap<>();
                try {
                    bk.forEachLine(id, l -> {
                        if (l.path("_steward").path("action").asString("delete").equals("delete"))
                            own.putIfAbsent(l.path("id").asString(), id);
                    });
                } catch (IOException | RuntimeException e) {
                    continue; // a damaged backup holds nothing we can point at
                }
                own.forEach(out::putIfAbsent);
            }
            return out;
        }
    }

    private static String unrename(Connection c, JsonNode l, JsonNode note) throws SQLException {
        String id = l.path("id").asString();
        JsonNode old = l.get("title");
        if (old != null && old.isString()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM sessions WHERE title = ? AND id != ?")) {
                ps.setString(1, old.asString());
                ps.setString(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) return "its old title is now used by session " + rs.getString(1);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET title = ? WHERE id = ? AND title = ?")) {
            bind(ps, 1, old);
            ps.setString(2, id);
            ps.setString(3, note.path("new_title").asString());
            return ps.executeUpdate() == 1 ? null : "changed since apply (title is no longer the one Steward set)";
        }
    }
}
