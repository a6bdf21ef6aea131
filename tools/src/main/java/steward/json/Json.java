package steward.json;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the engines (plans, preferences, histories, backups). */
public final class Json {
    private Json() {}

    public static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    /**
     * Why a stored JSON document could not be read, in plain words for an error or a warning: "empty", "cut short or
     * not valid JSON (line 3, column 7)", "a string where a number belongs at items.x.used" — never the parser's class
     * names or settings. Other exceptions give their message (or their kind when they have none).
     */
    public static String problem(Throwable e) {
        if (e instanceof UnexpectedEndOfInputException) return "cut short" + at(((JacksonException) e).getLocation());
        if (e instanceof MismatchedInputException m
                && m.getOriginalMessage() != null
                && m.getOriginalMessage().startsWith("No content to map")) return "empty";
        if (e instanceof StreamReadException s) {
            String m = String.valueOf(s.getOriginalMessage());
            return (m.contains("end-of-input") ? "cut short" : "not valid JSON") + at(s.getLocation());
        }
        if (e instanceof InputCoercionException c) return "a number out of range" + path(c);
        if (e instanceof InvalidFormatException f)
            return "'" + shorten(String.valueOf(f.getValue())) + "' where " + kind(f.getTargetType()) + " belongs"
                    + path(f);
        if (e instanceof MismatchedInputException m) {
            String msg = String.valueOf(m.getOriginalMessage());
            String found = msg.contains("`null`") || msg.contains("null value")
                    ? "null"
                    : msg.contains("START_ARRAY") || msg.contains("from Array")
                            ? "a list"
                            : msg.contains("START_OBJECT") || msg.contains("from Object")
                                    ? "an object"
                                    : msg.contains("from String")
                                            ? "a string"
                                            : msg.contains("from Number")
                                                            || msg.contains("from Integer")
                                                            || msg.contains("from Floating")
                                                    ? "a number"
                                                    : msg.contains("from Boolean") ? "true or false" : "a value";
            String want = kind(m.getTargetType());
            return (found.equals(want) ? found + " of another shape" : found + " where " + want + " belongs") + path(m);
        }
        if (e instanceof JacksonException j) {
            String m = j.getOriginalMessage();
            return "not what this Steward version reads" + path(j)
                    + (m == null ? "" : " (" + plain(m.lines().findFirst().orElse(m)) + ")");
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName().replace("Exception", "").toLowerCase(Locale.ROOT) : plain(m);
    }

    private static String at(TokenStreamLocation l) {
        if (l == null || l.getLineNr() < 1) return "";
        return " (line " + l.getLineNr() + ", column " + l.getColumnNr() + ")";
    }

    /** " at a.b[2].c", or "" at the top level. */
    private static String path(JacksonException e) {
        StringBuilder sb = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) sb.append(sb.isEmpty() ? "" : ".").append(r.getPropertyName());
            else if (r.getIndex() >= 0) sb.append('[').append(r.getIndex()).append(']');
        }
        return sb.isEmpty() ? " at the top level" : " at " + sb;
    }

    private static String kind(Class<?> t) {
        if (t == null) return "another value";
        if (t.isPrimitive() && t != boolean.class || Number.class.isAssignableFrom(t)) return "a number";
        if (t == boolean.class || t == Boolean.class) return "true or false";
        if (CharSequence.class.isAssignableFrom(t)) return "a string";
        if (t.isEnum()) return "one of " + java.util.Arrays.toString(t.getEnumConstants());
        if (t.isArray() || Collection.class.isAssignableFrom(t)) return "a list";
        if (Map.class.isAssignableFrom(t) || !t.getName().startsWith("java.")) return "an object";
        return "another value";
    }

    /** A message without back-quoted Java names. */
    private static String plain(String m) {
        return m.replaceAll("`[\\w.$\\[\\]<>, ]+`", "a value")
                .replaceAll("\\b(java|steward|tools)\\.[\\w.$]+", "a value");
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }
}
