package steward.json;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the engines (plans, preferences, histories, backups). */
public final class Json {
    private Json() {}

    public static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    /**
     * Why a file could not be read as the JSON Steward keeps in it, in plain words (no Java class or method names):
     * where it stops being JSON, or that its JSON is not of the shape Steward writes there.
     */
    public static String unreadable(Exception e) {
        if (e instanceof JacksonException j) {
            TokenStreamLocation at = j.getLocation();
            String where = at == null || at.getLineNr() < 0
                    ? ""
                    : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
            return (e instanceof StreamReadException ? "not valid JSON" : "not the JSON Steward writes there") + where;
        }
        if (e instanceof java.io.IOException && e.getMessage() != null) return e.getMessage();
        return "not the JSON Steward writes there";
    }
}
