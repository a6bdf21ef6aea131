package steward.sessions.apply;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import steward.config.StewardPaths;
import steward.sessions.backup.RestoreEngine;

/**
 * A separate Steward process for crash tests: {@code SessionsMain <home> apply <plan_id> <rule>...} approves the rules
 * and applies; {@code SessionsMain <home> apply-both <claude home> <caller cwd> <plan_id> <current>} applies a plan of
 * both homes; {@code SessionsMain <absent home> apply-claude <claude home> <caller cwd> <plan_id>} applies a plan of a
 * Claude Code home only; {@code SessionsMain <absent home> recover-claude <claude home>} runs the recovery the next
 * call runs first; {@code SessionsMain <home> restore <backup_id>} restores. Started with -Dsteward.crashpoint=<name> it
 * halts there as SIGKILL would. Prints the backup id of a finished apply.
 */
public final class SessionsMain {
    public static void main(String[] args) {
        StewardPaths paths = StewardPaths.of(Path.of(args[0]));
        Clock clock = Clock.fixed(Instant.parse("2026-08-10T12:00:00Z"), ZoneOffset.UTC);
        if (args[1].equals("recover-claude")) {
            // <absent hermes home> recover-claude <claude home>: the recovery the next call runs first
            paths = StewardPaths.claudeOnly(Path.of(args[0]), Path.of(args[2]));
            new ApplyJournal(paths, clock).recover().notices().forEach(System.out::println);
        } else if (args[1].equals("apply-claude")) {
            // <absent hermes home> apply-claude <claude home> <caller cwd> <plan_id>: a Claude Code home only
            paths = StewardPaths.claudeOnly(Path.of(args[0]), Path.of(args[2]));
            ApplyResult r = new ApplyEngine(paths, clock)
                    .callerCwd(Path.of(args[3]))
                    .apply(new ApplyRequest(args[4], Map.of(), Map.of(), Map.of(), false, null));
            System.out.println(r.backup() == null ? "-" : r.backup().backup_id());
        } else if (args[1].equals("apply-both")) {
            // <home> apply-both <claude home> <caller cwd> <plan_id> <current>: a plan of both homes, HIGH items only
            paths = StewardPaths.of(Path.of(args[0]), Path.of(args[2]));
            ApplyResult r = new ApplyEngine(paths, clock)
                    .callerCwd(Path.of(args[3]))
                    .apply(new ApplyRequest(args[4], Map.of(), Map.of(), Map.of(), false, args[5]));
            System.out.println(r.backup() == null ? "-" : r.backup().backup_id());
        } else if (args[1].equals("apply")) {
            Map<String, String> rules = new HashMap<>();
            for (String r : List.of(args).subList(3, args.length)) rules.put(r, "approve");
            ApplyResult r = new ApplyEngine(paths, clock)
                    .apply(new ApplyRequest(args[2], Map.of(), rules, Map.of(), false, null));
            System.out.println(r.backup() == null ? "-" : r.backup().backup_id());
        } else {
            RestoreEngine.Result r = new RestoreEngine(paths, clock).restore(args[2], null);
            System.out.println(r.restored().size());
        }
    }
}
