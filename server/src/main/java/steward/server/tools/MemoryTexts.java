package steward.server.tools;

import java.util.List;
import java.util.Map;
import steward.memory.MemoryResult;
import steward.memory.OverflowAdvisor;

/** The readable text of a memory write, shared by {@code memory_write} and {@code memory_pending} (approve). */
final class MemoryTexts {
    private MemoryTexts() {}

    /** Hermes' JSON exactly as Hermes would return it, then Steward's advice in plain lines. */
    static String render(MemoryResult r) {
        StringBuilder sb = new StringBuilder(r.hermesJson());
        Map<String, Object> m = r.record();
        if (m.get("warnings") instanceof List<?> w)
            for (Object x : w) sb.append("\nwarning: ").append(x);
        if (m.get("overflow") != null) {
            var g = (OverflowAdvisor.Guidance) m.get("overflow");
            sb.append("\nnext: ").append(g.advice());
            for (var c : g.redundant_candidates()) {
                sb.append("\n  merge? entries ")
                        .append(c.entries())
                        .append(" (similarity ")
                        .append(c.similarity())
                        .append(")");
            }
            if (g.expansion() != null)
                sb.append("\n  expansion: ")
                        .append(String.join(" then ", g.expansion().commands()))
                        .append(" (+")
                        .append(g.expansion().extra_tokens_per_50_turns())
                        .append(" tokens per 50 turns)");
        }
        if (m.get("compression") != null) {
            var c = (OverflowAdvisor.CompressionReport) m.get("compression");
            sb.append("\ncompression: ")
                    .append(c.before())
                    .append(" → ")
                    .append(c.after())
                    .append(" chars (gain ")
                    .append(c.gain_percent())
                    .append(" %, ")
                    .append(c.assessment())
                    .append("). ")
                    .append(c.advice());
            if (c.expansion() != null)
                sb.append("\n  expansion: ")
                        .append(String.join(" then ", c.expansion().commands()));
        }
        if (m.get("backup") != null) sb.append("\nbackup: ").append(m.get("backup"));
        return sb.toString();
    }
}
