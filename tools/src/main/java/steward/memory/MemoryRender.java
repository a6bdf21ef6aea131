package steward.memory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import steward.config.HermesConfig;
import steward.config.StewardPaths;
import steward.text.CodePoints;

/**
 * MEMORY.md / USER.md as the agent sees them in Hermes' system prompt: a header with usage between two rules
 * of 46 '═', then the entries joined with {@code "\n§\n"}. As Hermes does at snapshot time, a repeated entry is
 * shown once and an entry its threat scan flags is replaced by Hermes' {@code [BLOCKED: …]} placeholder. An empty store has no block in
 * Hermes; the resource then says so in one line.
 */
public final class MemoryRender {
    private MemoryRender() {}

    static final String RULE = "═".repeat(46);

    public static String systemPromptBlock(MemoryTarget t, List<String> entries, int limit) {
        if (entries.isEmpty()) return "";
        List<String> shown = new ArrayList<>();
        // Hermes drops repeated entries at load (the first is kept), then replaces each one its threat scan flags
        for (String e : new LinkedHashSet<>(entries)) shown.add(ThreatScan.asInSnapshot(e, t.fileName));
        String content = String.join(MemoryDocument.DELIMITER, shown);
        int current = CodePoints.length(content);
        String title = t == MemoryTarget.USER ? "USER PROFILE (who the user is)" : "MEMORY (your personal notes)";
        return RULE + "\n" + title + " [" + MemoryRules.usage(current, limit) + "]\n" + RULE + "\n" + content;
    }

    /** The resource text for one store of a Hermes home. */
    public static String resource(StewardPaths paths, MemoryTarget t) {
        int limit = t.limit(HermesConfig.load(paths.configYaml()));
        MemoryDocument doc = MemoryWriter.load(t.file(paths)).doc();
        String block = systemPromptBlock(t, doc.entries(), limit);
        return block.isEmpty()
                ? "(" + t.fileName + " is empty: Hermes injects no block for it) [" + MemoryRules.usage(0, limit) + "]"
                : block;
    }
}
