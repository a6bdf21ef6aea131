package steward.recall;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RankerTest {
    /** The candidates only the dense side brought: the sorted difference, whatever the overlap. */
    @Test
    void withoutIsTheSortedDifference() {
        Random rnd = new Random(13);
        for (int round = 0; round < 300; round++) {
            TreeSet<Integer> all = new TreeSet<>(), some = new TreeSet<>();
            for (int i = rnd.nextInt(60); i > 0; i--) all.add(rnd.nextInt(100));
            for (int x : all) if (rnd.nextInt(3) > 0) some.add(x);
            // also elements of some that are not in all (a lexical candidate is always a candidate, but the helper
            // must not depend on it)
            if (rnd.nextBoolean()) some.add(100 + rnd.nextInt(10));
            TreeSet<Integer> want = new TreeSet<>(all);
            want.removeAll(some);
            assertArrayEquals(
                    want.stream().mapToInt(Integer::intValue).toArray(),
                    Ranker.without(
                            all.stream().mapToInt(Integer::intValue).toArray(),
                            some.stream().mapToInt(Integer::intValue).toArray()),
                    "round " + round);
        }
        assertArrayEquals(new int[] {}, Ranker.without(new int[] {}, new int[] {1, 2}));
        assertArrayEquals(new int[] {1, 2}, Ranker.without(new int[] {1, 2}, new int[] {}));
    }
}
