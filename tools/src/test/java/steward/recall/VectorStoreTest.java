package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compact vectors: int8 rows and sign bits, appended under a lock, valid up to the header, compacted. */
class VectorStoreTest {
    @TempDir
    Path tmp;

    /** {@code n} random unit vectors. */
    static List<float[]> random(Random r, int n) {
        List<float[]> vs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) vs.add(random(r));
        return vs;
    }

    static float[] random(Random r) {
        float[] v = new float[DenseModel.DIM];
        for (int i = 0; i < v.length; i++) v[i] = (float) r.nextGaussian();
        return DenseModel.normalise(v);
    }

    @Test
    void int8RowsKeepTheCosineAndAReaderSeesRowsAnotherWriterAppended() {
        Random r = new Random(1);
        List<float[]> vs = new ArrayList<>();
        long[] keys = new long[50];
        for (int i = 0; i < 50; i++) {
            vs.add(random(r));
            keys[i] = 1000 + i;
        }
        try (VectorStore w = new VectorStore(tmp);
                VectorStore reader = new VectorStore(tmp)) {
            assertEquals(0, reader.size());
            assertEquals(50, w.append(keys, vs));
            assertEquals(0, w.append(keys, vs), "stored once");
            assertEquals(50, reader.size(), "another store over the same files sees the rows");
            List<VectorStore.Scored> near = reader.nearest(vs.get(7), 3);
            assertEquals(1007, near.get(0).key());
            assertEquals(1.0, near.get(0).cosine(), 0.01);
            float[] back = reader.vector(1007);
            double dot = 0;
            for (int d = 0; d < back.length; d++) dot += back[d] * vs.get(7)[d];
            assertEquals(1.0, dot, 0.01);
            assertNull(reader.vector(5));
        }
    }

    @Test
    void aQueryRoundedTo16BitsScoresRowsAsTheFloatQueryDoes() {
        Random r = new Random(11);
        for (int round = 0; round < 300; round++) {
            float[] q = random(r);
            ByteBuffer b = ByteBuffer.allocate(VectorStore.ROW);
            VectorStore.quantise(random(r), b);
            byte[] row = b.array();
            double rowScale = b.getFloat(VectorStore.DIM), exact = 0;
            for (int d = 0; d < VectorStore.DIM; d++) exact += (double) q[d] * row[d] * rowScale;
            VectorStore.QueryVector qv = VectorStore.QueryVector.of(q);
            long plain = 0;
            for (int d = 0; d < VectorStore.DIM; d++) plain += qv.v()[d] * row[d];
            assertEquals(plain, VectorStore.dot(qv.v(), row), "four partial sums add up to the plain sum");
            assertEquals(exact, VectorStore.dot(qv.v(), row) * qv.scale() * rowScale, 1e-4);
        }
        // the largest sum there can be (every component at full scale, same signs) stays inside an int
        float[] flat = new float[VectorStore.DIM];
        java.util.Arrays.fill(flat, (float) (1 / Math.sqrt(VectorStore.DIM)));
        try (VectorStore s = new VectorStore(tmp)) {
            s.append(new long[] {42}, List.of(flat));
            assertEquals(1.0, s.nearest(flat, 1).get(0).cosine(), 1e-4);
            for (int d = 0; d < flat.length; d++) flat[d] = -flat[d];
            assertEquals(-1.0, s.nearest(flat, 1).get(0).cosine(), 1e-4);
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(120) // a scan that waited for a busy helper would hang here
    void aScanInPartsCoversEveryPositionOnceAndABusyHelperDelaysNothing() throws Exception {
        for (int n : new int[] {0, 1, VectorStore.PARALLEL_ROWS - 1, VectorStore.PARALLEL_ROWS, 10_001, 100_000}) {
            int[] seen = new int[n];
            java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
            VectorStore.inParts(n, (from, to) -> {
                threads.add(Thread.currentThread().getName());
                for (int i = from; i < to; i++) seen[i]++;
            });
            for (int i = 0; i < n; i++) assertEquals(1, seen[i], "position " + i + " of " + n);
            if (n < VectorStore.PARALLEL_ROWS)
                assertEquals(
                        java.util.Set.of(Thread.currentThread().getName()), threads, "small scans stay on the caller");
        }
        // the helper held by another scan: a second scan finishes on its caller alone
        java.util.concurrent.CountDownLatch helperIn = new java.util.concurrent.CountDownLatch(1),
                release = new java.util.concurrent.CountDownLatch(1);
        Thread first = new Thread(() -> VectorStore.inParts(VectorStore.PARALLEL_ROWS * 4, (from, to) -> {
            try {
                if (Thread.currentThread().getName().equals("steward-vector-scan")) {
                    helperIn.countDown();
                    release.await();
                } else {
                    helperIn.await(30, java.util.concurrent.TimeUnit.SECONDS); // leave the helper a piece to take
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        first.start();
        assertTrue(helperIn.await(30, java.util.concurrent.TimeUnit.SECONDS), "the helper took a piece");
        int[] sum = new int[1];
        VectorStore.inParts(50_000, (from, to) -> {
            synchronized (sum) {
                sum[0] += to - from;
            }
        });
        assertEquals(50_000, sum[0], "done without the helper");
        release.countDown();
        first.join(30_000);
        assertTrue(!first.isAlive(), "the first scan waited for the helper's piece and returned");
        // a failing piece fails the scan
        RuntimeException boom = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class,
                () -> VectorStore.inParts(20_000, (from, to) -> {
                    if (from == 0) throw new IllegalStateException("piece 0");
                }));
        assertEquals("piece 0", boom.getMessage());
    }

    @Test
    void rowsBeyondTheHeaderAreIgnoredAndOverwritten() throws Exception {
        Random r = new Random(2);
        try (VectorStore w = new VectorStore(tmp)) {
            w.append(new long[] {1, 2}, List.of(random(r), random(r)));
        }
        // a crash after writing a batch's rows but before its header: garbage past the valid rows
        try (FileChannel ch =
                FileChannel.open(tmp.resolve("vectors/g1.i8"), StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(new byte[VectorStore.ROW * 3]));
        }
        try (VectorStore s = new VectorStore(tmp)) {
            assertEquals(2, s.size());
            s.append(new long[] {3}, List.of(random(r)));
            assertEquals(3, s.size());
            assertEquals(3L * VectorStore.ROW, Files.size(tmp.resolve("vectors/g1.i8")));
        }
    }

    @Test
    void manyRowsAreSearchedThroughTheirSignBitsAndCompactionKeepsTheLiveOnes() {
        int n = VectorStore.EXACT_ROWS + 2000;
        long[] keys = java.util.stream.LongStream.range(0, n).toArray();
        List<float[]> vs = random(new Random(3), n);
        try (VectorStore s = new VectorStore(tmp)) {
            s.append(keys, vs);
            for (int probe : new int[] {0, 12345, n - 1})
                assertEquals(probe, s.nearest(vs.get(probe), 5).get(0).key(), "row " + probe);
            int dropped = s.compact(k -> k % 2 == 0);
            assertEquals(n / 2, dropped);
            assertEquals(n / 2, s.size());
            assertTrue(s.contains(12344) && !s.contains(12345));
            assertEquals(12344, s.nearest(vs.get(12344), 1).get(0).key());
            assertTrue(Files.notExists(tmp.resolve("vectors/g1.i8")), "the old generation is removed");
        }
    }

    @Test
    void aOneShotStoreReadsTheSameAnswersAndFollowsAnotherProcesssCompaction() {
        Random r = new Random(5);
        int n = VectorStore.EXACT_ROWS + 3000;
        long[] keys =
                java.util.stream.LongStream.range(7_000_000L, 7_000_000L + n).toArray();
        List<float[]> vs = random(r, n);
        try (VectorStore mapped = new VectorStore(tmp);
                VectorStore oneShot = new VectorStore(tmp, true)) {
            mapped.append(java.util.Arrays.copyOf(keys, 5000), vs.subList(0, 5000));
            float[] q = random(r);
            // below EXACT_ROWS every row is scored (read in runs), above it through the sign bits (read in blocks)
            assertEquals(mapped.nearest(q, 40), oneShot.nearest(q, 40), "5,000 rows");
            mapped.append(keys, vs);
            for (int probe : new int[] {0, 4999, 5000, 17_777, n - 1}) {
                List<VectorStore.Scored> want = mapped.nearest(vs.get(probe), 60),
                        got = oneShot.nearest(vs.get(probe), 60);
                assertEquals(want, got, "row " + probe);
                assertEquals(keys[probe], got.get(0).key());
            }
            assertEquals(mapped.nearest(q, 100, true), oneShot.nearest(q, 100, true), "every row scored");
            List<Long> some = List.of(keys[3], keys[20_500], keys[n - 1], 42L);
            assertEquals(mapped.cosines(q, some), oneShot.cosines(q, some));
            assertEquals(3, oneShot.cosines(q, some).size(), "a key not stored has no cosine");
            // another process compacts: the one-shot store's generation is gone when it reads next
            assertEquals(n / 2, mapped.compact(k -> k % 2 == 1));
            assertTrue(Files.notExists(tmp.resolve("vectors/g1.bits")));
            List<VectorStore.Scored> after = oneShot.nearest(vs.get(17_777), 5);
            assertEquals(keys[17_777], after.get(0).key(), "read from the new generation");
            assertEquals(mapped.nearest(vs.get(17_777), 5), after);
            assertEquals(Map.of(), oneShot.cosines(q, List.of(keys[4])), "a compacted-away key");
        }
    }

    @Test
    void theBestRowsAreWhatAStableSortOfEveryScorePutsFirst() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            double[] score = new double[1 + r.nextInt(300)];
            // few distinct values: many ties, which a stable sort keeps in position order
            for (int i = 0; i < score.length; i++) score[i] = r.nextInt(1 + r.nextInt(20)) / 7.0;
            int n = r.nextInt(score.length + 5);
            Integer[] all = new Integer[score.length];
            for (int i = 0; i < all.length; i++) all[i] = i;
            java.util.Arrays.sort(all, (a, b) -> Double.compare(score[b], score[a]));
            List<Integer> want = new ArrayList<>(List.of(all).subList(0, Math.min(n, all.length)));
            List<Integer> got = new ArrayList<>();
            for (int i : VectorStore.best(score, n)) got.add(i);
            assertEquals(want, got, "round " + round);
        }
    }
}
