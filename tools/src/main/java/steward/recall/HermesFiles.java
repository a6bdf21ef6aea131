package steward.recall;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import steward.StewardError;
import steward.Work;
import steward.config.StewardPaths;
import steward.memory.MemoryDocument;
import steward.state.AtomicFiles;

/**
 * The file-backed sources of a Hermes home: memory entries ({@code MEMORY.md}, {@code USER.md}), skills
 * ({@code skills/**}{@code /SKILL.md}) and daily log entries ({@code memories/logs/YYYY-MM-DD.md}). A file is one group,
 * re-read when its content hash changes. URIs: {@code steward://memory/<target>/<id>}, {@code steward://skill/<name>},
 * {@code steward://log/<date>/<id>}, ids by {@link Identity}. The positional forms of the previous release
 * ({@code steward://memory/<target>/<n>}, {@code steward://log/<date>}) still resolve, to the entry now at position n and
 * to the whole day.
 */
public final class HermesFiles implements RecallSource {
    private static final Pattern LOG_NAME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})\\.md");
    private static final Pattern FRONT = Pattern.compile("\\A---\\s*\\n(.*?)\\n---\\s*\\n?", Pattern.DOTALL);
    /** A line that starts a new log entry: a heading or a list item. */
    private static final Pattern ENTRY_START = Pattern.compile("^(#{1,6}\\s|[-*+]\\s|\\d+[.)]\\s)");

    private static final Pattern POSITIONAL = Pattern.compile("\\d{1,6}");

    private final StewardPaths paths;
    private final Map<Path, String[]> hashes = new HashMap<>(); // path -> {size:mtime, content hash}

    public HermesFiles(StewardPaths paths) {
        this.paths = paths;
    }

    @Override
    public String id() {
        return "hermes-files";
    }

    @Override
    public List<String> kinds() {
        return List.of(RecallItem.MEMORY, RecallItem.SKILL, RecallItem.LOG);
    }

    public Path logsDir() {
        return paths.memoriesDir().resolve("logs");
    }

    Path memoryFile(String target) {
        return paths.memoriesDir().resolve(target.equals("user") ? "USER.md" : "MEMORY.md");
    }

    /** Group key → file, for every file-backed group that exists now. */
    private Map<String, Path> groups() {
        Map<String, Path> out = new TreeMap<>();
        for (String target : List.of("memory", "user")) {
            Path f = memoryFile(target);
            if (Files.isRegularFile(f)) out.put("memory:" + target, f);
        }
        for (Map.Entry<String, Path> e : skillFiles().entrySet()) out.put("skill:" + e.getKey(), e.getValue());
        for (Map.Entry<String, Path> e : logFiles().entrySet()) out.put("log:" + e.getKey(), e.getValue());
        return out;
    }

    @Override
    public String token() {
        StringBuilder b = new StringBuilder();
        for (Path f : statTargets())
            b.append(f).append('|').append(AtomicFiles.stamp(f)).append('\n');
        return Long.toHexString(Identity.fnv(b.toString())) + ":" + b.length();
    }

    /** The files whose stats make the token: both memory files, every SKILL.md, every log, and the directories. */
    private List<Path> statTargets() {
        List<Path> out =
                new ArrayList<>(List.of(memoryFile("memory"), memoryFile("user"), paths.skillsDir(), logsDir()));
        out.addAll(skillPaths());
        out.addAll(logFiles().values());
        return out;
    }

    /** Every SKILL.md under the skills dir (paths only, nothing read). */
    private List<Path> skillPaths() {
        Path dir = paths.skillsDir();
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().equals("SKILL.md"))
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    @Override
    public Map<String, String> sync(Map<String, String> state, boolean thorough, Sink sink, Work work) {
        Map<String, String> now = new TreeMap<>();
        Map<String, Path> groups = groups();
        List<String> unread = new ArrayList<>();
        int done = 0;
        for (Map.Entry<String, Path> e : groups.entrySet()) {
            try {
                String h = hash(e.getValue());
                if (!h.equals(state.get(e.getKey()))) sink.replaceGroup(e.getKey(), items(e.getKey()));
                now.put(e.getKey(), h);
            } catch (StewardError ex) {
                // one file that cannot be read (not UTF-8, unreadable) is left out, and what was indexed of it with it
                // (it cannot be verified); every other file stays searchable, and the next sync tries it again
                unread.add(ex.getMessage());
            }
            if (++done % 50 == 0) work.checkpoint("recall index");
        }
        for (String k : state.keySet()) if (!now.containsKey(k)) sink.deleteGroup(k);
        problem = unread.isEmpty()
                ? null
                : unread.get(0)
                        + (unread.size() > 1 ? " (and " + (unread.size() - 1) + " more files)" : "")
                        + "; left out, the other memory files, skills and logs are searched";
        return now;
    }

    private volatile String problem;

    @Override
    public String problem() {
        return problem;
    }

    /** The items of one group key. */
    List<RecallItem> items(String key) {
        int colon = key.indexOf(':');
        String kind = key.substring(0, colon), name = key.substring(colon + 1);
        switch (kind) {
            case "memory":
                return memoryItems(name, key);
            case "skill": {
                Path f = skillFiles().get(name);
                return f == null ? List.of() : List.of(skillItem(f, key));
            }
            case "log": {
                Path f = logFiles().get(name);
                return f == null ? List.of() : logItems(name, f, key);
            }
            default:
                throw new StewardError("recall", "unknown source key " + key);
        }
    }

    private List<RecallItem> memoryItems(String target, String key) {
        Path f = memoryFile(target);
        if (!Files.isRegularFile(f)) return List.of();
        MemoryDocument doc = MemoryDocument.read(f);
        double ts = mtime(f);
        List<RecallItem> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        String file = target.equals("user") ? "USER.md" : "MEMORY.md";
        for (int i = 0; i < doc.entries().size(); i++) {
            String e = doc.entries().get(i);
            out.add(new RecallItem(
                    "steward://memory/" + target + "/" + unique(Identity.id(e), seen),
                    RecallItem.MEMORY,
                    key,
                    file + " entry " + (i + 1),
                    e,
                    "",
                    ts,
                    null,
                    e.startsWith("[pin") || e.contains("#pinned")));
        }
        return out;
    }

    private static String unique(String id, Map<String, Integer> seen) {
        int n = seen.merge(id, 1, Integer::sum);
        return n == 1 ? id : id + "-" + n;
    }

    /** Skill name → SKILL.md, the name taken from the front matter or else the directory name. */
    public Map<String, Path> skillFiles() {
        Map<String, Path> out = new TreeMap<>();
        Path dir = paths.skillsDir();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(p -> p.getFileName().toString().equals("SKILL.md") && Files.isRegularFile(p))
                    .sorted()
                    .forEachOrdered(p -> {
                        String name;
                        try {
                            name = frontValue(read(p), "name");
                        } catch (StewardError e) {
                            name = null; // unreadable: named by its directory, and left out (with a warning) by sync
                        }
                        if (name == null || name.isBlank())
                            name = p.getParent().getFileName().toString();
                        out.putIfAbsent(name.strip(), p);
                    });
        } catch (IOException | UncheckedIOException e) {
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

    private static double dayStart(String date, Path f) {
        try {
            return LocalDate.parse(date).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        } catch (RuntimeException e) {
            return mtime(f);
        }
    }

    /** A daily log's entries: blocks separated by blank lines, and a heading or list item starts a new entry. */
    static List<String> logEntries(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            boolean blank = line.isBlank();
            if (blank || ENTRY_START.matcher(line).find()) {
                if (!cur.toString().isBlank()) out.add(cur.toString().strip());
                cur.setLength(0);
            }
            if (!blank) cur.append(line).append('\n');
        }
        if (!cur.toString().isBlank()) out.add(cur.toString().strip());
        return out;
    }

    private List<RecallItem> logItems(String date, Path f, String key) {
        double ts = dayStart(date, f);
        List<RecallItem> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String e : logEntries(read(f))) {
            out.add(new RecallItem(
                    "steward://log/" + date + "/" + unique(Identity.id(e), seen),
                    RecallItem.LOG,
                    key,
                    "log " + date,
                    e,
                    "",
                    ts,
                    null,
                    false));
        }
        return out;
    }

    @Override
    public boolean owns(String uri) {
        return uri.startsWith("steward://memory/")
                || uri.startsWith("steward://skill/")
                || uri.startsWith("steward://log/");
    }

    @Override
    public RecallItem resolve(String uri) {
        String rest = uri.substring("steward://".length());
        String[] parts = rest.split("/");
        switch (parts[0]) {
            case "memory": {
                if (parts.length != 3 || !List.of("memory", "user").contains(parts[1]))
                    throw new StewardError("recall", "bad memory URI " + uri);
                List<RecallItem> items = memoryItems(parts[1], "memory:" + parts[1]);
                if (POSITIONAL
                        .matcher(parts[2])
                        .matches()) { // the previous release's positional form: the entry now there
                    int n = Integer.parseInt(parts[2]);
                    return n >= 1 && n <= items.size() ? items.get(n - 1) : null;
                }
                return find(items, uri);
            }
            case "skill": {
                String name = rest.substring("skill/".length());
                Path f = skillFiles().get(name);
                return f == null ? null : skillItem(f, "skill:" + name);
            }
            case "log": {
                if (parts.length < 2 || parts.length > 3) throw new StewardError("recall", "bad log URI " + uri);
                Path f = logFiles().get(parts[1]);
                if (f == null) return null;
                if (parts.length == 2) { // the previous release's form: the whole day
                    return new RecallItem(
                            uri,
                            RecallItem.LOG,
                            "log:" + parts[1],
                            "log " + parts[1],
                            read(f).strip(),
                            "",
                            dayStart(parts[1], f),
                            null,
                            false);
                }
                return find(logItems(parts[1], f, "log:" + parts[1]), uri);
            }
            default:
                throw new StewardError("recall", "unknown source in URI " + uri);
        }
    }

    private static RecallItem find(List<RecallItem> items, String uri) {
        for (RecallItem it : items) if (it.uri().equals(uri)) return it;
        return null;
    }

    static String frontValue(String raw, String field) {
        Matcher m = FRONT.matcher(raw);
        if (!m.find()) return null;
        for (String line : m.group(1).split("\n")) {
            int c = line.indexOf(':');
            if (c > 0 && line.substring(0, c).strip().equals(field)) {
                String v = line.substring(c + 1).strip();
                if (v.length() >= 2
                        && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
                    v = v.substring(1, v.length() - 1);
                }
                return v;
            }
        }
        return null;
    }

    private synchronized String hash(Path f) {
        try {
            String stat = AtomicFiles.stamp(f);
            String[] cached = hashes.get(f);
            if (cached != null && cached[0].equals(stat)) return cached[1];
            String h = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)))
                    .substring(0, 16);
            hashes.put(f, new String[] {stat, h});
            return h;
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read " + f + ": " + e.getMessage());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String read(Path f) {
        try {
            return MemoryDocument.decodeUtf8(Files.readAllBytes(f), f).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read " + f + ": " + e.getMessage());
        }
    }

    static double mtime(Path f) {
        try {
            return Files.getLastModifiedTime(f).toMillis() / 1000.0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Positional URIs of the previous release mapped to the current entry there (for migrating stored feedback). */
    Map<String, String> positionalToStable() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String target : List.of("memory", "user")) {
            List<RecallItem> items = memoryItems(target, "memory:" + target);
            for (int i = 0; i < items.size(); i++)
                out.put(
                        "steward://memory/" + target + "/" + (i + 1),
                        items.get(i).uri());
        }
        return out;
    }

    /** Where an entry's id of a previous release now points, when its file last changed, and its text's normal hash. */
    record Moved(String uri, double fileTime, long normalHash) {}

    /**
     * The memory and log entries whose id changed when meaningful symbols began to count ({@link Identity#legacyId}) or
     * when a confidence prefix stopped counting ({@link Identity#prefixedId}): their URI of before → their URI now (for
     * moving stored feedback).
     */
    Map<String, Moved> legacyToCurrent() {
        Map<String, Moved> out = new LinkedHashMap<>();
        for (String target : List.of("memory", "user")) {
            Path f = memoryFile(target);
            if (!Files.isRegularFile(f)) continue;
            List<String> texts = new ArrayList<>();
            for (RecallItem it : memoryItems(target, "memory:" + target)) texts.add(it.text());
            legacy("steward://memory/" + target + "/", texts, mtime(f), out);
        }
        for (Map.Entry<String, Path> e : logFiles().entrySet())
            legacy("steward://log/" + e.getKey() + "/", logEntries(read(e.getValue())), mtime(e.getValue()), out);
        return out;
    }

    private static void legacy(String prefix, List<String> texts, double fileTime, Map<String, Moved> out) {
        Map<String, Integer> symbolless = new HashMap<>(), prefixed = new HashMap<>(), now = new HashMap<>();
        for (String t : texts) {
            String is = prefix + unique(Identity.id(t), now);
            for (String was : List.of(
                    prefix + unique(Identity.legacyId(t), symbolless),
                    prefix + unique(Identity.prefixedId(t), prefixed)))
                if (!was.equals(is)) out.putIfAbsent(was, new Moved(is, fileTime, Identity.normalHash(t)));
        }
    }

    /** The entries of a day's log (what its whole-day URI of the previous release stands for); empty when none. */
    List<RecallItem> dayEntries(String date) {
        Path f = logFiles().get(date);
        return f == null ? List.of() : logItems(date, f, "log:" + date);
    }

    @Override
    public void close() {
        // nothing held open
    }
}
