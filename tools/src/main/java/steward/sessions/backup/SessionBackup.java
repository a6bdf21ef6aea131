package steward.sessions.backup;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Session backups in {@code <state dir>/backups/sessions/<backup_id>.jsonl}, one line per session in
 * the shape of {@code hermes sessions export} (every session column plus {@code "messages"}), with
 * Steward's own bookkeeping under {@code "_steward"} (what was done, side files, usage rows). Unlike
 * Hermes' export, {@code "messages"} holds every row of the session (inactive ones too, each with its
 * {@code active} column), so that a restore is complete. Side files live in {@code <backup_id>.files/}.
 */
public final class SessionBackup {
    private static final Pattern ID = Pattern.compile("b_\\d{8}T\\d{6}Z_[0-9a-f]{6}");
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;

    public SessionBackup(Path stateDir) {
        this.dir = stateDir.resolve("backups").resolve("sessions");
    }

    public static boolean isBackupId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    public static String newId(Instant now) {
        byte[] b = new byte[3];
        RANDOM.nextBytes(b);
        return "b_" + STAMP.format(now) + "_" + HexFormat.of().formatHex(b);
    }

    public Path file(String id) {
        return dir.resolve(id + ".jsonl");
    }

    /** The Claude Code part of a backup: one line per session, its files under {@code <id>.files/claude/}. */
    public Path claudeFile(String id) {
        return dir.resolve(id + ".claude.jsonl");
    }

    public Path filesDir(String id) {
        return dir.resolve(id + ".files");
    }

    public Path dir() {
        return dir;
    }

