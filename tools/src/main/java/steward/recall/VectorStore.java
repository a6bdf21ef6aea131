package steward.recall;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import steward.StewardError;
import steward.state.AtomicFiles;

/**
 * Stored dense vectors ({@code <state dir>/recall/vectors.bin}), one per item, with the source signatures
 * they were computed from; an item's vector is computed once and reused while its text is unchanged.
 */
final class VectorStore {
    static final String MAGIC = "steward-vectors-1";

    record Entry(String uri, String key, int textHash, String source, double ts, String sessionId, float[] vector) {}

    private final Path file;
    private final Map<String, Entry> byUri = new HashMap<>();
    private Map<String, String> signatures = new HashMap<>();
    private boolean loaded;

    VectorStore(Path recallDir) {
        this.file = recallDir.resolve("vectors.bin");
    }

    Map<String, String> signatures() {
        load();
        return signatures;
    }

    private List<Entry> cached;

    List<Entry> entries() {
        load();
        if (cached == null) cached = List.copyOf(byUri.values());
        return cached;
    }

    int size() {
        load();
        return byUri.size();
    }

    private void load() {
        if (loaded) return;
        loaded = true;
        if (!Files.isRegularFile(file)) return;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
            if (!in.readUTF().equals(MAGIC) || !in.readUTF().equals(DenseEncoder.MODEL)) return; // other format or model: recompute
            int nsig = in.readInt();
            Map<String, String> sig = new HashMap<>();
            for (int i = 0; i < nsig; i++) sig.put(in.readUTF(), in.readUTF());
            int n = in.readInt(), dim = in.readInt();
            for (int i = 0; i < n; i++) {
                String uri = in.readUTF(), key = in.readUTF();
                int h = in.readInt();
                String source = in.readUTF();
                double ts = in.readDouble();
                String session = in.readUTF();
                float[] v = new float[dim];
                for (int d = 0; d < dim; d++) v[d] = in.readFloat();
                byUri.put(uri, new Entry(uri, key, h, source, ts, session.isEmpty() ? null : session, v));
            }
            signatures = sig;
        } catch (IOException e) {
            byUri.clear();
            signatures = new HashMap<>();
        }
    }

    /**
     * Replaces the vectors of the changed keys (reusing any with unchanged text), drops removed keys, saves. At most
     * about {@code budget} new embeddings are computed (whole keys, at least one key): the keys left over keep their
     * old signature, so the next call goes on where this one stopped. Returns how many items were left for later.
     */
    int apply(Map<String, List<RecallItem>> changed, List<String> removed, Map<String, String> newSignatures, DenseEncoder enc, int budget) {
        load();
        Map<String, Entry> old = new HashMap<>(byUri);
        Map<String, String> sig = new HashMap<>(signatures);
        sig.keySet().removeAll(removed);
        // which keys fit the budget: whole keys, at least one
        Map<String, List<RecallItem>> todo = new java.util.LinkedHashMap<>();
        int embedded = 0, deferred = 0;
        for (Map.Entry<String, List<RecallItem>> key : changed.entrySet()) {
            List<RecallItem> fresh = new ArrayList<>();
            for (RecallItem it : key.getValue()) {
                Entry prev = old.get(it.uri());
                if (prev == null || prev.textHash() != it.text().hashCode()) fresh.add(it);
            }
            if (embedded > 0 && embedded + fresh.size() > budget) {
                deferred += fresh.size();
                continue;
            }
            todo.put(key.getKey(), fresh);
            embedded += fresh.size();
        }
        java.util.Set<String> gone = new java.util.HashSet<>(removed);
        gone.addAll(todo.keySet());
        byUri.values().removeIf(e -> gone.contains(e.key()));
        for (Map.Entry<String, List<RecallItem>> key : todo.entrySet()) {
            for (RecallItem it : changed.get(key.getKey())) {
                Entry prev = old.get(it.uri());
                if (prev != null && prev.textHash() == it.text().hashCode()) {
                    byUri.put(it.uri(), new Entry(it.uri(), it.key(), prev.textHash(), it.source(), it.timestamp(), it.sessionId(), prev.vector()));
                }
            }
            List<RecallItem> fresh = key.getValue();
            for (int i = 0; i < fresh.size(); i += 32) {
                List<RecallItem> batch = fresh.subList(i, Math.min(fresh.size(), i + 32));
                List<float[]> vs = enc.embedAll(batch.stream().map(RecallItem::text).toList());
                for (int j = 0; j < batch.size(); j++) {
                    RecallItem it = batch.get(j);
                    byUri.put(it.uri(), new Entry(it.uri(), it.key(), it.text().hashCode(), it.source(), it.timestamp(), it.sessionId(), vs.get(j)));
                }
            }
            sig.put(key.getKey(), newSignatures.get(key.getKey()));
        }
        signatures = sig;
        cached = null;
        save();
        return deferred;
    }

    private void save() {
        try {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bos)) {
                out.writeUTF(MAGIC);
                out.writeUTF(DenseEncoder.MODEL);
                out.writeInt(signatures.size());
                for (Map.Entry<String, String> e : signatures.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeUTF(e.getValue());
                }
                out.writeInt(byUri.size());
                out.writeInt(DenseEncoder.DIM);
                for (Entry e : byUri.values()) {
                    out.writeUTF(e.uri());
                    out.writeUTF(e.key());
                    out.writeInt(e.textHash());
                    out.writeUTF(e.source());
                    out.writeDouble(e.ts());
                    out.writeUTF(e.sessionId() == null ? "" : e.sessionId());
                    for (float f : e.vector()) out.writeFloat(f);
                }
            }
            AtomicFiles.write(file, bos.toByteArray());
        } catch (IOException e) {
            throw new StewardError("recall", "cannot write " + file + ": " + e.getMessage());
        }
    }
}
