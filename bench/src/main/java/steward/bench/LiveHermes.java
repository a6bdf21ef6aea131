package steward.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real Hermes for benches: {@code hermes_writer.py} / {@code hermes_memory_writer.py} from {@code shared/tools}
 * (Hermes' own SessionDB and memory tool, Python 3 + PyYAML). {@link #locate} says why when it cannot be used, so a
 * bench can skip with a clear message.
 */
record LiveHermes(Path tools, Path src, String problem) {

    /** {@code dir} (an option), else {@code $STEWARD_HERMES_TOOLS}, else the first {@code shared/tools} above the working dir. */
    static LiveHermes locate(Path dir) {
        Path tools = dir;
        if (tools == null && System.getenv("STEWARD_HERMES_TOOLS") != null)
            tools = Path.of(System.getenv("STEWARD_HERMES_TOOLS"));
        for (Path b = Path.of("").toAbsolutePath(); tools == null && b != null; b = b.getParent()) {
            if (Files.isRegularFile(b.resolve("shared/tools/hermes_writer.py"))) tools = b.resolve("shared/tools");
            else if (Files.isRegularFile(b.resolve("../shared/tools/hermes_writer.py")))
                tools = b.resolve("../shared/tools").normalize();
        }
        if (tools == null || !Files.isRegularFile(tools.resolve("hermes_writer.py"))) {
            return new LiveHermes(
                    null,
                    null,
                    "the real Hermes writer (shared/tools/hermes_writer.py) was not found; pass --hermes-tools DIR");
        }
        String env = System.getenv("HERMES_SRC");
        Path src = env != null && !env.isBlank()
                ? Path.of(env)
                : tools.resolve("../hermes-src").normalize();
        if (!Files.isRegularFile(src.resolve("hermes_state.py"))) {
            return new LiveHermes(tools, src, "Hermes sources not found at " + src + " (set HERMES_SRC)");
        }
        try {
            Process p = new ProcessBuilder("python3", "-c", "import yaml, sqlite3")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
                return new LiveHermes(tools, src, "python3 cannot import yaml (PyYAML missing)");
        } catch (IOException e) {
            return new LiveHermes(tools, src, "python3 not found");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LiveHermes(tools, src, "interrupted");
        }
        return new LiveHermes(tools, src, null);
    }

    /** A Python process with Hermes on its path. */
    ProcessBuilder python(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("python3"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("HERMES_SRC", src.toString());
        return pb;
    }

    /** FTS5's integrity-check on both search tables run by Hermes' SQLite (Python's): "ok" or what failed. */
    String ftsCheck(Path db) throws IOException, InterruptedException {
        String code = "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1],timeout=30)\nbad=[]\n"
                + "for t in ('messages_fts','messages_fts_trigram'):\n"
                + "    try:\n        c.execute(f\"INSERT INTO {t}({t}) VALUES('integrity-check')\")\n"
                + "    except Exception as e:\n        bad.append(f'{t}: {e}')\n"
                + "print('ok' if not bad else '; '.join(bad))\n";
        Process p = python(List.of("-c", code, db.toString()))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(120, TimeUnit.SECONDS);
        return out;
    }
}