    /** One export line for a session: all its columns, its messages ordered by id, and Steward's note. */
    public static ObjectNode exportLine(Connection c, String sessionId, ObjectNode steward) throws SQLException {
        ObjectNode line = Json.MAPPER.createObjectNode();
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM sessions WHERE id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                putRow(line, rs);
            }
        }
        line.set("messages", rows(c, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", sessionId));
        if (hasTable(c, "session_model_usage")) {
            steward.set(
                    "session_model_usage",
                    rows(c, "SELECT * FROM session_model_usage WHERE session_id = ?", sessionId));
        }
        line.set("_steward", steward);
        return line;
    }

    static ArrayNode rows(Connection c, String sql, String id) throws SQLException {
        ArrayNode out = Json.MAPPER.createArrayNode();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ObjectNode m = Json.MAPPER.createObjectNode();
                    putRow(m, rs);
                    out.add(m);
                }
            }
        }
        return out;
    }

    static void putRow(ObjectNode n, ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            Object v = rs.getObject(i);
            String k = md.getColumnName(i);
            if (v == null) n.putNull(k);
            else if (v instanceof Integer x) n.put(k, x.longValue());
            else if (v instanceof Long x) n.put(k, x);
            else if (v instanceof Double x) n.put(k, x);
            else if (v instanceof Float x) n.put(k, x.doubleValue());
            else if (v instanceof byte[] b) n.put(k, b);
            else n.put(k, v.toString());
        }
    }

    public static boolean hasTable(Connection c, String name) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    public record Written(String backup_id, String path, long size_bytes, int sessions, int messages) {}

    /**
     * Writes the backup atomically (temp file, fsync, rename), then reads it back and checks every
     * line: same sessions, same message counts. Any failure is a {@link StewardError}; the caller
     * changes nothing then.
     */
    public Written write(String id, List<ObjectNode> lines) {
        return write(id, file(id), lines);
    }

    /** Writes the Claude Code part of backup {@code id} ({@link #claudeFile}), verified as {@link #write(String, List)} does. */
    public Written writeClaude(String id, List<ObjectNode> lines) {
        return write(id, claudeFile(id), lines);
    }

    private Written write(String id, Path f, List<ObjectNode> lines) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int messages = 0;
            for (ObjectNode l : lines) {
                bytes.write(Json.MAPPER.writeValueAsBytes(l));
                bytes.write('\n');
                messages += l.path("messages").size();
            }
            AtomicFiles.ensurePrivateDir(dir);
            AtomicFiles.write(f, bytes.toByteArray());
            List<JsonNode> back = readLines(f, f.equals(claudeFile(id)));
            if (back.size() != lines.size())
                throw new IOException("read back " + back.size() + " lines, wrote " + lines.size());
            for (int i = 0; i < lines.size(); i++) {
                if (!back.get(i)
                                .path("id")
                                .asString("")
                                .equals(lines.get(i).path("id").asString(""))
                        || back.get(i).path("messages").size()
                                != lines.get(i).path("messages").size()) {
                    throw new IOException("read-back mismatch at line " + (i + 1));
                }
            }
            return new Written(id, f.toString(), Files.size(f), lines.size(), messages);
        } catch (IOException | RuntimeException e) {
            throw new StewardError("session_apply", "backup failed, nothing was changed: " + e.getMessage(), e);
        }
    }

    /**
     * The Hermes lines of backup {@code id}. A damaged file (empty: Steward never writes an empty backup; a line cut
     * short or not a session record) is an {@link IOException} naming the file and the line, never fewer sessions.
     */
    public List<JsonNode> read(String id) throws IOException {
        return readLines(file(id), false);
    }

    /** The Claude Code lines of backup {@code id} (none when it has no Claude Code part), checked as {@link #read}. */
    public List<JsonNode> readClaude(String id) throws IOException {
        return Files.exists(claudeFile(id)) ? readLines(claudeFile(id), true) : List.of();
    }

    private static List<JsonNode> readLines(Path f, boolean claude) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        eachLine(f, claude, out::add);
        return out;
    }

    /**
     * Each Hermes line of backup {@code id}, checked as {@link #read}, one at a time: a backup of tens of thousands of
     * sessions (hundreds of MB) is never held whole. A damaged line stops the walk with its {@link IOException}.
     */
    public void forEachLine(String id, Consumer<JsonNode> each) throws IOException {
        eachLine(file(id), false, each);
    }

    private static void eachLine(Path f, boolean claude, Consumer<JsonNode> each) throws IOException {
        int lines = 0;
        try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank()) continue;
                JsonNode l;
                try {
                    l = Json.MAPPER.readTree(line);
                } catch (RuntimeException e) {
                    throw new IOException(damaged(f, "line " + n + " is not valid JSON (" + Json.problem(e) + ")"));
                }
                String why = claude ? claudeLineProblem(l) : lineProblem(l);
                if (why != null) throw new IOException(damaged(f, "line " + n + " " + why));
                each.accept(l);
                lines++;
            }
        }
        if (lines == 0) throw new IOException(damaged(f, "it is empty (Steward never writes an empty backup)"));
    }

    private static String damaged(Path f, String why) {
        return f.getFileName() + " is damaged: " + why;
    }

    /** Why a Hermes line is not a session record (an object with a session id), or null. */
    private static String lineProblem(JsonNode l) {
        if (!l.isObject()) return "is not a session record";
        if (!l.path("id").isString() || l.path("id").asString().isBlank()) return "has no session id";
        return null;
    }

    /** As {@link #lineProblem}, and every path it moved is relative and stays inside the Claude Code home. */
    private static String claudeLineProblem(JsonNode l) {
        String why = lineProblem(l);
        if (why != null) return why;
        if (!l.path("paths").isArray()) return "has no list of the files it moved";
        for (JsonNode p : l.path("paths")) {
            String s = p.isString() ? p.asString() : "";
            if (s.isEmpty() || s.startsWith("/") || s.contains("\\") || s.contains("\u0000"))
                return "names a path outside the home";
            for (String part : s.split("/"))
                if (part.equals("..") || part.equals(".") || part.isEmpty()) return "names a path outside the home";
        }
        return null;
    }

    /** Removes every part of backup {@code id}: its side files, its Claude Code and Hermes parts, and its marker. */
    public void remove(String id) throws IOException {
        FileTrees.delete(filesDir(id));
        Files.deleteIfExists(claudeFile(id));
        Files.deleteIfExists(file(id));
        Files.deleteIfExists(interruptedMarker(id));
    }

    /** The marker of a backup written by an apply that was interrupted before it changed anything. */
    public Path interruptedMarker(String id) {
        return dir.resolve(id + ".interrupted.json");
    }

    /** Marks a backup as from an apply that changed nothing (restore then has nothing to do and says why). */
    public void markInterrupted(String id, String reason) throws IOException {
        var n = Json.MAPPER.createObjectNode();
        n.put("backup_id", id);
        n.put("reason", reason);
        AtomicFiles.write(interruptedMarker(id), Json.MAPPER.writeValueAsBytes(n));
    }

    /** Why the backup is from an apply that changed nothing, or null. */
    public String interruptedReason(String id) {
        Path m = interruptedMarker(id);
        if (!Files.isRegularFile(m)) return null;
        try {
            return Json.MAPPER.readTree(Files.readAllBytes(m)).path("reason").asString("interrupted apply");
        } catch (IOException | RuntimeException e) {
            return "interrupted apply";
        }
    }

    /**
     * Takes back what a failed apply wrote of backup {@code id}, once everything it moved is back in place: its Hermes
     * part ({@code hermes}), or its Claude Code part with the {@code sessions-index.json} copies saved beside it
     * ({@code claudeSaved}, null: leave that part) and the directories the moves left empty under
     * {@code <id>.files/claude/}; then {@code <id>.files/} when nothing is left in it. A file it does not name (one that
     * could not be put back) stays, with its directories. Returns whether the backup is gone.
     */
    public boolean discardUnapplied(String id, boolean hermes, List<Path> claudeSaved) throws IOException {
        if (hermes) Files.deleteIfExists(file(id));
        if (claudeSaved != null) {
            Files.deleteIfExists(claudeFile(id));
            for (Path p : claudeSaved) Files.deleteIfExists(p);
            // only once the Claude Code part is back: before, an empty directory here may be a moved one
            removeEmptyDirs(filesDir(id).resolve("claude"));
        }
        Path files = filesDir(id);
        if (Files.isDirectory(files, LinkOption.NOFOLLOW_LINKS)) {
            try (var s = Files.list(files)) {
                if (s.findAny().isEmpty()) Files.delete(files);
            }
        }
        AtomicFiles.fsyncDir(dir);
        return !Files.exists(files) && !Files.exists(file(id)) && !Files.exists(claudeFile(id));
    }

    /** Removes {@code root} and every directory under it that holds no file, deepest first; whether {@code root} is gone. */
    private static boolean removeEmptyDirs(Path root) throws IOException {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) return !Files.exists(root);
        List<Path> dirs;
        try (var s = Files.walk(root)) {
            dirs = s.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .sorted(Comparator.reverseOrder())
                    .toList();
        }
        for (Path d : dirs) {
            try (var s = Files.list(d)) {
                if (s.findAny().isPresent()) continue;
            }
            Files.delete(d);
        }
        return !Files.exists(root);
    }

    /** Validates a backup id from the caller and that the backup exists. */
    public void requireExisting(String id, String context) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new StewardError(
                    context, "unknown backup id '" + id + "' (expected the backup_id returned by session_apply)");
        }
        if (!Files.isRegularFile(file(id)) && !Files.isRegularFile(claudeFile(id)))
            throw new StewardError(context, "no backup " + id + " in " + dir);
    }

    /** Whether {@code name} is one of the side-file names of {@code sessionId} (a plain file name, no path). */
    public static boolean isSideFileName(String name, String sessionId) {
        if (name == null || sessionId == null || name.contains("/") || name.contains("\\") || name.contains("\u0000"))
            return false;
        if (name.equals(sessionId + ".json") || name.equals(sessionId + ".jsonl")) return true;
        return name.startsWith("request_dump_" + sessionId + "_") && name.endsWith(".json") && !name.contains("..");
    }

    /**
     * One listing of {@code <home>/sessions/} for looking up the side files of many sessions (an apply of thousands):
     * {@link #of(String)} answers as {@link SessionBackup#sideFiles} would, without listing the directory once per
     * session. Used within one call only, right after it is made; each file found is checked to be there still.
     */
    public static final class SideFileIndex {
        private final Path dir;
        private final NavigableSet<String> names;

        private SideFileIndex(Path dir, NavigableSet<String> names) {
            this.dir = dir;
            this.names = names;
        }

        public static SideFileIndex of(Path hermesHome) throws IOException {
            Path sd = hermesHome.resolve("sessions");
            TreeSet<String> names = new TreeSet<>();
            if (Files.isDirectory(sd)) {
                try (var s = Files.list(sd)) {
                    s.forEach(p -> names.add(p.getFileName().toString()));
                }
            }
            return new SideFileIndex(sd, names);
        }

        public List<Path> of(String sessionId) {
            List<Path> out = new ArrayList<>();
            for (String n : List.of(sessionId + ".json", sessionId + ".jsonl")) {
                if (names.contains(n) && Files.isRegularFile(dir.resolve(n))) out.add(dir.resolve(n));
            }
            String prefix = "request_dump_" + sessionId + "_";
            for (String n : names.subSet(prefix, true, prefix + Character.MAX_VALUE, true)) {
                if (n.endsWith(".json") && Files.isRegularFile(dir.resolve(n))) out.add(dir.resolve(n));
            }
            return out;
        }
    }

    /** Hermes' per-session side files under {@code <home>/sessions/}. */
    public static List<Path> sideFiles(Path hermesHome, String sessionId) throws IOException {
        Path sd = hermesHome.resolve("sessions");
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(sd)) return out;
        for (String n : List.of(sessionId + ".json", sessionId + ".jsonl")) {
            Path p = sd.resolve(n);
            if (Files.isRegularFile(p)) out.add(p);
        }
        String prefix = "request_dump_" + sessionId + "_";
        try (var s = Files.list(sd)) {
            s.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith(prefix) && n.endsWith(".json") && Files.isRegularFile(p);
                    })
                    .sorted()
                    .forEach(out::add);
        }
        return out;
    }
}
