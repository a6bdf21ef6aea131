package steward.sessions.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.claude.ClaudeHome;
import steward.claude.SessionsIndex;
import steward.state.AtomicFiles;
import steward.state.FileMoves;
import tools.jackson.databind.JsonNode;

/**
 * The Claude Code part of {@code session_restore}: every file of a session is moved back from the backup to where it
 * was, byte for byte (checked against the SHA-256 taken before the apply), and its {@code sessions-index.json} entry
 * returns: when the index is still exactly what the apply wrote and every session removed from it comes back, the
 * original file is put back byte-identical; otherwise the entries are re-inserted at their old positions. A transcript
 * written at its path again since the apply (Claude Code appends by path) gets the backup's bytes put before the new
 * ones ({@link TranscriptMerge}); any other file that exists again with other content stays in the backup and is
 * reported. An index that cannot be parsed is left alone and reported. A restored transcript old enough for Claude
 * Code's {@code cleanupPeriodDays} to delete it gets the current time as mtime.
 */
final class ClaudeRestorer {
    private final Path home;
    private final SessionBackup bk;
    private final String backupId;
    private final double nowEpoch;

    ClaudeRestorer(Path claudeHome, SessionBackup bk, String backupId, double nowEpoch) {
        this.home = claudeHome.toAbsolutePath().normalize();
        this.bk = bk;
        this.backupId = backupId;
        this.nowEpoch = nowEpoch;
    }

    record Outcome(
            List<String> restored,
            List<RestoreEngine.Skipped> skipped,
            int files,
            List<RestoreEngine.Merged> merged,
            RestoreEngine.KeptFromCleanup keptFromCleanup) {}

    /**
     * Restored transcripts whose mtime is this close to Claude Code's {@code cleanupPeriodDays} (or past it) get the
     * current time as mtime, or Claude Code would delete them at its next start.
     */
    static final double CLEANUP_MARGIN_DAYS = 7;

    /** The ids a line restores: its session and the subagents that moved with its directory. */
    static List<String> ids(JsonNode line) {
        List<String> out = new ArrayList<>();
        out.add(line.path("id").asString());
        for (JsonNode w : line.path("with")) out.add(w.asString());
        return out;
    }

