package steward.recall;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import steward.StewardError;
import steward.config.StewardPaths;
import steward.memory.MemoryDocument;
import steward.sessions.store.MessageContent;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;
import steward.sessions.store.Sqlite;

/**
 * The indexed sources of a Hermes home and their change signatures. Memory entries (MEMORY.md, USER.md),
 * skills ({@code skills/**}{@code /SKILL.md}), user and assistant messages of {@code state.db} (tool output is
 * not indexed) and daily logs ({@code memories/logs/YYYY-MM-DD.md}). A signature is a content hash for files
 * and "max message id:count" for a session, so an unchanged source is never re-read.
 */
public final class Corpus {
    /** Neighbouring turns on each side folded into a message's context field. */
    public static final int CONTEXT_WINDOW = 2;
    private static final Pattern LOG_NAME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})\\.md");
    private static final Pattern FRONT = Pattern.compile("\\A---\\s*\\n(.*?)\\n---\\s*\\n?", Pattern.DOTALL);

    private final StewardPaths paths;
    private final Map<Path, String[]> statCache = new HashMap<>(); // path -> {size:mtime, hash}

    public Corpus(StewardPaths paths) {
        this.paths = paths;
    }

    public Path logsDir() {
        return paths.memoriesDir().resolve("logs");
    }

    /** Signatures of every file-backed source (memory files, skills, logs), keyed by item group. */
    public Map<String, String> fileSignatures() {
        Map<String, String> out = new TreeMap<>();
        for (String target : List.of("memory", "user")) {
            Path f = memoryFile(target);
            if (Files.isRegularFile(f)) out.put("memory:" + target, hash(f));
        }
        for (Map.Entry<String, Path> e : skillFiles().entrySet()) out.put("skill:" + e.getKey(), hash(e.getValue()));
        for (Map.Entry<String, Path> e : logFiles().entrySet()) out.put("log:" + e.getKey(), hash(e.getValue()));
        return out;
    }

    /** A cheap global fingerprint of the message table: "max id:count" or "" when there is no state.db. */
    public static String messageFingerprint(SessionStore store) {
        if (store == null) return "";
        try (Statement st = store.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT MAX(id), COUNT(*) FROM messages")) {
            return rs.next() ? rs.getLong(1) + ":" + rs.getLong(2) : "";
        } catch (SQLException e) {
            throw new StewardError("recall", "cannot read messages: " + Sqlite.describe(e));
        }
    }

    /** Per-session signatures of the indexed (user/assistant) messages. */
    public static Map<String, String> sessionSignatures(SessionStore store) {
        Map<String, String> out = new TreeMap<>();
        if (store == null) return out;
        try (Statement st = store.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT session_id, MAX(id), COUNT(*) FROM messages "
                     + "WHERE role IN ('user','assistant') GROUP BY session_id")) {
            while (rs.next()) out.put("session:" + rs.getString(1), rs.getLong(2) + ":" + rs.getLong(3));
        } catch (SQLException e) {
            throw new StewardError("recall", "cannot read messages: " + Sqlite.describe(e));
        }
        return out;
    }

    /** The items of one group key. */
    public List<RecallItem> items(String key, SessionStore store) {
        int colon = key.indexOf(':');
        String kind = key.substring(0, colon), name = key.substring(colon + 1);
        switch (kind) {
            case "memory": return memoryItems(name, key);
            case "skill": {
                Path f = skillFiles().get(name);
                return f == null ? List.of() : List.of(skillItem(f, key));
            }
            case "log": {
                Path f = logFiles().get(name);
                return f == null ? List.of() : List.of(logItem(name, f, key));
            }
            case "session": return sessionItems(name, key, store);
            default: throw new StewardError("recall", "unknown source key " + key);
        }
    }

    Path memoryFile(String target) {
        return paths.memoriesDir().resolve(target.equals("user") ? "USER.md" : "MEMORY.md");
    }

    private List<RecallItem> memoryItems(String target, String key) {
        Path f = memoryFile(target);
        MemoryDocument doc = MemoryDocument.read(f);
        double ts = mtime(f);
        List<RecallItem> out = new ArrayList<>();
        for (int i = 0; i < doc.entries().size(); i++) {
            String e = doc.entries().get(i);
            out.add(new RecallItem("steward://memory/" + target + "/" + (i + 1), RecallItem.MEMORY, key,
                    (target.equals("user") ? "USER.md" : "MEMORY.md") + " entry " + (i + 1), e, "", ts, null,
                    e.startsWith("[pin") || e.contains("#pinned")));
        }
        return out;
    }

    /** Skill name → SKILL.md, the name taken from the front matter or else the directory name. */
    public Map<String, Path> skillFiles() {
        Map<String, Path> out = new TreeMap<>();
        Path dir = paths.skillsDir();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(p -> p.getFileName().toString().equals("SKILL.md") && Files.isRegularFile(p)).sorted().forEach(p -> {
                String name = frontValue(read(p), "name");
                if (name == null || name.isBlank()) name = p.getParent().getFileName().toString();
                out.putIfAbsent(name.strip(), p);
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new StewardError("recall", "cannot list skills under " + dir + ": " + e.getMessage());
        }
        return out;
    }

    private RecallItem skillItem(Path f, String key) {
        String raw = read(f);
        String name = key.substring("skill:".length());
        String desc = frontValue(raw, "description");
        Matcher m = FRONT.matcher(raw);
        String body = m.find() ? raw.substring(m.end()) : raw;
        String text = (desc == null ? "" : desc.strip() + "\n") + body.strip();
        return new RecallItem("steward://skill/" + name, RecallItem.SKILL, key, name, text, "", mtime(f), null, false);
    }

    public Map<String, Path> logFiles() {
        Map<String, Path> out = new TreeMap<>();
        Path dir = logsDir();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> {
                Matcher m = LOG_NAME.matcher(p.getFileName().toString());
                if (m.matches() && Files.isRegularFile(p)) out.put(m.group(1), p);
            });
        } catch (IOException e) {
            throw new StewardError("recall", "cannot list logs under " + dir + ": " + e.getMessage());
        }
        return out;
    }

    private RecallItem logItem(String date, Path f, String key) {
        double ts;
        try {
            ts = LocalDate.parse(date).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        } catch (RuntimeException e) {
            ts = mtime(f);
        }
        return new RecallItem("steward://log/" + date, RecallItem.LOG, key, "log " + date, read(f).strip(), "", ts, null, false);
    }

    private List<RecallItem> sessionItems(String sessionId, String key, SessionStore store) {
        if (store == null) return List.of();
        SessionRow row = store.sessionsById(List.of(sessionId)).get(sessionId);
        String title = row != null && row.title() != null ? row.title() : "";
        boolean pinned = row != null && row.pinned();
        List<long[]> ids = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<Double> times = new ArrayList<>();
        Connection c = store.connection();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, content, timestamp FROM messages WHERE session_id = ? "
                + "AND role IN ('user','assistant') ORDER BY id")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String text = MessageContent.text(rs.getString(2)).strip();
                    if (text.isEmpty()) continue;
                    ids.add(new long[] {rs.getLong(1)});
                    texts.add(text);
                    times.add(rs.getDouble(3));
                }
            }
        } catch (SQLException e) {
            throw new StewardError("recall", "cannot read session " + sessionId + ": " + Sqlite.describe(e));
        }
        List<RecallItem> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            StringBuilder ctx = new StringBuilder();
            for (int j = Math.max(0, i - CONTEXT_WINDOW); j <= Math.min(texts.size() - 1, i + CONTEXT_WINDOW); j++) {
                if (j != i) ctx.append(texts.get(j)).append('\n');
            }
            out.add(new RecallItem("steward://session/" + sessionId + "/message/" + ids.get(i)[0], RecallItem.SESSION, key,
                    title, texts.get(i), ctx.toString(), times.get(i), sessionId, pinned));
        }
        return out;
    }

    /** Reads one item back from its source by URI (not from the index); null when it no longer exists. */
    public RecallItem resolve(String uri, SessionStore store) {
        if (uri == null || !uri.startsWith("steward://")) throw new StewardError("recall", "not a steward:// URI: " + uri);
        String rest = uri.substring("steward://".length());
        String[] parts = rest.split("/");
        String key;
        switch (parts[0]) {
            case "memory":
                if (parts.length != 3) throw new StewardError("recall", "bad memory URI " + uri);
                key = "memory:" + parts[1];
                break;
            case "skill": key = "skill:" + rest.substring("skill/".length()); break;
            case "log": key = "log:" + rest.substring("log/".length()); break;
            case "session":
                if (parts.length != 4 || !parts[2].equals("message")) throw new StewardError("recall", "bad session URI " + uri);
                key = "session:" + parts[1];
                break;
            default: throw new StewardError("recall", "unknown source in URI " + uri);
        }
        if (key.startsWith("memory:") && !Files.isRegularFile(memoryFile(key.substring(7)))) return null;
        for (RecallItem it : items(key, store)) if (it.uri().equals(uri)) return it;
        return null;
    }

    static String frontValue(String raw, String field) {
        Matcher m = FRONT.matcher(raw);
        if (!m.find()) return null;
        for (String line : m.group(1).split("\n")) {
            int c = line.indexOf(':');
            if (c > 0 && line.substring(0, c).strip().equals(field)) {
                String v = line.substring(c + 1).strip();
                if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
                    v = v.substring(1, v.length() - 1);
                }
                return v;
            }
        }
        return null;
    }

    private String hash(Path f) {
        try {
            String stat = Files.size(f) + ":" + Files.getLastModifiedTime(f).toMillis();
            String[] cached = statCache.get(f);
            if (cached != null && cached[0].equals(stat)) return cached[1];
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            String h = HexFormat.of().formatHex(md.digest(Files.readAllBytes(f))).substring(0, 16);
            statCache.put(f, new String[] {stat, h});
            return h;
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read " + f + ": " + e.getMessage());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path f) {
        try {
            return MemoryDocument.decodeUtf8(Files.readAllBytes(f), f).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read " + f + ": " + e.getMessage());
        }
    }

    private static double mtime(Path f) {
        try {
            return Files.getLastModifiedTime(f).toMillis() / 1000.0;
        } catch (IOException e) {
            return 0;
        }
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
