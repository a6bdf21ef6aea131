package steward.server;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import steward.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * The contract: {@code schemas/<tool>.input.json} and {@code schemas/<tool>.output.json}, packaged
 * on the classpath from the repository's {@code schemas/} folder. Nothing here retypes a schema.
 */
public final class Schemas {
    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final ConcurrentHashMap<String, JsonNode> RAW = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, Schema> COMPILED = new ConcurrentHashMap<>();

    private Schemas() {}

    public static JsonNode input(String tool) {
        return load(tool + ".input.json");
    }

    public static JsonNode output(String tool) {
        return load(tool + ".output.json");
    }

    static JsonNode load(String file) {
        return RAW.computeIfAbsent(file, f -> {
            try (InputStream in = Schemas.class.getResourceAsStream("/schemas/" + f)) {
                if (in == null) throw new IllegalStateException("schema missing from the classpath: schemas/" + f);
                return Json.MAPPER.readTree(in);
            } catch (IOException e) {
                throw new IllegalStateException("schema unreadable: schemas/" + f, e);
            }
        });
    }

    /** Validation messages for {@code value} against the named schema file; empty when valid. */
    public static List<String> validate(String file, JsonNode value) {
        Schema schema = COMPILED.computeIfAbsent(file, f -> REGISTRY.getSchema(load(f)));
        String range = outOfRange(value, "");
        if (range != null) return List.of(range);
        List<Error> errors;
        try {
            errors = schema.validate(value);
        } catch (RuntimeException e) {
            // the validator itself gave up on a value (its message names its own classes): said in plain words
            return List.of(
                    "a value could not be checked against the schema (a number out of range or a malformed value)");
        }
        return errors.stream().map(Error::toString).toList();
    }

    /** The first number that no integer or double field can take (beyond 64-bit integers, or not finite), or null. */
    static String outOfRange(JsonNode n, String path) {
        if (n == null) return null;
        if (n.isNumber()) {
            if (n.isIntegralNumber()
                    ? !n.canConvertToLong()
                    : (!Double.isFinite(n.asDouble()) || Math.abs(n.asDouble()) >= 0x1p63)) {
                return (path.isEmpty() ? "$" : path) + ": number " + n + " is out of range";
            }
            return null;
        }
        if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                String r = outOfRange(n.get(i), path + "[" + i + "]");
                if (r != null) return r;
            }
        } else if (n.isObject()) {
            for (var e : n.properties()) {
                String r = outOfRange(e.getValue(), path + "." + e.getKey());
                if (r != null) return r;
            }
        }
        return null;
    }
}
