package steward.recall;

import java.util.Map;

/**
 * What a sync of the recall index did. {@code built}: a first (or format) build; {@code written}/{@code deleted}: items
 * and groups written and removed; {@code busy}: another process held the index, the search used what is there;
 * {@code errors}: sources that could not be read, by id.
 */
public record SyncReport(boolean checked, boolean built, int written, int deleted, long millis, boolean busy, Map<String, String> errors) {
    static SyncReport unchanged(long millis, Map<String, String> errors) {
        return new SyncReport(true, false, 0, 0, millis, false, errors);
    }

    public boolean changed() {
        return written > 0 || deleted > 0;
    }
}
