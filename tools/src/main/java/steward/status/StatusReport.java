package steward.status;

import java.util.List;
import java.util.Map;

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
        steward.recall.RecallStatus recall) {

    public record Location(String path, String origin) {}

    public record Paths(Location hermes_home, Location state_dir, String config_yaml, boolean config_yaml_exists) {}

    public record StateDb(String path, boolean exists, Integer schema_version, String supported_schema_versions,
                          boolean readable, String error) {}

    public record Sessions(int total, int active, int ended, int archived, Map<String, Integer> by_source, long messages) {}

    public record MemoryUsage(String path, boolean exists, int chars, int limit, int percent, int entry_count,
                              String usage, String error) {}

    public record Config(int memory_char_limit, String memory_char_limit_origin, int user_char_limit,
                         String user_char_limit_origin, boolean write_approval, String write_approval_origin) {}

    /** True when something Steward needs could not be read: the tool reports the result as an error. */
    public boolean failed() {
        return !errors.isEmpty();
    }
}
