package steward.status;

import java.util.List;
import java.util.Map;
import steward.recall.RecallStatus;
import steward.sessions.store.DiskUsage;

/** What Steward sees of a Hermes home. Field names are the snake_case keys of the tool's output schema. */
public record StatusReport(
        Paths paths,
        boolean hermes_home_exists,
        StateDb state_db,
        Sessions sessions,
        Map<String, MemoryUsage> memory,
        Config config,
        int skills,
        List<String> warnings,
        List<String> errors,
        RecallStatus recall,
        Claude claude,
        DiskUsage disk) {

    /**
     * The Claude Code home: where it is and where that came from, its sessions (live ones appended to within
     * {@code idle_hours}), the busiest projects, index files and what could not be read, and Claude Code's own
     * {@code cleanupPeriodDays} (it deletes older transcripts at startup).
     */
    public record Claude(
            Location home,
            boolean exists,
            String projects_dir,
            int projects,
            int sessions,
            int live,
            int ended,
            int subagents,
            double idle_hours,
            List<ClaudeProject> by_project,
            int projects_left_out,
            int index_files,
            List<String> unparseable_index_files,
            int malformed_lines,
            int orphan_dirs,
            int cleanup_period_days,
            String cleanup_period_days_origin,
            ClaudeMemory memory) {}

    /**
     * Claude Code's memory files against what it loads: CLAUDE.md files whole, MEMORY.md only its first {@code index_window}
     * lines ({@code project}: the working directory whose CLAUDE.md files are listed).
     */
    public record ClaudeMemory(
            String project,
            String memory_dir_origin,
            int index_window,
            int indexes,
            int topics,
            int personal_topics,
            List<ClaudeMemoryFile> files,
            int files_left_out) {}

    /** One memory file: kind claude_md (loaded whole) or auto_memory_index (first index_window lines loaded). */
    public record ClaudeMemoryFile(
            String file,
            String kind,
            String scope,
            int lines,
            long bytes,
            int loaded_lines,
            int lines_not_loaded,
            Integer topics) {}

    /** A project: its directory name, working directory (from its transcripts), sessions, live ones, subagent transcripts. */
    public record ClaudeProject(String project, String cwd, int sessions, int live, int subagents) {}

    public record Location(String path, String origin) {}

    public record Paths(
            Location hermes_home,
            Location state_dir,
            String config_yaml,
            boolean config_yaml_exists,
            Location claude_home) {
        public Paths(Location hermes_home, Location state_dir, String config_yaml, boolean config_yaml_exists) {
            this(hermes_home, state_dir, config_yaml, config_yaml_exists, null);
        }
    }

    public record StateDb(
            String path,
            boolean exists,
            Integer schema_version,
            String supported_schema_versions,
            boolean readable,
            String error) {}

    public record Sessions(
            int total, int active, int ended, int archived, Map<String, Integer> by_source, long messages) {}

    public record MemoryUsage(
            String path,
            boolean exists,
            int chars,
            int limit,
            int percent,
            int entry_count,
            String usage,
            String error) {}

    public record Config(
            int memory_char_limit,
            String memory_char_limit_origin,
            int user_char_limit,
            String user_char_limit_origin,
            boolean write_approval,
            String write_approval_origin) {}

    /** True when something Steward needs could not be read: the tool reports the result as an error. */
    public boolean failed() {
        return !errors.isEmpty();
    }
}
