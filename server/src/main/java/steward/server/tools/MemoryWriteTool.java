package steward.server.tools;

import java.util.List;
import java.util.Map;

import steward.memory.MemoryRequest;
import steward.memory.MemoryResult;
import steward.memory.MemoryWriter;
import tools.jackson.databind.JsonNode;

/** {@code memory_write}: Hermes' memory tool, checked, locked, atomic and backed up. */
public final class MemoryWriteTool implements StewardTool {
    @Override
    public String name() {
        return "memory_write";
    }

    @Override
    public String title() {
        return "Write long-term memory (MEMORY.md / USER.md)";
    }

    @Override
    public String description() {
        return "Adds, replaces or removes entries of the agent's long-term memory exactly like Hermes' own memory tool "
                + "(target 'memory' = MEMORY.md, your notes; 'user' = USER.md, who the user is). replace/remove find the entry by a "
                + "short unique substring (old_text); replace's content is the COMPLETE new entry. Use 'operations' to remove and add "
                + "in ONE atomic call: the limit is checked on the final state only. Results have Hermes' keys (success, usage, "
                + "entry_count, message; on failure error, current_entries, matches) plus Steward's: capacity, near-limit warnings, "
                + "and on overflow what to do next (compress first: redundant candidates; expansion only after repeated high-usage "
                + "compressions, with the command and token tax). Refuses: prompt-injection or secret-exfiltration content, "
                + "ambiguous or unmatched old_text, writes over the limit, a file edited outside the tool (drift: a .bak snapshot is "
                + "saved, fix the file first), and removing the only entry of a single-entry USER.md without confirm_whole_file. "
                + "With write approval on, the write is staged (pending_id) for the user to approve via memory_pending. "
                + "Call memory_precheck first when unsure whether something belongs in memory.";
    }

    @Override
    public ToolHints hints() {
        return new ToolHints(false, true, false, false);
    }

    @Override
    public ToolResult call(JsonNode arguments, ToolContext ctx) {
        MemoryResult r = new MemoryWriter(ctx.paths(), ctx.clock()).write(MemoryRequest.fromJson(arguments));
        String text = render(r);
        if (r.success()) return ToolResult.ok(r.record(), text);
        return ToolResult.error(r.record(), "memory_write: " + r.record().get("error") + "\n\n" + text);
    }

    /** Hermes' JSON exactly as Hermes would return it, then Steward's advice in plain lines. */
    static String render(MemoryResult r) {
        StringBuilder sb = new StringBuilder(r.hermesJson());
        Map<String, Object> m = r.record();
        if (m.get("warnings") instanceof List<?> w) for (Object x : w) sb.append("\nwarning: ").append(x);
        if (m.get("overflow") != null) {
            var g = (steward.memory.OverflowAdvisor.Guidance) m.get("overflow");
            sb.append("\nnext: ").append(g.advice());
            for (var c : g.redundant_candidates()) {
                sb.append("\n  merge? entries ").append(c.entries()).append(" (similarity ").append(c.similarity()).append(")");
            }
            if (g.expansion() != null) sb.append("\n  expansion: ").append(String.join(" then ", g.expansion().commands()))
                    .append(" (+").append(g.expansion().extra_tokens_per_50_turns()).append(" tokens per 50 turns)");
        }
        if (m.get("compression") != null) {
            var c = (steward.memory.OverflowAdvisor.CompressionReport) m.get("compression");
            sb.append("\ncompression: ").append(c.before()).append(" → ").append(c.after()).append(" chars (gain ").append(c.gain_percent())
                    .append(" %, ").append(c.assessment()).append("). ").append(c.advice());
            if (c.expansion() != null) sb.append("\n  expansion: ").append(String.join(" then ", c.expansion().commands()));
        }
        if (m.get("backup") != null) sb.append("\nbackup: ").append(m.get("backup"));
        return sb.toString();
    }
}
