package steward.recall;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import steward.StewardError;
import steward.Work;
import steward.claude.TitleEntry;
import steward.claude.Titles;
import steward.claude.TranscriptEvent;
import steward.claude.TranscriptReader;

/**
 * A Claude Code home as a recall source (files: {@link ClaudeFiles}). Indexed: the user and assistant text of each main
 * transcript (text blocks only: no tool output, no thinking, no tool calls; not sidechain, meta or compaction-summary
 * events, not slash-command plumbing), one item per event, titled with the session's title; the auto-memory topic
 * files, one item each; and the CLAUDE.md files and {@code MEMORY.md} index lines as entries (blocks split at blank
 * lines, headings and list items; index lines that only point to a topic file indexed on its own are left out).
 * <p>URIs: {@code steward://claude/session/<session uuid>/event/<event uuid>} (an event without a uuid:
 * {@code event/line-<n>}); {@code steward://claude/memory/<place>/<path>} for a topic file and
 * {@code steward://claude/memory/<place>/<path>/<entry id>} for an entry, where place is {@code user} (the Claude home:
 * {@code CLAUDE.md}, {@code rules/x.md}, {@code memory/personal/x.md}), {@code auto} (the {@code autoMemoryDirectory}
 * of settings.json) or a project's directory name under {@code projects/} (its {@code memory/x.md}, and
 * {@code CLAUDE.md}, {@code .claude/CLAUDE.md}, {@code CLAUDE.local.md}, {@code .claude/rules/x.md} of its working
 * directory); entry ids are content-derived ({@link Identity}), as for Hermes' memory entries.
 * <p>Incremental by size and mtime: a file whose stats did not move is not read; a transcript that grew (its bytes
 * before the last indexed line unchanged) is read from there on only, unless what arrived holds a title entry (then the
 * file is read again, to retitle its items); anything else is read whole.
 */
public final class ClaudeRecall implements RecallSource {
    static final String URI_PREFIX = "steward://claude/",
            SESSION_URI = URI_PREFIX + "session/",
            MEMORY_URI = URI_PREFIX + "memory/";
    /** Bytes before a transcript's indexed end that must be unchanged for an append-only read. */
    static final int TAIL_CHECK = 256;

