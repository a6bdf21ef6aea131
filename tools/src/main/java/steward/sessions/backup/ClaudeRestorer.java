package steward.sessions.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.claude.SessionsIndex;
import steward.state.AtomicFiles;
import steward.state.FileMoves;
import tools.jackson.databind.JsonNode;

/**
 * The Claude Code part of {@code session_restore}: every file of a session is moved back from the backup to where it
 * was, byte for byte (checked against the SHA-256 taken before the apply), and its {@code sessions-index.json} entry
 * returns: when the index is still exactly what the apply wrote and every session removed from it comes back, the
 * original file is put back byte-identical; otherwise the entries are re-inserted at their old positions. A session
 * whose files exist again is skipped; an index that cannot be parsed is left alone and reported.
 */
final class ClaudeRestorer {
    private final Path home;
    private final SessionBackup bk;
    private final String backupId;

    ClaudeRestorer(Path claudeHome, SessionBackup bk, String backupId) {
        this.home = claudeHome.toAbsolutePath().normalize();
        this.bk = bk;
        this.backupId = backupId;
    }

    record Outcome(List<String> restored, List<RestoreEngine.Skipped> skipped, int files) {}

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
        int files = 0;
        for (JsonNode l : lines) {
            List<String> ids = ids(l);
            if (ids.stream().noneMatch(wanted::contains)) continue;
            String id = ids.get(0);
            String made = l.path("_steward").path("claude_home").asString(null);
            if (made != null && !Path.of(made).equals(home)) {
                skipped.add(
                        new RestoreEngine.Skipped(id, "backed up from the Claude Code home " + made + ", not " + home));
                continue;
            }
            // each path comes back on its own: after an interrupted apply, part of a session may still be in place
            List<String> back = new ArrayList<>();
            List<String> inPlace = new ArrayList<>();
            String why = null;
            for (JsonNode r : l.path("paths")) {
                boolean there = Files.exists(home.resolve(r.asString()), LinkOption.NOFOLLOW_LINKS);
                boolean saved = Files.exists(filesRoot.resolve(r.asString()), LinkOption.NOFOLLOW_LINKS);
                if (there) inPlace.add(r.asString());
                else if (saved) back.add(r.asString());
                else why = r.asString() + " is neither in place nor in backup " + backupId;
            }
            if (back.isEmpty()) {
                skipped.add(new RestoreEngine.Skipped(
                        id, why != null ? why : "exists again (" + String.join(", ", inPlace) + ")"));
                continue;
            }
            List<Path[]> moved = new ArrayList<>();
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
                }
            } catch (IOException e) {
                for (Path[] m : moved) {
                    try {
                        FileMoves.move(m[1], m[0]);
                    } catch (IOException ignored) {
                        // stays where it is; reported below
                    }
                }
                skipped.add(new RestoreEngine.Skipped(id, "cannot move its files back: " + e.getMessage()));
                continue;
            }
            if (!inPlace.isEmpty() || why != null) {
                skipped.add(new RestoreEngine.Skipped(
                        id,
                        "partly restored: " + String.join(", ", back) + " moved back; "
                                + (why != null ? why : String.join(", ", inPlace) + " already in place")));
            }
            restored.addAll(ids);
            restoredIds.addAll(ids);
            if (l.hasNonNull("index")) indexLines.add(l);
        }
        restoreIndexes(indexLines, restoredIds, filesRoot, skipped);
        return new Outcome(restored, skipped, files);
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
