package steward.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import steward.json.Json;
import steward.learning.PreferenceData;
import steward.recall.RecallService;
import steward.server.tools.StewardTool;
import steward.sessions.audit.PlanStore;
import steward.text.Numbers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The typed argument records agree with the schema files, and every default has one source: each record's
 * components are named exactly like its input schema's properties, and each {@code default} in
 * {@code schemas/*.input.json} is what the record holds when the argument is absent (the records take their
 * defaults from the engines' constants). Bounds and numbers that the schemas' texts quote are checked against those
 * constants too (tool descriptions are built from them).
 */
class ToolArgumentsTest {
    @Test
    void argumentRecordsNameExactlyTheSchemaProperties() {
        for (StewardTool<?> t : Tools.registry().tools()) {
            List<String> schema = new ArrayList<>();
            JsonNode props = Schemas.input(t.name()).path("properties");
            props.propertyNames().forEach(schema::add);
            List<String> record = Arrays.stream(t.argumentType().getRecordComponents())
                    .map(RecordComponent::getName)
                    .toList();
            assertEquals(
                    schema,
                    record,
                    t.name() + ": argument record " + t.argumentType().getName() + " vs schemas/" + t.name()
                            + ".input.json");
        }
    }

    @Test
    void everySchemaDefaultIsWhatTheToolUsesWhenTheArgumentIsAbsent() throws Exception {
        int defaults = 0;
        for (StewardTool<?> t : Tools.registry().tools()) {
            JsonNode in = Schemas.input(t.name());
            Object bound = Json.MAPPER.treeToValue(minimal(in), t.argumentType());
            for (var p : in.path("properties").properties()) {
                JsonNode declared = p.getValue().get("default");
                if (declared == null) continue;
                defaults++;
                RecordComponent c = Arrays.stream(t.argumentType().getRecordComponents())
                        .filter(rc -> rc.getName().equals(p.getKey()))
                        .findFirst()
                        .orElseThrow();
                Object used = c.getAccessor().invoke(bound);
                assertNotNull(
                        used,
                        t.name() + "." + p.getKey() + ": the schema says default " + declared + ", the tool has none");
                assertEquals(
                        declared,
                        Json.MAPPER.valueToTree(used),
                        t.name() + "." + p.getKey() + ": schema default vs the Java constant");
            }
        }
        assertTrue(defaults >= 9, "the schemas declare defaults: " + defaults);
    }

    @Test
    void boundsStatedInJavaMatchTheSchemas() {
        JsonNode k = Schemas.input("recall_search").get("properties").get("k");
        assertEquals(RecallService.MAX_K, k.get("maximum").asInt());
        JsonNode n = Schemas.input("session_preferences").get("properties").get("value");
        assertEquals(PreferenceData.MIN_THRESHOLD, n.get("minimum").asDouble());
        assertEquals(PreferenceData.MAX_THRESHOLD, n.get("maximum").asDouble());
    }

    @Test
    void numbersQuotedInSchemaDescriptionsAreTheConstants() {
        String apply = Tools.registry().tools().stream()
                .filter(t -> t.name().equals("session_apply"))
                .findFirst()
                .orElseThrow()
                .description();
        assertTrue(apply.contains("expired (" + (int) (PlanStore.VALIDITY_SECONDS / 3600) + " h)"), apply);
        String prefs = Tools.registry().tools().stream()
                .filter(t -> t.name().equals("session_preferences"))
                .findFirst()
                .orElseThrow()
                .description();
        String bounds = "N (" + Numbers.plain(PreferenceData.MIN_THRESHOLD) + "–"
                + Numbers.plain(PreferenceData.MAX_THRESHOLD) + ")";
        assertTrue(prefs.contains(bounds), prefs);
    }

    @Test
    void aValueOfTheWrongTypeIsAnInvalidArgumentsResultNotAnInternalError() {
        var r = Tools.registry().invoke("recall_search", Json.MAPPER.readTree("{\"query\":\"x\",\"k\":1.5}"), null);
        assertTrue(r.isError());
        assertTrue(r.text().startsWith("recall_search: invalid arguments"), r.text());
        assertFalse(r.text().contains("internal error"), r.text());
    }

    /** Only the required properties, each with some value of its type (binding does not validate). */
    static ObjectNode minimal(JsonNode schema) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        for (JsonNode r : schema.path("required")) {
            JsonNode p = schema.get("properties").get(r.asString());
            JsonNode type = p.get("type");
            String ty = type == null ? "string" : type.isArray() ? type.get(0).asString() : type.asString();
            switch (ty) {
                case "array" -> o.putArray(r.asString());
                case "object" -> o.putObject(r.asString());
                case "integer", "number" -> o.put(r.asString(), 1);
                case "boolean" -> o.put(r.asString(), false);
                default ->
                    o.put(r.asString(), p.has("enum") ? p.get("enum").get(0).asString() : "x");
            }
        }
        return o;
    }
}