    private static final Pattern SYSTEM_REMINDER = Pattern.compile("(?s)<system-reminder>.*?</system-reminder>");
    private static final Pattern PLUMBING = Pattern.compile(
            "(?s)\\A\\s*(<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>"
                    + "|\\[Request interrupted by user).*");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+\\.md)\\)");
    private static final Pattern HEADING_ONLY = Pattern.compile("\\A#{1,6}\\s[^\\n]*\\z");
    private static final Pattern FRONT = Pattern.compile("\\A---\\s*\\n(.*?)\\n---\\s*\\n?", Pattern.DOTALL);

    private final ClaudeFiles files;
    /** Files read whole / from an offset by this source (for tests and the bench). */
    long fullReads, tailReads;

    public ClaudeRecall(Path claudeHome) {
        this.files = new ClaudeFiles(claudeHome);
    }

    @Override
    public String id() {
        return "claude";
    }

    @Override
    public List<String> kinds() {
        return List.of(RecallItem.CLAUDE_SESSION, RecallItem.CLAUDE_MEMORY);
    }

    /** Cheap: a refresh of the file model (a tool call's check never waits for a running sync: the model has its own lock). */
    @Override
    public String token() {
        if (!Files.isDirectory(files.home())) return "-";
        synchronized (files) {
            files.refresh(false, System.currentTimeMillis());
            return files.token();
        }
    }

    /** A tracked file as it was when a sync started. */
    record File(String key, Path file, String uuid, long size, long mtime) {
        boolean transcript() {
            return uuid != null;
        }

        String stat() {
            return size + ":" + mtime;
        }
    }

    private Map<String, File> snapshot(boolean full) {
        synchronized (files) {
            if (full || files.files().isEmpty()) files.refresh(true, System.currentTimeMillis());
            Map<String, File> out = new HashMap<>();
            for (ClaudeFiles.Tracked t : files.files().values())
                out.put(t.key, new File(t.key, t.file, t.uuid, t.size, t.mtime));
            return out;
        }
    }

    @Override
    public Map<String, String> sync(Map<String, String> state, boolean thorough, Sink sink, Work work) {
        if (!Files.isDirectory(files.home())) {
            for (String k : state.keySet()) if (k.startsWith("t:") || k.startsWith("m:")) sink.deleteGroup(group(k));
            return Map.of();
        }
        Map<String, File> now = snapshot(thorough);
        Map<String, String> next = new HashMap<>();
        List<File> changed = new ArrayList<>();
        for (File t : now.values()) {
            String was = state.get(t.key());
            if (was != null && (was.startsWith(t.stat() + ":") || was.equals(t.stat()))) {
                next.put(t.key(), was);
                if (state.containsKey("T:" + t.key())) next.put("T:" + t.key(), state.get("T:" + t.key()));
            } else {
                changed.add(t);
            }
        }
        for (String k : state.keySet()) {
            if ((k.startsWith("t:") || k.startsWith("m:")) && !now.containsKey(k)) sink.deleteGroup(group(k));
        }
        // newest first: a build that is cancelled or read while it runs has the recent history
        changed.sort((a, b) -> Long.compare(b.mtime(), a.mtime()));
        int done = 0;
        List<String> unread = new ArrayList<>();
        for (File t : changed) {
            work.checkpoint("recall index");
            try {
                if (t.transcript()) syncTranscript(t, state, next, sink);
                else syncMemory(t, next, sink);
            } catch (NoSuchFileException e) {
                sink.deleteGroup(group(t.key())); // removed while syncing; the next refresh drops it
            } catch (IOException | StewardError e) {
                if (e instanceof Work.Cancelled || e instanceof RecallIndex.Busy) throw (StewardError) e;
                // one file Steward cannot read (owned by root after `sudo claude`, not UTF-8) is left out, never the
                // whole home: what it had indexed stays, and it is tried again at the next sync
                unread.add(
                        e instanceof StewardError
                                ? e.getMessage()
                                : t.file() + ": " + e.getClass().getSimpleName()
                                        + (e.getMessage() == null
                                                        || e.getMessage()
                                                                .equals(t.file().toString())
                                                ? ""
                                                : " (" + e.getMessage() + ")"));
                String was = state.get(t.key());
                if (was != null) next.put(t.key(), was);
                if (state.containsKey("T:" + t.key())) next.put("T:" + t.key(), state.get("T:" + t.key()));
            }
            if (++done % 25 == 0 || done == changed.size())
                work.progress(done, changed.size(), "indexing Claude Code sessions and memory");
        }
        problem = unread.isEmpty()
                ? null
                : unread.get(0)
                        + (unread.size() > 1 ? " (and " + (unread.size() - 1) + " more files)" : "")
                        + "; left out, the rest of the Claude Code home is searched";
        return next;
    }

    private volatile String problem;

    @Override
    public String problem() {
        return problem;
    }

    static String group(String key) {
        return "claude:" + key;
    }

    // ---- transcripts

    /** A transcript's bookkeeping: "size:mtime:end:lines:tail hash". */
    private record Mark(long size, long mtime, long end, int lines, long tail) {
        static Mark parse(String s) {
            if (s == null) return null;
            String[] p = s.split(":");
            if (p.length != 5) return null;
            try {
                return new Mark(
                        Long.parseLong(p[0]),
                        Long.parseLong(p[1]),
                        Long.parseLong(p[2]),
                        Integer.parseInt(p[3]),
                        Long.parseLong(p[4]));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        @Override
        public String toString() {
            return size + ":" + mtime + ":" + end + ":" + lines + ":" + tail;
        }
    }

    private void syncTranscript(File t, Map<String, String> state, Map<String, String> next, Sink sink)
            throws IOException {
        Mark was = Mark.parse(state.get(t.key()));
        String title = state.get("T:" + t.key());
        if (was != null && t.size() >= was.end && was.end > 0 && tailHash(t.file(), was.end) == was.tail) {
            List<TranscriptEvent> events = new ArrayList<>();
            TranscriptReader.Tail tail = TranscriptReader.readFrom(t.file(), was.end, events::add);
            tailReads++;
            if (tail.transcript().titles().isEmpty()) {
                List<RecallItem> items = items(t, events, was.lines, title);
                for (RecallItem it : items) sink.upsert(it);
                int lines = was.lines + tail.transcript().lines();
                next.put(
                        t.key(),
                        new Mark(t.size(), t.mtime(), tail.end(), lines, tailHash(t.file(), tail.end())).toString());
                if (title != null) next.put("T:" + t.key(), title);
                return;
            }
        }
        List<TranscriptEvent> events = new ArrayList<>();
        TranscriptReader.Tail all = TranscriptReader.readFrom(t.file(), 0, events::add);
        fullReads++;
        TitleEntry te = Titles.effective(all.transcript().titles());
        title = te == null ? null : te.text();
        sink.replaceGroup(group(t.key()), items(t, events, 0, title));
        next.put(
                t.key(),
                new Mark(t.size(), t.mtime(), all.end(), all.transcript().lines(), tailHash(t.file(), all.end()))
                        .toString());
        if (title != null) next.put("T:" + t.key(), title);
    }

    /** FNV of the (up to) {@link #TAIL_CHECK} bytes before {@code end}. */
    static long tailHash(Path f, long end) throws IOException {
        if (end <= 0) return 0;
        long from = Math.max(0, end - TAIL_CHECK);
        try (FileChannel ch = FileChannel.open(f)) {
            ch.position(from);
            InputStream in = Channels.newInputStream(ch);
            byte[] b = in.readNBytes((int) (end - from));
            return Identity.fnv(new String(b, StandardCharsets.ISO_8859_1));
        }
    }

    /** What an event said, cleaned; null when it is not something the user or the assistant said. */
    static String said(TranscriptEvent e) {
        if (!e.message() || e.sidechain() || e.meta() || e.compactSummary()) return null;
        String t = e.text();
        if (t.contains("<system-reminder>")) t = SYSTEM_REMINDER.matcher(t).replaceAll("");
        t = t.strip();
        if (t.isEmpty() || PLUMBING.matcher(t).matches() || t.startsWith(TranscriptReader.CONTINUATION_MARKER))
            return null;
        return t;
    }

    private record Said(TranscriptEvent event, String text) {}

    private List<RecallItem> items(File t, List<TranscriptEvent> events, int lineBase, String title) {
        List<Said> said = new ArrayList<>();
        for (TranscriptEvent e : events) {
            String s = said(e);
            if (s != null) said.add(new Said(e, s));
        }
        double fallback = t.mtime() / 1000.0;
        List<RecallItem> out = new ArrayList<>(said.size());
        for (int i = 0; i < said.size(); i++) {
            StringBuilder ctx = new StringBuilder();
            for (int j = Math.max(0, i - HermesSessions.CONTEXT_WINDOW);
                    j <= Math.min(said.size() - 1, i + HermesSessions.CONTEXT_WINDOW);
                    j++) {
                if (j != i) ctx.append(said.get(j).text).append('\n');
            }
            TranscriptEvent e = said.get(i).event;
            String eid = e.uuid() != null && !e.uuid().isBlank() && e.uuid().indexOf('/') < 0
                    ? e.uuid()
                    : "line-" + (lineBase + e.line());
            out.add(new RecallItem(
                    SESSION_URI + t.uuid() + "/event/" + eid,
                    RecallItem.CLAUDE_SESSION,
                    group(t.key()),
                    title == null ? "" : title,
                    said.get(i).text,
                    ctx.toString(),
                    Double.isNaN(e.epoch()) ? fallback : e.epoch(),
                    t.uuid(),
                    false));
        }
        return out;
    }

    // ---- memory

    private void syncMemory(File t, Map<String, String> next, Sink sink) throws IOException {
        sink.replaceGroup(group(t.key()), memoryItems(t));
        fullReads++;
        next.put(t.key(), t.stat());
    }

    /** Whether a memory key names a topic file (one item) rather than a file of entries. */
    private static boolean topic(String key) {
        String rest = key.substring(2);
        String name = rest.substring(rest.lastIndexOf('/') + 1);
        if (name.equals("MEMORY.md")) return false;
        return rest.startsWith("auto/") || rest.contains("/memory/");
    }

    private List<RecallItem> memoryItems(File t) throws IOException {
        String raw = HermesFiles.read(t.file());
        String base = MEMORY_URI + t.key().substring(2);
        String place = ClaudeFiles.place(t.key());
        String rel = t.key().substring(2 + place.length() + 1);
        double ts = t.mtime() / 1000.0;
        String key = group(t.key());
        if (topic(t.key())) {
            String name = HermesFiles.frontValue(raw, "name"), desc = HermesFiles.frontValue(raw, "description");
            Matcher m = FRONT.matcher(raw);
            String body = (m.find() ? raw.substring(m.end()) : raw).strip();
            String text = (desc == null || desc.isBlank() ? "" : desc.strip() + "\n") + body;
            if (text.isBlank()) return List.of();
            String fn = t.file().getFileName().toString();
            return List.of(new RecallItem(
                    base,
                    RecallItem.CLAUDE_MEMORY,
                    key,
                    name == null || name.isBlank() ? fn.substring(0, fn.length() - 3) : name,
                    text,
                    "",
                    ts,
                    null,
                    false));
        }
        boolean index = rel.endsWith("MEMORY.md");
        List<RecallItem> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        String title = rel + " (" + place + ")";
        for (String e : HermesFiles.logEntries(raw)) {
            if (HEADING_ONLY.matcher(e).matches()) continue;
            if (index && pointsToTopic(t.file().getParent(), e)) continue;
            int n = seen.merge(Identity.id(e), 1, Integer::sum);
            String id = n == 1 ? Identity.id(e) : Identity.id(e) + "-" + n;
            out.add(new RecallItem(base + "/" + id, RecallItem.CLAUDE_MEMORY, key, title, e, "", ts, null, false));
        }
        return out;
    }

    /** An index line that links to a topic file present in the same directory (indexed on its own). */
    private static boolean pointsToTopic(Path dir, String entry) {
        Matcher m = LINK.matcher(entry);
        return m.find() && !m.group(1).contains("/") && Files.isRegularFile(dir.resolve(m.group(1)));
    }

    // ---- URIs

    @Override
    public boolean owns(String uri) {
        return uri.startsWith(URI_PREFIX);
    }

    @Override
    public RecallItem resolve(String uri) {
        if (!Files.isDirectory(files.home())) return null;
        try {
            if (uri.startsWith(SESSION_URI)) {
                String[] p = uri.substring(SESSION_URI.length()).split("/");
                if (p.length != 3 || !p[1].equals("event"))
                    throw new StewardError("recall", "bad Claude Code session URI " + uri);
                File t = file(null, p[0]);
                if (t == null) return null;
                List<TranscriptEvent> events = new ArrayList<>();
                TranscriptReader.Tail all = TranscriptReader.readFrom(t.file(), 0, events::add);
                TitleEntry te = Titles.effective(all.transcript().titles());
                return find(items(t, events, 0, te == null ? null : te.text()), uri);
            }
            if (uri.startsWith(MEMORY_URI)) {
                String rest = uri.substring(MEMORY_URI.length());
                if (rest.indexOf('/') < 0) throw new StewardError("recall", "bad Claude Code memory URI " + uri);
                File t = file("m:" + rest, null);
                if (t == null) t = file("m:" + rest.substring(0, rest.lastIndexOf('/')), null);
                return t == null ? null : find(memoryItems(t), uri);
            }
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read " + uri + ": " + e.getMessage());
        }
        throw new StewardError("recall", "unknown source in URI " + uri);
    }

    /** A tracked file by key or by session uuid, as known now; null when there is none. */
    private File file(String key, String uuid) {
        synchronized (files) {
            if (files.files().isEmpty()) files.refresh(true, System.currentTimeMillis());
            ClaudeFiles.Tracked t = key != null ? files.files().get(key) : files.session(uuid);
            return t == null ? null : new File(t.key, t.file, t.uuid, t.size, t.mtime);
        }
    }

    private static RecallItem find(List<RecallItem> items, String uri) {
        for (RecallItem it : items) if (it.uri().equals(uri)) return it;
        return null;
    }

    /** The tracked files by key (tests, status). */
    Map<String, String> tracked() {
        synchronized (files) {
            Map<String, String> out = new TreeMap<>();
            for (ClaudeFiles.Tracked t : files.files().values()) out.put(t.key, t.file.toString());
            return out;
        }
    }

    /** Stats made by the last token or sync refresh (the bench). */
    int lastRefreshStats() {
        return files.statsLastRefresh;
    }

    /**
     * Watches the Claude home's directories (true) or stops (false): while watched, a sync with nothing changed costs a
     * look at the queue of changed paths instead of stat'ing transcripts; an overflowed queue falls back to listing and
     * stat'ing everything. Whether the home is now watched.
     */
    boolean watch(boolean on) {
        synchronized (files) {
            if (!on) {
                files.stopWatching();
                return false;
            }
            return files.startWatching();
        }
    }

    boolean watching() {
        synchronized (files) {
            return files.watching();
        }
    }

    /** Refreshes that fell back to the full stat scan after the watch queue overflowed. */
    int overflows() {
        synchronized (files) {
            return files.overflows;
        }
    }

    @Override
    public void close() {
        watch(false);
    }
}
