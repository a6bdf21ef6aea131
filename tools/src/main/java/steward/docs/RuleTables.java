package steward.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import steward.learning.LearningEngine;
import steward.learning.LearningRule;
import steward.memory.lifecycle.rules.LifecycleRule;
import steward.memory.lifecycle.rules.LifecycleRules;
import steward.memory.precheck.Checks;
import steward.memory.precheck.PrecheckCheck;
import steward.meta.Metadata;
import steward.recall.gate.Gate;
import steward.recall.gate.Gates;
import steward.sessions.rules.Rule;
import steward.sessions.rules.Rules;

/**
 * README's rule tables, one per family, generated from the registries' metadata in registry order ({@code steward tools
 * --rules-markdown} prints them; {@code ReadmeTest} keeps README in sync). Each table sits in README between
 * {@code <!-- rules:<family>:begin -->} and {@code <!-- rules:<family>:end -->}.
 */
public final class RuleTables {
    private RuleTables() {}

    /** Family name (the README marker) → its table, in README's order. */
    public static Map<String, String> all() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("session", sessionRules());
        out.put("learning", learningRules());
        out.put("gates", recallGates());
        out.put("precheck", precheckChecks());
        out.put("lifecycle", lifecycleRules());
        return out;
    }

    public static String begin(String family) {
        return "<!-- rules:" + family + ":begin -->";
    }

    public static String end(String family) {
        return "<!-- rules:" + family + ":end -->";
    }

    /** Every table between its markers, ready to paste into README. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        all().forEach((family, table) -> sb.append(begin(family))
                .append('\n')
                .append(table)
                .append('\n')
                .append(end(family))
                .append("\n\n"));
        return sb.toString().stripTrailing();
    }

    /** Housekeeping rules in the order they are asked (the first that matches decides). */
    public static String sessionRules() {
        List<List<String>> rows = new ArrayList<>();
        for (Rule r : Rules.ORDERED) {
            Metadata.Entry e = Metadata.of(r.getClass());
            rows.add(List.of("**" + e.id() + "**", e.summary(), e.confidence(), e.rationale()));
        }
        return table(List.of("rule", "what it decides", "confidence", "why"), rows);
    }

    /** Learning rules in the order they run. */
    public static String learningRules() {
        List<List<String>> rows = new ArrayList<>();
        for (LearningRule r : LearningEngine.RULES) {
            Metadata.Entry e = Metadata.of(r.getClass());
            rows.add(List.of("`" + e.id() + "`", e.summary(), e.rationale()));
        }
        return table(List.of("learning rule", "what it learns", "why"), rows);
    }

    /** recall_inject's hard gates in the order they are applied. */
    public static String recallGates() {
        List<List<String>> rows = new ArrayList<>();
        for (Gate g : Gates.ALL) {
            Metadata.Entry e = Metadata.of(g.getClass());
            rows.add(List.of("`" + e.id() + "`", e.summary(), e.rationale()));
        }
        return table(List.of("gate", "what it drops", "why"), rows);
    }

    /** memory_precheck's checks in the order they are reported, then the verdict precedence. */
    public static String precheckChecks() {
        List<List<String>> rows = new ArrayList<>();
        for (PrecheckCheck c : Checks.ORDERED) {
            Metadata.Entry e = Metadata.of(c.getClass());
            String verdict = Checks.PRECEDENCE.get(e.id());
            rows.add(List.of(
                    "`" + e.id() + "`",
                    verdict == null ? "— (warns or asks)" : "`" + verdict + "`",
                    e.summary(),
                    e.rationale()));
        }
        List<String> order = new ArrayList<>();
        for (String v : Checks.PRECEDENCE.values()) if (!order.contains(v)) order.add(v);
        order.add("write");
        return table(List.of("check", "verdict when it fails", "what it checks", "why"), rows)
                + "\n\nVerdict precedence (the first failed check in this order decides): "
                + String.join(" > ", order.stream().map(v -> "`" + v + "`").toList());
    }

    /** Memory lifecycle rules: the level rules in the order they are tried, then the prune rules. */
    public static String lifecycleRules() {
        List<List<String>> rows = new ArrayList<>();
        for (LifecycleRule r : LifecycleRules.all()) {
            var m = r.meta();
            rows.add(List.of("**" + m.id() + "**", m.kind(), m.summary(), m.rationale()));
        }
        return table(List.of("rule", "kind", "what it does", "why"), rows);
    }

    static String table(List<String> head, List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", head)).append(" |\n");
        sb.append("|").append("---|".repeat(head.size())).append('\n');
        for (List<String> row : rows) {
            sb.append("| ")
                    .append(String.join(
                            " | ", row.stream().map(RuleTables::cell).toList()))
                    .append(" |\n");
        }
        return sb.toString().stripTrailing();
    }

    /** One table cell: pipes escaped, line breaks folded. */
    static String cell(String text) {
        return text.isEmpty() ? "—" : text.replace("|", "\\|").replaceAll("\\s*\\n\\s*", " ");
    }
}
