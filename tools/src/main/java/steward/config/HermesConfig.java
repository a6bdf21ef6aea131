package steward.config;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.schema.FailsafeSchema;

/**
 * What Steward reads of Hermes' {@code config.yaml}, read as Hermes reads it (PyYAML's YAML 1.1 types, then Python's
 * {@code int()}; see {@link PyInt}): a limit of 0 is 0, {@code "100"} is 100, and a value Hermes cannot read leaves its
 * defaults. A missing file means Hermes' defaults; a malformed file or value is reported in {@link #warnings()}: never fatal.
 * Write approval is the one setting read on the safe side: a file that is there but whose {@code memory.write_approval}
 * cannot be read (unreadable, not UTF-8, malformed YAML, not a mapping, not a boolean) means approval on, origin
 * {@link Origin#UNREADABLE}: the user may have turned it on, and a staged write loses nothing.
 */
public record HermesConfig(
        int memoryCharLimit,
        Origin memoryCharLimitOrigin,
        int userCharLimit,
        Origin userCharLimitOrigin,
        boolean writeApproval,
        Origin writeApprovalOrigin,
        boolean fileExists,
        List<String> warnings) {

    public static final int DEFAULT_MEMORY_CHAR_LIMIT = 2200;
    public static final int DEFAULT_USER_CHAR_LIMIT = 1375;

    public static HermesConfig defaults() {
        return new HermesConfig(
                DEFAULT_MEMORY_CHAR_LIMIT,
                Origin.DEFAULT,
                DEFAULT_USER_CHAR_LIMIT,
                Origin.DEFAULT,
                false,
                Origin.DEFAULT,
                false,
                List.of());
    }

    public static HermesConfig load(Path configYaml) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(configYaml);
        } catch (NoSuchFileException e) {
            return defaults();
        } catch (IOException e) {
            return withWarning("config.yaml: cannot read " + configYaml + ": " + e.getMessage() + "; using defaults"
                    + APPROVAL_ON);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return withWarning("config.yaml: not valid UTF-8; using defaults" + APPROVAL_ON);
        }
        Node root;
        try {
            // failsafe schema: scalars stay text, typed as PyYAML (YAML 1.1) types them by PyInt, not by YAML 1.2's
            // rules
            root = new Compose(LoadSettings.builder()
                            .setAllowDuplicateKeys(true)
                            .setSchema(new FailsafeSchema())
                            .build())
                    .composeString(text)
                    .orElse(null);
        } catch (RuntimeException e) {
            String msg = e.getMessage() == null
                    ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
            return withWarning("config.yaml: malformed YAML (" + msg + "); using defaults" + APPROVAL_ON);
        }
        List<String> warnings = new ArrayList<>();
        int memLimit = DEFAULT_MEMORY_CHAR_LIMIT;
        int userLimit = DEFAULT_USER_CHAR_LIMIT;
        boolean approval = false;
        Origin memOrigin = Origin.DEFAULT, userOrigin = Origin.DEFAULT, apprOrigin = Origin.DEFAULT;
        Node memory = root instanceof MappingNode top ? value(top, "memory") : null;
        if (root != null && !(root instanceof MappingNode)) {
            warnings.add("config.yaml: top level is not a mapping; using defaults" + APPROVAL_ON);
            approval = true;
            apprOrigin = Origin.UNREADABLE;
        } else if (memory != null && !(memory instanceof MappingNode) && !isNull(memory)) {
            warnings.add("config.yaml: 'memory' is not a mapping; using defaults" + APPROVAL_ON);
            approval = true;
            apprOrigin = Origin.UNREADABLE;
        } else if (memory instanceof MappingNode mem) {
            // Hermes: int(mem.get("memory_char_limit", 2200)), then int(mem.get("user_char_limit", 1375)); the first
            // that Python's int() refuses leaves both at their defaults (the second is never read)
            Node ml = value(mem, "memory_char_limit");
            Node ul = value(mem, "user_char_limit");
            boolean failed = false;
            if (ml != null) {
                BigInteger v = PyInt.of(ml);
                if (v == null) {
                    failed = true;
                    warnings.add("config.yaml: memory.memory_char_limit (" + show(ml)
                            + ") is not a number Hermes can read; Hermes and "
                            + "Steward use the defaults for both limits");
                } else {
                    memLimit = PyInt.clamp(v);
                    memOrigin = Origin.CONFIG_FILE;
                }
            }
            if (ul != null && !failed) {
                BigInteger v = PyInt.of(ul);
                if (v == null) {
                    warnings.add("config.yaml: memory.user_char_limit (" + show(ul)
                            + ") is not a number Hermes can read; using the default");
                } else {
                    userLimit = PyInt.clamp(v);
                    userOrigin = Origin.CONFIG_FILE;
                }
            }
            if (memOrigin == Origin.CONFIG_FILE && memLimit <= 0) {
                warnings.add("config.yaml: memory.memory_char_limit is " + memLimit
                        + ": Hermes refuses every MEMORY.md write, and so does Steward");
            }
            if (userOrigin == Origin.CONFIG_FILE && userLimit <= 0) {
                warnings.add("config.yaml: memory.user_char_limit is " + userLimit
                        + ": Hermes refuses every USER.md write, and so does Steward");
            }
            Node wa = value(mem, "write_approval");
            if (wa instanceof ScalarNode s
                    && s.getScalarStyle() == ScalarStyle.PLAIN
                    && BOOL.matcher(s.getValue()).matches()) {
                approval = TRUE.matcher(s.getValue()).matches();
                apprOrigin = Origin.CONFIG_FILE;
            } else if (wa != null && !isNull(wa)) {
                warnings.add("config.yaml: memory.write_approval is not a boolean (" + show(wa) + ")" + APPROVAL_ON);
                approval = true;
                apprOrigin = Origin.UNREADABLE;
            }
        }
        return new HermesConfig(
                memLimit, memOrigin, userLimit, userOrigin, approval, apprOrigin, true, List.copyOf(warnings));
    }

    private static final String APPROVAL_ON =
            "; memory writes are staged for approval until it is fixed (approval may have been set there)";

    private static final Pattern BOOL =
            Pattern.compile("yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
    private static final Pattern TRUE = Pattern.compile("yes|Yes|YES|true|True|TRUE|on|On|ON");

    /** The value node of {@code key} in a mapping (the last one, as PyYAML keeps the last of duplicate keys). */
    private static Node value(MappingNode m, String key) {
        Node found = null;
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) found = t.getValueNode();
        }
        return found;
    }

    private static boolean isNull(Node n) {
        return n instanceof ScalarNode s
                && s.getScalarStyle() == ScalarStyle.PLAIN
                && (s.getValue().isEmpty()
                        || s.getValue().equals("~")
                        || s.getValue().equalsIgnoreCase("null"));
    }

    private static String show(Node n) {
        if (n instanceof ScalarNode s) {
            String v = s.getValue();
            return v.length() > 40 ? v.substring(0, 40) + "…" : v;
        }
        return n instanceof MappingNode ? "a mapping" : "a list";
    }

    private static HermesConfig withWarning(String w) {
        HermesConfig d = defaults();
        return new HermesConfig(
                d.memoryCharLimit,
                d.memoryCharLimitOrigin,
                d.userCharLimit,
                d.userCharLimitOrigin,
                true,
                Origin.UNREADABLE,
                true,
                List.of(w));
    }
}
