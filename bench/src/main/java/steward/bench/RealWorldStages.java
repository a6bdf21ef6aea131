package steward.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import steward.Work;
import steward.cli.Printer;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.server.ToolRegistry;
import steward.server.tools.ToolContext;
import steward.server.tools.ToolResult;
import steward.sessions.store.DiskUsage;
import steward.state.FileTrees;
import tools.jackson.databind.JsonNode;

/**
 * What {@code steward bench audit --profile real-world} measures after the audit-vs-seed comparison, on a copy of the
 * generated home: the report's size, {@code session_apply} of every HIGH item (no decisions: only what runs
 * automatically), its backup, {@code session_apply vacuum} and {@code session_restore} of that backup. Progress lines
 * go to stdout as they come (at most one every 2 s per phase).
 */
final class RealWorldStages {
    private RealWorldStages() {}

    static final String NOW = "2026-08-10T12:00:00Z";

    static void run(Path work, Path generated, ToolResult firstAudit, ToolRegistry registry) throws Exception {
        Path home = work.resolve("apply-home");
        if (Files.exists(home)) FileTrees.delete(home);
        FileTrees.copy(generated, home);
        FileTrees.delete(home.resolve("steward"));
        // VACUUM without the lock guard: no Hermes runs on this copy (the estimate is printed against the default)
        Files.writeString(
                home.resolve("config.yaml"), "steward:\n  vacuum_min_free_mb: 1\n  vacuum_max_lock_seconds: 86400\n");
        Clock clock = Clock.fixed(Instant.parse(NOW), ZoneOffset.UTC);
        Phases phases = new Phases();
        ToolContext ctx = new ToolContext(StewardPaths.of(home), clock, phases);
        Path db = home.resolve("state.db");
        DiskUsage d0 = DiskUsage.of(home, db);
        Printer.println(String.format(
                Locale.ROOT,
                "disk: state.db %.1f MB (free list %.1f MB), WAL %.1f MB; side files %,d (%.1f MB)",
                mb(d0.db_bytes()),
                mb(d0.freelist_bytes()),
                mb(d0.wal_bytes()),
                d0.side_files(),
                mb(d0.side_file_bytes())));

        ToolResult audit = call(registry, "session_audit", "{\"now\":\"" + NOW + "\"}", ctx);
        JsonNode a = ToolRegistry.toJson(audit.structured());
        Printer.println(String.format(
                Locale.ROOT,
                "report: %,d characters (target <= 4,000), %d lines; with max_items_per_group 20: %,d characters",
                audit.text().length(),
                audit.text().split("\n").length,
                firstAudit.text().length()));
        Printer.println("report as the user sees it:\n" + indent(audit.text()));

        phases.reset();
        long t0 = System.nanoTime();
        ToolResult applied = call(
                registry, "session_apply", "{\"plan_id\":\"" + a.get("plan_id").asString() + "\"}", ctx);
        double applySeconds = (System.nanoTime() - t0) / 1e9;
        JsonNode r = ToolRegistry.toJson(applied.structured());
        int done = r.get("executed_count").asInt();
        JsonNode b = r.get("backup");
        Printer.println(String.format(
                Locale.ROOT,
                "apply of every HIGH item: %,d sessions in %.1f s = %.0f sessions/s (%,d automatic, %,d skipped); "
                        + "backup %.1f MB (%,d sessions, %,d messages, %,d side files) written in %.1f s",
                done,
                applySeconds,
                done / applySeconds,
                r.get("automatic_count").asInt(),
                r.get("skipped_count").asInt(),
                b.isNull() ? 0 : mb(b.get("size_bytes").asLong()),
                b.isNull() ? 0 : b.get("sessions").asInt(),
                b.isNull() ? 0 : b.get("messages").asInt(),
                b.isNull() ? 0 : b.get("side_files").asInt(),
                phases.backupSeconds()));
        DiskUsage d1 = DiskUsage.of(home, db);
        Printer.println(String.format(
                Locale.ROOT,
                "after apply: state.db %.1f MB, free list %.1f MB, WAL %.1f MB",
                mb(d1.db_bytes()),
                mb(d1.freelist_bytes()),
                mb(d1.wal_bytes())));

        phases.reset();
        ToolResult vac = call(registry, "session_apply", "{\"vacuum\":true}", ctx);
        JsonNode v = ToolRegistry.toJson(vac.structured()).get("vacuum");
        Printer.println(String.format(
                Locale.ROOT,
                "vacuum: %s; VACUUM %.1f s, %.1f MB freed (state.db %.1f → %.1f MB, WAL after %.1f MB); "
                        + "verified copy %.1f MB in %.1f s; lock estimate %.1f s (default limit 10 s); integrity %s; %s",
                v.get("outcome").asString(),
                v.path("vacuum_seconds").asDouble(),
                mb(v.path("bytes_freed").asLong()),
                mb(v.get("db_bytes_before").asLong()),
                mb(v.path("db_bytes_after").asLong()),
                mb(v.path("wal_bytes_after").asLong()),
                mb(v.path("backup_bytes").asLong()),
                v.path("backup_seconds").asDouble(),
                v.path("estimated_lock_seconds").asDouble(),
                v.path("integrity").asString("-"),
                v.path("fts").asString("-")));

        if (!b.isNull()) {
            phases.reset();
            t0 = System.nanoTime();
            ToolResult restored = call(
                    registry,
                    "session_restore",
                    "{\"backup_id\":\"" + b.get("backup_id").asString() + "\"}",
                    ctx);
            double restoreSeconds = (System.nanoTime() - t0) / 1e9;
            JsonNode rr = ToolRegistry.toJson(restored.structured());
            Printer.println(String.format(
                    Locale.ROOT,
                    "restore: %,d sessions, %,d messages, %,d side files in %.1f s = %.0f sessions/s",
                    rr.get("restored").size(),
                    rr.get("messages_restored").asInt(),
                    rr.get("side_files_restored").asInt(),
                    restoreSeconds,
                    rr.get("restored").size() / restoreSeconds));
        }
        FileTrees.delete(home);
    }

