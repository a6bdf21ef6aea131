package steward.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import steward.claude.ClaudeHome;
import steward.claude.fixture.ClaudeHomeFixture;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.state.FileMoves;
import tools.jackson.databind.JsonNode;

/** Private copies of {@code fixtures/claude-home} (file times set from its manifest, as git keeps none) and its manifest. */
public final class ClaudeTestHomes {
    private ClaudeTestHomes() {}

    public static final Path CALLER_CWD = Path.of(ClaudeHomeFixture.CALLER_CWD);

    public static Path fixture() {
        return TestHomes.repo().resolve("fixtures/claude-home");
    }

    /** A private copy of the fixture in {@code tmp/claude-home}; {@code big} adds the 10 MB transcript. */
    public static Path install(Path tmp, boolean big) throws IOException {
        return ClaudeHomeFixture.install(fixture(), tmp.resolve("claude-home"), big);
    }

    /**
     * The memory fixture's project inside an installed home ({@code workspace/webapp}, its CLAUDE.md files), with the auto
     * memory of /home/dev/webapp moved to the directory Claude Code uses for that path.
     */
    public static Path memoryProject(Path home) throws IOException {
        Path project =
                home.resolve(ClaudeHomeFixture.MEMORY_PROJECT).toAbsolutePath().normalize();
        Path from = home.resolve("projects/-home-dev-webapp/memory");
        Path to = home.resolve("projects")
                .resolve(ClaudeHome.encodeCwd(project.toString()))
                .resolve("memory");
        if (Files.isDirectory(from)) {
            Files.createDirectories(to.getParent());
            Files.move(from, to);
        }
        return project;
    }

    public static JsonNode manifest() throws IOException {
        return Json.MAPPER.readTree(Files.readAllBytes(fixture().resolve("manifest.json")));
    }

    /** Paths with this Claude home and no Hermes home (the state dir is then {@code <claude home>/steward}). */
    public static StewardPaths claudeOnly(Path tmp, Path claudeHome) {
        return StewardPaths.claudeOnly(tmp.resolve("no-hermes"), claudeHome);
    }

    /** Every regular file below {@code root} (relative path → SHA-256), the state dir left out. */
    public static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                String rel = root.relativize(p).toString();
                if (rel.startsWith("steward/")) continue;
                out.put(rel, FileMoves.sha256(p));
            }
        }
        return out;
    }
}
