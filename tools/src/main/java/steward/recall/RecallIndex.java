package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;

import steward.StewardError;
import steward.json.Json;
import steward.state.AtomicFiles;
import tools.jackson.core.type.TypeReference;

/**
 * The Lucene index under {@code <state dir>/recall/index}. The writer is opened only while changes are
 * applied and closed right after the commit, so several Steward processes can read one index. The
 * commit's user data holds the source signatures it was built from, so index and signatures never disagree.
 */
final class RecallIndex implements AutoCloseable {
    static final String F_URI = "uri", F_KEY = "key", F_SOURCE = "source", F_SESSION = "session", F_TITLE = "title",
            F_BODY = "body", F_CTX = "ctx", F_TS = "ts", F_PINNED = "pinned",
            F_TERMS = "terms", F_CTERMS = "cterms", F_DECISION = "decision",
            F_SPEAKER = "speaker", F_ASKS = "asks";
    /** The stored fields ranking needs (no text): loading only these keeps a query cheap. */
    static final java.util.Set<String> LIGHT = java.util.Set.of(F_URI, F_KEY, F_SOURCE, F_SESSION, F_TS, F_PINNED, F_DECISION,
            F_SPEAKER, F_ASKS);
    /** "Name: text" — a chat line that names its speaker (gateway transcripts, imported chats). */
    private static final java.util.regex.Pattern SPEAKER = java.util.regex.Pattern.compile(
            "\\A\\s*(\\p{Lu}[\\p{L}\\p{M}'’.-]*(?: \\p{Lu}[\\p{L}\\p{M}'’.-]*){0,2}):\\s");

    private final Path dir;
    private Directory directory;
    private DirectoryReader reader;
    private IndexSearcher searcher;
    private Map<String, String> signatures = new HashMap<>();
    private String messageFingerprint = "";

    RecallIndex(Path dir) {
        this.dir = dir;
    }

    boolean exists() {
        return Files.isDirectory(dir) && hasCommit();
    }