    static ToolResult call(ToolRegistry registry, String tool, String json, ToolContext ctx) {
        ToolResult r = registry.invoke(tool, Json.MAPPER.readTree(json), ctx);
        if (r.isError()) throw new IllegalStateException(tool + ": " + r.text());
        return r;
    }

    static double mb(long bytes) {
        return bytes / 1048576.0;
    }

    static String indent(String s) {
        return "    " + s.replace("\n", "\n    ");
    }

    /** Progress to stdout (a line per phase, then at most one every 2 s), and when the apply's backup phase began and ended. */
    static final class Phases implements Work {
        private long start = System.nanoTime(), lastLine, backupStart, backupEnd;
        private String lastPhase = "";

        void reset() {
            start = System.nanoTime();
            lastLine = 0;
            backupStart = backupEnd = 0;
            lastPhase = "";
        }

        double backupSeconds() {
            return backupStart == 0 ? 0 : ((backupEnd == 0 ? System.nanoTime() : backupEnd) - backupStart) / 1e9;
        }

        @Override
        public synchronized void progress(double done, double total, String message) {
            long now = System.nanoTime();
            String phase = message.replaceAll("[0-9,]+", "#");
            if (message.startsWith("backing up") && backupStart == 0) backupStart = now;
            if (backupStart != 0 && backupEnd == 0 && !message.startsWith("backing up")) backupEnd = now;
            if (!phase.equals(lastPhase) || now - lastLine > 2_000_000_000L) {
                Printer.println(String.format(
                        Locale.ROOT,
                        "  progress %6.1f s  %s%s",
                        (now - start) / 1e9,
                        message,
                        total > 0 ? String.format(Locale.ROOT, " (%.0f/%.0f)", done, total) : ""));
                lastLine = now;
                lastPhase = phase;
            }
        }

        @Override
        public boolean cancelled() {
            return false;
        }
    }
}
