package steward.memory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What {@code memory_write} returns: the record in Hermes' shape (same keys, order and wording as Hermes'
 * {@code memory} tool) followed by Steward's additions ({@link #STEWARD_KEYS}), and the result kind.
 */
public record MemoryResult(String kind, boolean success, Map<String, Object> record) {
    /** Keys Steward adds after Hermes' own; everything else in {@link #record} is Hermes'. */
    public static final Set<String> STEWARD_KEYS = Set.of(
            "kind",
            "capacity",
            "warnings",
            "overflow",
            "compression",
            "expansion_recommended",
            "staged",
            "pending_id",
            "backup");

    /** Only Hermes' keys, in Hermes' order. */
    public Map<String, Object> hermes() {
        Map<String, Object> m = new LinkedHashMap<>();
        record.forEach((k, v) -> {
            if (!STEWARD_KEYS.contains(k)) m.put(k, v);
        });
        return m;
    }

    /** Exactly the JSON text Hermes would return for the Hermes part. */
    public String hermesJson() {
        return PyJson.dumps(hermes());
    }
}
