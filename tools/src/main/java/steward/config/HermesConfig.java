package steward.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * What Steward reads of Hermes' {@code config.yaml}. A missing file means Hermes' defaults; a
 * malformed file or value is reported in {@link #warnings()} and the default is used: never fatal.
 */
public record HermesConfig(int memoryCharLimit, Origin memoryCharLimitOrigin,
                           int userCharLimit, Origin userCharLimitOrigin,
                           boolean writeApproval, Origin writeApprovalOrigin,
                           boolean fileExists, List<String> warnings) {

    public static final int DEFAULT_MEMORY_CHAR_LIMIT = 2200;
    public static final int DEFAULT_USER_CHAR_LIMIT = 1375;

    public static HermesConfig defaults() {
        return new HermesConfig(DEFAULT_MEMORY_CHAR_LIMIT, Origin.DEFAULT, DEFAULT_USER_CHAR_LIMIT, Origin.DEFAULT,
                false, Origin.DEFAULT, false, List.of());
    }

    public static HermesConfig load(Path configYaml) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(configYaml);
        } catch (NoSuchFileException e) {
            return defaults();
        } catch (IOException e) {
            return withWarning("config.yaml: cannot read " + configYaml + ": " + e.getMessage());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return withWarning("config.yaml: not valid UTF-8; using defaults");
        }
        Object root;
        try {
            root = new Load(LoadSettings.builder().setAllowDuplicateKeys(true).build()).loadFromString(text);
        } catch (RuntimeException e) {
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            return withWarning("config.yaml: malformed YAML (" + msg + "); using defaults");
        }
        List<String> warnings = new ArrayList<>();
        int memLimit = DEFAULT_MEMORY_CHAR_LIMIT;
        int userLimit = DEFAULT_USER_CHAR_LIMIT;
        boolean approval = false;
        Origin memOrigin = Origin.DEFAULT, userOrigin = Origin.DEFAULT, apprOrigin = Origin.DEFAULT;
        if (root != null && !(root instanceof Map)) {
            warnings.add("config.yaml: top level is not a mapping; using defaults");
        } else if (root instanceof Map<?, ?> top && top.get("memory") != null) {
            if (!(top.get("memory") instanceof Map<?, ?> mem)) {
                warnings.add("config.yaml: 'memory' is not a mapping; using defaults");
            } else {
                Integer v = positiveInt(mem.get("memory_char_limit"), "memory.memory_char_limit", warnings);
                if (v != null) { memLimit = v; memOrigin = Origin.CONFIG_FILE; }
                v = positiveInt(mem.get("user_char_limit"), "memory.user_char_limit", warnings);
                if (v != null) { userLimit = v; userOrigin = Origin.CONFIG_FILE; }
                Object wa = mem.get("write_approval");
                if (wa instanceof Boolean b) { approval = b; apprOrigin = Origin.CONFIG_FILE; }
                else if (wa != null) warnings.add("config.yaml: memory.write_approval is not a boolean (" + wa + "); using false");
            }
        }
        return new HermesConfig(memLimit, memOrigin, userLimit, userOrigin, approval, apprOrigin, true, List.copyOf(warnings));
    }

    private static Integer positiveInt(Object v, String key, List<String> warnings) {
        if (v == null) return null;
        if (v instanceof Number n && n.longValue() > 0 && n.longValue() <= Integer.MAX_VALUE && n.doubleValue() == n.longValue()) {
            return n.intValue();
        }
        warnings.add("config.yaml: " + key + " is not a positive integer (" + v + "); using the default");
        return null;
    }

    private static HermesConfig withWarning(String w) {
        HermesConfig d = defaults();
        return new HermesConfig(d.memoryCharLimit, d.memoryCharLimitOrigin, d.userCharLimit, d.userCharLimitOrigin,
                d.writeApproval, d.writeApprovalOrigin, true, List.of(w));
    }
}