    Outcome restore(List<JsonNode> lines, Set<String> wanted) {
        Path filesRoot = bk.filesDir(backupId).resolve("claude");
        List<String> restored = new ArrayList<>();
        List<RestoreEngine.Skipped> skipped = new ArrayList<>();
        Set<String> restoredIds = new LinkedHashSet<>();
        List<JsonNode> indexLines = new ArrayList<>();
        List<RestoreEngine.Merged> merged = new ArrayList<>();
        List<JsonNode> alongLines = new ArrayList<>();
        Map<Path, String> backIds = new LinkedHashMap<>();
        int files = 0;
        for (JsonNode l : lines) {
            List<String> ids = ids(l);
            if (ids.stream().noneMatch(wanted::contains)) continue;
            String id = ids.get(0);
            if (l.path("paths").isEmpty()) {
                alongLines.add(l); // a subagent that moved with its parent's folder: restored with it
                continue;
            }
            String made = l.path("_steward").path("claude_home").asString(null);
            if (made != null && !Path.of(made).equals(home)) {
                skipped.add(
                        new RestoreEngine.Skipped(id, "backed up from the Claude Code home " + made + ", not " + home));
                continue;
            }
            // each path comes back on its own: after an interrupted apply, part of a session may still be in place
            List<String> back = new ArrayList<>();
            List<String> inPlace = new ArrayList<>();
            List<String> again = new ArrayList<>(); // written at its path again while the backup still holds it
            String why = null;
            for (JsonNode r : l.path("paths")) {
                boolean there = Files.exists(home.resolve(r.asString()), LinkOption.NOFOLLOW_LINKS);
                boolean saved = Files.exists(filesRoot.resolve(r.asString()), LinkOption.NOFOLLOW_LINKS);
                if (there && saved) again.add(r.asString());
                else if (there) inPlace.add(r.asString());
                else if (saved) back.add(r.asString());
                else why = r.asString() + " is neither in place nor in backup " + backupId;
            }
            if (back.isEmpty() && again.isEmpty()) {
                skipped.add(new RestoreEngine.Skipped(
                        id, why != null ? why : "already back (" + String.join(", ", inPlace) + ")"));
                continue;
            }
            Map<String, String> sha = new LinkedHashMap<>();
            for (JsonNode fe : l.path("files"))
                sha.put(fe.path("path").asString(), fe.path("sha256").asString());
            List<Path[]> moved = new ArrayList<>();
            List<String> conflicts = new ArrayList<>(), already = new ArrayList<>();
            int mergedHere = 0;
            try {
                for (String r : back) {
                    Path from = filesRoot.resolve(r);
                    Path to = home.resolve(r);
                    FileMoves.move(from, to);
                    moved.add(new Path[] {from, to});
                    FileMoves.fsyncTree(to);
                }
                for (JsonNode fe : l.path("files")) {
                    String f = fe.path("path").asString();
                    if (back.stream().noneMatch(r -> f.equals(r) || f.startsWith(r + "/"))) continue;
                    if (!FileMoves.sha256(home.resolve(f))
                            .equals(fe.path("sha256").asString())) {
                        throw new IOException(f + " does not match its hash");
                    }
                    files++;
                    backIds.put(home.resolve(f), id);
                }
                // a path written again since the apply (Claude Code appends by path: a window still open on the
                // session made a new file of the new turns): each backed-up file goes back under it, file by file
                for (String r : again) {
                    for (Path f : FileMoves.files(filesRoot.resolve(r))) {
                        String rel = filesRoot.relativize(f).toString();
                        Path to = home.resolve(rel);
                        if (!Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
                            FileMoves.move(f, to);
                            moved.add(new Path[] {f, to});
                            FileMoves.fsyncTree(to);
                            String want = sha.get(rel);
                            if (want != null && !FileMoves.sha256(to).equals(want))
                                throw new IOException(rel + " does not match its hash");
                            files++;
                            backIds.put(to, id);
                        } else if (FileMoves.startsWith(to, f) && Files.size(to) == Files.size(f)) {
                            already.add(rel);
                        } else if (TranscriptMerge.mergeable(rel)
                                && Files.isRegularFile(to, LinkOption.NOFOLLOW_LINKS)) {
                            long before = Files.size(to);
                            if (TranscriptMerge.merge(f, to, sha.get(rel)) == TranscriptMerge.Result.MERGED) {
                                merged.add(new RestoreEngine.Merged(id, rel, Files.size(f), before));
                                mergedHere++;
                                files++;
                                backIds.put(to, id);
                            } else already.add(rel);
                        } else {
                            conflicts.add(rel);
                        }
                    }
                }
            } catch (IOException e) {
                for (Path[] m : moved) {
                    try {
                        FileMoves.move(m[1], m[0]);
                    } catch (IOException ignored) {
                        // stays where it is; reported below
                    }
                }
                skipped.add(new RestoreEngine.Skipped(
                        id,
                        "cannot move its files back: " + e.getMessage()
                                + (mergedHere > 0
                                        ? " (" + mergedHere + " transcript(s) already merged stay merged)"
                                        : "")));
                continue;
            }
            if (back.isEmpty() && moved.isEmpty() && mergedHere == 0) {
                skipped.add(new RestoreEngine.Skipped(
                        id,
                        conflicts.isEmpty()
                                ? "already back (" + String.join(", ", already) + " hold the backup's bytes)"
                                : conflictReason(conflicts)));
                continue;
            }
            if (!inPlace.isEmpty() || why != null || !conflicts.isEmpty()) {
                skipped.add(new RestoreEngine.Skipped(
                        id,
                        "partly restored: "
                                + (!conflicts.isEmpty()
                                        ? conflictReason(conflicts)
                                        : why != null ? why : String.join(", ", inPlace) + " already in place")));
            }
            restored.addAll(ids);
            restoredIds.addAll(ids);
            if (l.hasNonNull("index")) indexLines.add(l);
        }
        for (JsonNode l : alongLines) {
            String id = l.path("id").asString();
            if (restoredIds.contains(id)) continue;
            String parent = id.contains("/") ? id.substring(0, id.indexOf('/')) : null;
            skipped.add(new RestoreEngine.Skipped(
                    id,
                    "moved with its parent's folder" + (parent != null ? ": restore " + parent : "")
                            + " to bring it back"));
        }
        restoreIndexes(indexLines, restoredIds, filesRoot, skipped);
        return new Outcome(restored, skipped, files, merged, keepFromCleanup(backIds));
    }

