package steward.recall;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.lucene.search.IndexSearcher;

/**
 * Benches only: random unit vectors in place of embeddings, to measure what a fully embedded history costs to search
 * without hours of embedding (a 1M-message history is ~2.8 h of one core). The costs of a search do not depend on
 * the values (every row's sign bits are compared, a fixed number rescored); rankings and quality over such vectors mean
 * nothing.
 */
public final class SyntheticVectors {
    private SyntheticVectors() {}

    /** A random unit vector of the model's dimension. */
    public static float[] unit(Random r) {
        float[] v = new float[VectorStore.DIM];
        double sum = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) r.nextGaussian();
            sum += v[i] * v[i];
        }
        float norm = (float) Math.sqrt(sum);
        for (int i = 0; i < v.length; i++) v[i] /= norm;
        return v;
    }

    /**
     * Gives every text indexed under {@code recallDir} that has no vector yet a random unit vector seeded by its text
     * hash; returns how many were stored.
     */
    public static int fill(Path recallDir) throws IOException {
        long[] keys;
        try (RecallIndex index = new RecallIndex(recallDir.resolve("index"))) {
            IndexSearcher s = index.acquire();
            if (s == null) return 0;
            try {
                List<Long> all = new ArrayList<>();
                RecallIndex.forEachTextHash(s.getIndexReader(), (doc, key, ts, source) -> all.add(key));
                keys = all.stream()
                        .mapToLong(Long::longValue)
                        .sorted()
                        .distinct()
                        .toArray();
            } finally {
                index.release(s);
            }
        }
        int stored = 0;
        try (VectorStore vectors = new VectorStore(recallDir)) {
            for (int i = 0; i < keys.length; i += 10_000) {
                long[] batch = Arrays.copyOfRange(keys, i, Math.min(keys.length, i + 10_000));
                List<float[]> vs = new ArrayList<>(batch.length);
                for (long k : batch) vs.add(unit(new Random(k)));
                stored += vectors.append(batch, vs);
            }
        }
        return stored;
    }
}
