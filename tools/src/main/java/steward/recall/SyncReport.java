package steward.recall;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a sync of the recall index did. {@code built}: a first (or format) build; {@code written}/{@code deleted}: items
 * and groups written and removed; {@code busy}: another process held the index, the search used what is there;
 * {@code errors}: sources that could not be read, by id; {@code building}: "index building: n of m …" while a sync runs
 * that this call did not wait for (null otherwise); {@code stale}: sources changed since the index was last updated and
 * the background indexer has not written them yet (this call searched the index as it was); {@code locked}: the sources
 * of {@code errors} another process held locked (what is indexed of them was searched, and may be stale).
 */
public record SyncReport(
        boolean checked,
        boolean built,
        int written,
        int deleted,
        long millis,
        boolean busy,
        Map<String, String> errors,
        String building,
        boolean stale,
        Set<String> locked) {
    public SyncReport(
            boolean checked,
            boolean built,
            int written,
            int deleted,
            long millis,
            boolean busy,
            Map<String, String> errors) {
        this(checked, built, written, deleted, millis, busy, errors, null, false, Set.of());
    }

    static SyncReport unchanged(long millis, Map<String, String> errors) {
        return new SyncReport(true, false, 0, 0, millis, false, errors);
    }

    public boolean changed() {
        return written > 0 || deleted > 0;
    }

    /**
     * What a result of this sync says of it: each source not searched and why, each source locked by another process
     * (searched as last read), and an index another process held.
     */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : errors.entrySet()) {
            out.add(
                    locked.contains(e.getKey())
                            ? e.getKey() + " may be stale: " + e.getValue()
                                    + "; its items are from the index as Steward last read it"
                            : e.getKey() + " not searched: " + e.getValue());
        }
        if (busy) out.add("another Steward process is updating the index; results are from the index as it was");
        return out;
    }
}