    private String conflictReason(List<String> conflicts) {
        return String.join(", ", conflicts) + " exists again with other content: the backup's copy stays in " + backupId
                + " (compare them by hand)";
    }

    /**
     * Claude Code deletes transcripts whose mtime is older than its {@code cleanupPeriodDays} when it starts: a restored
     * transcript that old (or within {@link #CLEANUP_MARGIN_DAYS} of it) gets the current time as mtime, so what the user
     * asked back stays. Null when none needed it.
     */
    private RestoreEngine.KeptFromCleanup keepFromCleanup(Map<Path, String> restoredFiles) {
        ClaudeHome.Cleanup c = ClaudeHome.cleanup(home);
        double limit = nowEpoch - Math.max(0, c.days() - CLEANUP_MARGIN_DAYS) * 86400.0;
        Set<String> ids = new LinkedHashSet<>();
        for (Map.Entry<Path, String> e : restoredFiles.entrySet()) {
            Path f = e.getKey();
            if (!f.getFileName().toString().endsWith(".jsonl")) continue;
            try {
                if (Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS).toMillis() / 1000.0 >= limit) continue;
                Files.setLastModifiedTime(f, FileTime.fromMillis((long) (nowEpoch * 1000)));
                ids.add(e.getValue());
            } catch (IOException ignored) {
                // left as it is: the session is back all the same
            }
        }
        return ids.isEmpty() ? null : new RestoreEngine.KeptFromCleanup(c.days(), List.copyOf(ids));
    }

    private void restoreIndexes(
            List<JsonNode> lines, Set<String> restoredIds, Path filesRoot, List<RestoreEngine.Skipped> skipped) {
        Map<String, List<JsonNode>> byIndex = new LinkedHashMap<>();
        for (JsonNode l : lines)
            byIndex.computeIfAbsent(l.path("index").path("path").asString(), k -> new ArrayList<>())
                    .add(l);
        for (Map.Entry<String, List<JsonNode>> e : byIndex.entrySet()) {
            Path file = home.resolve(e.getKey());
            JsonNode first = e.getValue().get(0).path("index");
            SessionsIndex.Read current = SessionsIndex.read(file);
            String ids = String.join(
                    ", ",
                    e.getValue().stream().map(l -> l.path("id").asString()).toList());
            try {
                boolean all = true;
                for (JsonNode x : first.path("removed_with")) all &= restoredIds.contains(x.asString());
                Path saved = filesRoot.resolve(e.getKey());
                if (current.exists()
                        && current.bytes() != null
                        && all
                        && Files.isRegularFile(saved)
                        && FileMoves.sha256(current.bytes())
                                .equals(first.path("after_sha256").asString())) {
                    write(file, Files.readAllBytes(saved)); // untouched since the apply: the original, byte for byte
                } else if (current.usable()) {
                    List<SessionsIndex.Removed> add = new ArrayList<>();
                    for (JsonNode l : e.getValue())
                        add.add(new SessionsIndex.Removed(
                                l.path("index").path("position").asInt(),
                                l.path("index").path("entry")));
                    write(file, SessionsIndex.with(current, add));
                } else if (!current.exists()) {
                    skipped.add(new RestoreEngine.Skipped(
                            ids, e.getKey() + " no longer exists: entries not re-inserted (the transcripts are back)"));
                } else {
                    skipped.add(new RestoreEngine.Skipped(
                            ids,
                            e.getKey() + " cannot be parsed (" + current.error()
                                    + "): left as it is, entries not re-inserted (the transcripts are back)"));
                }
            } catch (IOException ex) {
                skipped.add(new RestoreEngine.Skipped(
                        ids, "cannot write " + e.getKey() + ": " + ex.getMessage() + " (the transcripts are back)"));
            }
        }
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        Set<PosixFilePermission> mode = null;
        try {
            mode = Files.exists(file) ? Files.getPosixFilePermissions(file) : null;
        } catch (UnsupportedOperationException ignored) {
            // not POSIX
        }
        AtomicFiles.write(file, bytes);
        if (mode != null) AtomicFiles.setMode(file, mode);
    }
}
