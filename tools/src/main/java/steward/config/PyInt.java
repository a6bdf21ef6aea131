package steward.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import steward.text.CodePoints;

/**
 * A config value read as Hermes reads it: PyYAML's {@code safe_load} (YAML 1.1 implicit types: {@code 0x10}, {@code 017},
 * {@code 1_000}, {@code 1:30}, {@code yes}/{@code on} are numbers or booleans, {@code 1e2} without a dot is text), then
 * Python's {@code int()} (text with surrounding spaces and underscores between digits, floats truncated, booleans 0/1;
 * null, other text, {@code .inf}/{@code .nan}, lists and mappings fail). Written from those rules, not copied.
 */
final class PyInt {
    private PyInt() {}

    /** What int() gives, or null where Python raises (then Hermes keeps its defaults). */
    static BigInteger of(Node node) {
        if (!(node instanceof ScalarNode s)) return null; // int([..]) / int({..}): TypeError
        String v = s.getValue();
        String tag = s.getTag().getValue();
        boolean plain = s.getScalarStyle() == ScalarStyle.PLAIN;
        // the document is composed with the failsafe schema: every scalar is text unless a tag says otherwise
        if (tag.endsWith(":int")) return yamlInt(v);
        if (tag.endsWith(":float")) return truncate(yamlFloat(v));
        if (tag.endsWith(":bool")) return bool(v);
        if (tag.endsWith(":null")) return null;
        if (!plain) return fromText(v);
        // a plain scalar: resolved the way YAML 1.1 (PyYAML) does
        if (BOOL.matcher(v).matches()) return bool(v);
        if (INT.matcher(v).matches()) return yamlInt(v);
        if (FLOAT.matcher(v).matches()) return truncate(yamlFloat(v));
        if (NULL.matcher(v).matches()) return null;
        return fromText(v);
    }

    private static final Pattern BOOL =
            Pattern.compile("yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
    private static final Pattern INT =
            Pattern.compile("[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                    + "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");
    private static final Pattern FLOAT =
            Pattern.compile("[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
                    + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");
    private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");

    private static BigInteger bool(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "yes", "true", "on" -> BigInteger.ONE;
            default -> BigInteger.ZERO;
        };
    }

    /** YAML 1.1 integer text (sign, 0b / 0x / leading-0 octal / base-60 with ':'); null if it is none. */
    private static BigInteger yamlInt(String raw) {
        String v = raw.replace("_", "");
        int sign = 1;
        if (v.startsWith("-") || v.startsWith("+")) {
            if (v.startsWith("-")) sign = -1;
            v = v.substring(1);
        }
        try {
            BigInteger n;
            if (v.equals("0")) n = BigInteger.ZERO;
            else if (v.startsWith("0b")) n = new BigInteger(v.substring(2), 2);
            else if (v.startsWith("0x")) n = new BigInteger(v.substring(2), 16);
            else if (v.startsWith("0")) n = new BigInteger(v.substring(1), 8);
            else if (v.contains(":")) {
                n = BigInteger.ZERO;
                for (String part : v.split(":"))
                    n = n.multiply(BigInteger.valueOf(60)).add(new BigInteger(part));
            } else n = new BigInteger(v);
            return sign < 0 ? n.negate() : n;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** YAML 1.1 float text; null for .nan, infinities as BigDecimal null with a flag: both make int() fail. */
    private static BigDecimal yamlFloat(String raw) {
        String v = raw.replace("_", "").toLowerCase(Locale.ROOT);
        int sign = 1;
        if (v.startsWith("-") || v.startsWith("+")) {
            if (v.startsWith("-")) sign = -1;
            v = v.substring(1);
        }
        if (v.equals(".inf") || v.equals(".nan")) return null; // int(inf): OverflowError, int(nan): ValueError
        try {
            BigDecimal d;
            if (v.contains(":")) {
                String[] parts = v.split(":");
                d = BigDecimal.ZERO;
                for (String p : parts)
                    d = d.multiply(BigDecimal.valueOf(60)).add(new BigDecimal(p.isEmpty() ? "0" : p));
            } else {
                d = new BigDecimal(v.startsWith(".") ? "0" + v : v.endsWith(".") ? v + "0" : v);
            }
            return sign < 0 ? d.negate() : d;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static BigInteger truncate(BigDecimal d) {
        return d == null ? null : d.toBigInteger();
    }

    /** Python's int(str): surrounding whitespace, an optional sign, decimal digits with single underscores between them. */
    static BigInteger fromText(String raw) {
        String v = CodePoints.pyStrip(raw);
        if (v.isEmpty()) return null;
        int i = 0;
        boolean negative = false;
        if (v.charAt(0) == '+' || v.charAt(0) == '-') {
            negative = v.charAt(0) == '-';
            i = 1;
        }
        if (i >= v.length()) return null;
        StringBuilder digits = new StringBuilder();
        boolean lastUnderscore = true; // no leading underscore
        for (int k = i; k < v.length(); ) {
            int cp = v.codePointAt(k);
            k += Character.charCount(cp);
            if (cp == '_') {
                if (lastUnderscore) return null;
                lastUnderscore = true;
                continue;
            }
            if (Character.getType(cp) != Character.DECIMAL_DIGIT_NUMBER) return null;
            digits.append(Character.digit(cp, 10));
            lastUnderscore = false;
        }
        if (lastUnderscore) return null; // trailing underscore
        BigInteger n = new BigInteger(digits.toString());
        return negative ? n.negate() : n;
    }

    /** The value clamped to the int range Steward stores limits in (beyond it every write fits, as in Hermes). */
    static int clamp(BigInteger n) {
        if (n.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) return Integer.MAX_VALUE;
        if (n.compareTo(BigInteger.valueOf(Integer.MIN_VALUE)) < 0) return Integer.MIN_VALUE;
        return n.intValue();
    }
}
