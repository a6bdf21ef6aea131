package steward.sessions.inspect;

import java.util.List;
import java.util.Map;

/**
 * The structured result of {@code session_inspect} (field names are the wire names). Every list is bounded and says
 * how many entries it left out; a figure the store does not record is null.
 */
public record InspectResult(String store, List<Report> sessions, List<String> not_found) {

    public record Report(
            String session_id,
            String title,
            String source,
            String status,
            String end_reason,
            String model,
            String cwd,
            String git_branch,
            String git_repo_root,
            Timeline timeline,
            Messages messages,
            Tools tools,
            Subagents subagents,
            UsageOut usage,
            Files files,
            Commands commands,
            Lineage lineage) {}

    public record Timeline(
            String started_at,
            Double started_at_epoch,
            String first_activity,
            Double first_activity_epoch,
            String last_activity,
            Double last_activity_epoch,
            String ended_at,
            Double ended_at_epoch,
            double span_seconds,
            double active_seconds,
            double gap_threshold_seconds,
            int gap_count,
            List<Gap> gaps,
            int phase_count,
            List<Phase> phases,
            int phases_left_out) {}

    public record Gap(String from, String to, double seconds) {}

    public record Phase(
            int index,
            String start,
            String end,
            String started_by,
            int messages,
            int user_turns,
            int tool_calls,
            List<String> keywords,
            String first_prompt) {}

    public record Messages(
            int total,
            Map<String, Integer> by_role,
            Integer stored_count,
            int live,
            int compacted,
            int rewound,
            Long recorded_tokens,
            Integer malformed_lines) {}

    public record Tools(int calls, int failures, int distinct, List<ToolStat> by_tool, int left_out) {}

    public record ToolStat(String name, int calls, int failures, Double recorded_seconds, Double elapsed_seconds) {}

    public record Subagents(int count, List<Subagent> items, int left_out) {}

    public record Subagent(
            String session_id,
            String goal,
            String status,
            String outcome,
            int messages,
            int tool_calls,
            int tool_failures,
            Long tokens,
            Double estimated_cost_usd,
            Double duration_seconds,
            String duration_source) {}

    public record UsageOut(
            boolean recorded,
            Long input_tokens,
            Long output_tokens,
            Long cache_read_tokens,
            Long cache_write_tokens,
            Long reasoning_tokens,
            Long api_calls,
            Double estimated_cost_usd,
            Double actual_cost_usd,
            String cost_status,
            List<ModelOut> by_model,
            WithSubagents with_subagents) {}

    public record ModelOut(
            String model,
            String provider,
            long api_calls,
            long input_tokens,
            long output_tokens,
            double estimated_cost_usd) {}

    public record WithSubagents(int subagents, Long tokens, Double estimated_cost_usd) {}

    public record Files(int distinct, List<FileOut> items, int left_out) {}

    public record FileOut(String path, int touches, int reads, int writes) {}

    public record Commands(int distinct, List<CommandOut> items, int left_out) {}

    public record CommandOut(String command, int runs, int failures) {}

    public record Lineage(
            Link parent,
            List<Link> continuations,
            List<Link> branches,
            List<String> chain,
            int compacted_messages,
            String compressed_into,
            int subagents) {}

    public record Link(String session_id, String title, String relation, String status) {}
}