    private boolean hasCommit() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith("segments_"));
        } catch (IOException e) {
            return false;
        }
    }

    /** Opens an existing index (reader and stored signatures); no-op when already open. */
    void openIfPresent() {
        if (reader != null || !exists()) return;
        try {
            directory = FSDirectory.open(dir);
            reader = DirectoryReader.open(directory);
            searcher = newSearcher(reader);
            termCache.clear();
            loadUserData(reader.getIndexCommit().getUserData());
        } catch (IOException e) {
            throw new StewardError("recall", "cannot open the index at " + dir + ": " + e.getMessage()
                    + " (delete the directory to rebuild it)");
        }
    }

    /** The document layout; an index written with another layout is rebuilt from scratch on the next sync. */
    static final String FORMAT = "2";
    private boolean stale;

    private void loadUserData(Map<String, String> data) {
        if (!FORMAT.equals(data.get("format"))) {
            stale = true;
            signatures = new HashMap<>();
            messageFingerprint = "";
            return;
        }
        String sig = data.get("signatures");
        signatures = sig == null ? new HashMap<>() : Json.MAPPER.readValue(sig, new TypeReference<HashMap<String, String>>() {});
        messageFingerprint = data.getOrDefault("messages", "");
    }

    /** Lucene's BM25 defaults; measured on LoCoMo dev: b 0.4 or k1 0.8 changed R@10 by under 0.005. */
    static final float K1 = 1.2f, B = 0.75f;

    private static IndexSearcher newSearcher(DirectoryReader r) {
        IndexSearcher s = new IndexSearcher(r);
        s.setSimilarity(new org.apache.lucene.search.similarities.BM25Similarity(K1, B));
        return s;
    }

    Map<String, String> signatures() {
        return signatures;
    }

    String messageFingerprint() {
        return messageFingerprint;
    }

    IndexSearcher searcher() {
        return searcher;
    }

    /** What ranking needs of a document, cached per reader so a query decompresses no stored block for it. */
    record Meta(String uri, String source, String sessionId, double ts, boolean pinned, boolean decision, String speaker, boolean asks) {}

    /** The speaker a message names at its start ("Name: …"), lower-cased; null when it names none. */
    static String speaker(String text) {
        java.util.regex.Matcher m = SPEAKER.matcher(text == null ? "" : text);
        return m.find() ? m.group(1).toLowerCase(java.util.Locale.ROOT) : null;
    }

    /** Whether a message only asks: its last sentence is a question (a question records less than a statement). */
    static boolean asks(String text) {
        String t = text == null ? "" : text.strip();
        int bracket = t.lastIndexOf(" [shared ");
        if (bracket > 0 && t.endsWith("]")) t = t.substring(0, bracket).strip();
        return t.endsWith("?") || t.endsWith("？");
    }

    private java.util.Set<String> speakers;

    /**
     * The speakers that start a real share of the session messages (at least 3 and 2 %): a chat's participants,
     * not a one-off "Remember: …" or "Plan: …" line.
     */
    static java.util.Set<String> recurringSpeakers(Map<String, Integer> counts, int messages) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (e.getValue() >= Math.max(3, 0.02 * messages)) out.add(e.getKey());
        }
        return out;
    }

    /** Every distinct speaker named in the index. */
    java.util.Set<String> speakers() {
        if (meta == null) loadMeta();
        return speakers;
    }

    private Meta[] meta;
    private Map<String, Integer> docByUri;

    /** The analysed terms of an item's own text (and title) and of its neighbouring turns, as stored at index time. */
    record Terms(java.util.Set<String> body, java.util.Set<String> context) {}

    /** Documents whose terms stay decoded: the re-ranker reads them for every candidate of every query. */
    static final int TERM_CACHE_DOCS = 4096;
    private static final java.util.Set<String> TERM_FIELDS = java.util.Set.of(F_TERMS, F_CTERMS);
    private final Map<Integer, Terms> termCache = new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Terms> eldest) {
            return size() > TERM_CACHE_DOCS;
        }
    };

    /**
     * The terms of document {@code doc} of the current reader, decoded from its stored fields once and kept in a
     * bounded LRU cache (emptied whenever the reader changes, since document numbers then change).
     */
    synchronized Terms terms(int doc) throws IOException {
        Terms t = termCache.get(doc);
        if (t == null) {
            Document d = reader.storedFields().document(doc, TERM_FIELDS);
            t = new Terms(split(d.get(F_TERMS)), split(d.get(F_CTERMS)));
            termCache.put(doc, t);
        }
        return t;
    }

    private static java.util.Set<String> split(String joined) {
        if (joined == null || joined.isEmpty()) return java.util.Set.of();
        return java.util.Set.copyOf(java.util.Arrays.asList(joined.split(" ")));
    }

    Meta meta(int doc) {
        if (meta == null) loadMeta();
        return meta[doc];
    }

    Integer docOf(String uri) {
        if (meta == null) loadMeta();
        return docByUri.get(uri);
    }

    private void loadMeta() {
        try {
            Meta[] m = new Meta[reader.maxDoc()];
            Map<String, Integer> byUri = new HashMap<>();
            Map<String, Integer> names = new HashMap<>();
            int messages = 0;
            var live = org.apache.lucene.index.MultiBits.getLiveDocs(reader);
            var sf = reader.storedFields();
            for (int i = 0; i < m.length; i++) {
                if (live != null && !live.get(i)) continue;
                Document d = sf.document(i, LIGHT);
                m[i] = new Meta(d.get(F_URI), d.get(F_SOURCE), d.get(F_SESSION), d.getField(F_TS).numericValue().doubleValue(),
                        d.getField(F_PINNED).numericValue().intValue() != 0, d.getField(F_DECISION).numericValue().intValue() != 0,
                        d.get(F_SPEAKER), d.getField(F_ASKS) != null && d.getField(F_ASKS).numericValue().intValue() != 0);
                if (m[i].speaker() != null) names.merge(m[i].speaker(), 1, Integer::sum);
                if (RecallItem.SESSION.equals(m[i].source())) messages++;
                byUri.put(m[i].uri(), i);
            }
            meta = m;
            docByUri = byUri;
            speakers = recurringSpeakers(names, messages);
        } catch (IOException e) {
            throw new StewardError("recall", "cannot read the index at " + dir + ": " + e.getMessage());
        }
    }

    DirectoryReader reader() {
        return reader;
    }

    /** Replaces the items of {@code changed} keys, deletes {@code removed} keys and commits the new signatures. */
    void apply(Map<String, List<RecallItem>> changed, Collection<String> removed, Map<String, String> newSignatures,
               String newMessageFingerprint) {
        try {
            AtomicFiles.ensurePrivateDir(dir.getParent());
            AtomicFiles.ensurePrivateDir(dir);
            if (directory == null) directory = FSDirectory.open(dir);
            IndexWriterConfig cfg = new IndexWriterConfig(RecallAnalyzer.shared());
            cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
            try (IndexWriter w = new IndexWriter(directory, cfg)) {
                if (stale) w.deleteAll();
                for (String key : removed) w.deleteDocuments(new Term(F_KEY, key));
                for (Map.Entry<String, List<RecallItem>> e : changed.entrySet()) {
                    w.deleteDocuments(new Term(F_KEY, e.getKey()));
                    for (RecallItem it : e.getValue()) w.addDocument(toDocument(it));
                }
                Map<String, String> data = new HashMap<>();
                data.put("signatures", Json.MAPPER.writeValueAsString(newSignatures));
                data.put("messages", newMessageFingerprint);
                data.put("format", FORMAT);
                w.setLiveCommitData(data.entrySet());
                w.commit();
            }
            privatise();
            DirectoryReader fresh = reader == null ? DirectoryReader.open(directory) : DirectoryReader.openIfChanged(reader);
            if (fresh != null) {
                if (reader != null) reader.close();
                reader = fresh;
                searcher = newSearcher(reader);
                meta = null;
                termCache.clear();
            }
            signatures = new HashMap<>(newSignatures);
            stale = false;
            messageFingerprint = newMessageFingerprint;
        } catch (LockObtainFailedException e) {
            throw new StewardError("recall", "the index at " + dir + " is being updated by another Steward process; try again");
        } catch (IOException e) {
            throw new StewardError("recall", "cannot update the index at " + dir + ": " + e.getMessage());
        }
    }

    /** Lucene creates files with the process umask; Steward's state is private to the user. */
    private void privatise() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> AtomicFiles.setMode(p, AtomicFiles.FILE_MODE));
        }
    }

    private static Document toDocument(RecallItem it) {
        Document d = new Document();
        d.add(new StringField(F_URI, it.uri(), Field.Store.YES));
        d.add(new StringField(F_KEY, it.key(), Field.Store.YES));
        d.add(new StringField(F_SOURCE, it.source(), Field.Store.YES));
        if (it.sessionId() != null) d.add(new StringField(F_SESSION, it.sessionId(), Field.Store.YES));
        d.add(new TextField(F_TITLE, it.title() == null ? "" : it.title(), Field.Store.YES));
        d.add(new TextField(F_BODY, it.text(), Field.Store.YES));
        d.add(new TextField(F_CTX, it.context() == null ? "" : it.context(), Field.Store.YES));
        long ts = (long) Math.floor(it.timestamp());
        d.add(new LongPoint(F_TS, ts));
        d.add(new StoredField(F_TS, it.timestamp()));
        d.add(new StoredField(F_PINNED, it.pinned() ? 1 : 0));
        java.util.Set<String> body = new java.util.LinkedHashSet<>(RecallAnalyzer.terms(it.text()));
        body.addAll(RecallAnalyzer.terms(it.title()));
        d.add(new StoredField(F_TERMS, String.join(" ", body)));
        d.add(new StoredField(F_CTERMS, String.join(" ", new java.util.LinkedHashSet<>(RecallAnalyzer.terms(it.context())))));
        d.add(new StoredField(F_DECISION, RecallEngine.recordsDecision(it.text()) ? 1 : 0));
        if (RecallItem.SESSION.equals(it.source())) {
            String who = speaker(it.text());
            if (who != null) d.add(new StringField(F_SPEAKER, who, Field.Store.YES));
            d.add(new StoredField(F_ASKS, asks(it.text()) ? 1 : 0));
        }
        return d;
    }

    static RecallItem fromDocument(Document d) {
        return new RecallItem(d.get(F_URI), d.get(F_SOURCE), d.get(F_KEY), d.get(F_TITLE), d.get(F_BODY) == null ? "" : d.get(F_BODY), d.get(F_CTX),
                d.getField(F_TS).numericValue().doubleValue(), d.get(F_SESSION), d.getField(F_PINNED).numericValue().intValue() != 0);
    }

    @Override
    public void close() {
        try {
            if (reader != null) reader.close();
            if (directory != null) directory.close();
        } catch (IOException ignored) {
            // closing
        }
        reader = null;
        meta = null;
        termCache.clear();
        directory = null;
        searcher = null;
    }
}
