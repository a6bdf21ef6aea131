package steward.schedule;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import steward.json.Json;
import steward.state.AtomicFiles;

/**
 * What scheduled runs did, for the next interactive audit: one file per run in {@code <state dir>/schedule/runs/}
 * (written once, atomically; the newest {@value #KEEP} are kept) and the time up to which an interactive audit has
 * reported them ({@code <state dir>/schedule/reported}). Unreadable files are skipped, never fatal.
 */
public final class ScheduleLog {
    static final int KEEP = 60;

    /** One scheduled run. {@code status}: ok, refused (the plan held something other than rule A) or failed. */
    public record Run(
            String run_id,
            String started_at,
            double started_at_epoch,
            String status,
            String plan_id,
            int executed,
            int skipped,
            List<String> deleted,
            int deleted_left_out,
            String backup_id,
            String error) {}

    private final Path dir;

    public ScheduleLog(Path stateDir) {
        this.dir = stateDir.resolve("schedule");
    }

    public void record(Run r) throws IOException {
        AtomicFiles.ensurePrivateDir(dir.resolve("runs"));
        AtomicFiles.write(dir.resolve("runs").resolve(r.run_id() + ".json"), Json.MAPPER.writeValueAsBytes(r));
        List<Path> files = files();
        for (int i = 0; i + KEEP < files.size(); i++) Files.deleteIfExists(files.get(i));
    }

    private List<Path> files() throws IOException {
        Path runs = dir.resolve("runs");
        if (!Files.isDirectory(runs)) return List.of();
        try (var s = Files.list(runs)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .sorted(Comparator.comparing(Path::getFileName))
                    .toList();
        }
    }

    public List<Run> all() {
        List<Run> out = new ArrayList<>();
        try {
            for (Path f : files()) {
                try {
                    out.add(Json.MAPPER.readValue(Files.readAllBytes(f), Run.class));
                } catch (IOException | RuntimeException e) {
                    // a torn or foreign file: skipped
                }
            }
        } catch (IOException e) {
            return out;
        }
        out.sort(Comparator.comparingDouble(Run::started_at_epoch));
        return out;
    }

    /** Runs that started after the last reported one. */
    public List<Run> unreported() {
        double since = reportedUpTo();
        return all().stream().filter(r -> r.started_at_epoch() > since).toList();
    }

    public double reportedUpTo() {
        try {
            return Double.parseDouble(Files.readString(dir.resolve("reported")).strip());
        } catch (IOException | NumberFormatException e) {
            return Double.NEGATIVE_INFINITY;
        }
    }

    public void markReported(double upTo) {
        try {
            AtomicFiles.ensurePrivateDir(dir);
            AtomicFiles.writeString(dir.resolve("reported"), String.valueOf(upTo));
        } catch (IOException e) {
            // reporting again next time is harmless
        }
    }
}
