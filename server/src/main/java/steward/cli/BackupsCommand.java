package steward.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import steward.StewardError;
import steward.config.Origin;
import steward.retention.Retention;
import steward.server.tools.ToolContext;
import steward.sessions.backup.StateCopy;

/**
 * {@code steward backups}: Steward's session backups and how retention treats them; {@code --prune} applies the
 * retention now (what {@code session_apply} does after each new backup); {@code --discard ID} removes one backup on
 * the user's word, and one that is the only copy of a deleted session only with {@code --force}.
 */
@Command(
        name = "backups",
        description = {
            "List Steward's session backups: age, size, and whether one is the only copy of deleted sessions; "
                    + "then the verified state.db copies in backups/state-db/ (written before a VACUUM or an index repair).",
            "Backups older than steward.backup_retention_days (config.yaml, default " + Retention.DEFAULT_BACKUP_DAYS
                    + ") are pruned after each "
                    + "session_apply, except those that are the only copy of something; expired plans too."
        })
public final class BackupsCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(
            names = "--prune",
            description =
                    "apply the retention now: remove expired plans and old backups that are not the only copy of anything")
    boolean prune;

    @Option(
            names = "--discard",
            paramLabel = "BACKUP_ID",
            description = "remove this backup (refused for the only copy of a deleted session without --force)")
    String discard;

    @Option(
            names = "--force",
            description =
                    "with --discard: remove it even if it is the only copy (the sessions in it are then gone for good)")
    boolean force;

    @Override
    public Integer call() {
        ToolContext ctx = common.context();
        Retention retention = new Retention(ctx.paths(), ctx.clock());
        if (discard != null) {
            try {
                Retention.Backup b = retention.discard(discard, force);
                Printer.println(
                        "discarded " + b.backup_id() + " (" + b.sessions() + " sessions, " + b.bytes() + " bytes"
                                + (b.onlyCopy()
                                        ? "; it was the only copy of " + b.only_copy_sessions() + " deleted session(s)"
                                        : "")
                                + ")");
                return 0;
            } catch (StewardError e) {
                System.err.println(e.getMessage());
                return 1;
            }
        }
        Retention.Report r = retention.run(prune);
        Printer.println("state dir: " + ctx.paths().stateDir());
        Printer.println("backups are kept " + r.backup_days() + " days ("
                + (r.backup_days_origin() == Origin.CONFIG_FILE
                        ? Retention.KEY + " in config.yaml"
                        : "default; set " + Retention.KEY + " in config.yaml")
                + "), longer when they are the only copy");
        for (Retention.Backup b : r.backups()) {
            Printer.println(String.format(
                    Locale.ROOT,
                    "  %s  %6.1f days  %,10d bytes  %3d sessions  %s%s",
                    b.backup_id(),
                    b.age_days(),
                    b.bytes(),
                    b.sessions(),
                    b.state(),
                    b.onlyCopy()
                            ? " (only copy of " + b.only_copy_sessions() + " deleted session(s), " + b.only_copy_files()
                                    + " side file(s))"
                            : ""));
        }
        if (r.backups().isEmpty()) Printer.println("  no session backups");
        // the verified copies of state.db written before a VACUUM (session_apply vacuum; the next one that passes its
        // checks replaces it) or before steward repair-index (kept until removed); --prune leaves them alone
        java.nio.file.Path copies = StateCopy.dir(ctx.paths().stateDir());
        List<StateCopy.Copy> stateCopies =
                StateCopy.list(ctx.paths().stateDir(), ctx.clock().instant());
        Printer.println("state.db copies in " + copies
                + " (verified, taken before a VACUUM or repair-index; --prune leaves them):");
        for (StateCopy.Copy c : stateCopies) {
            Printer.println(
                    String.format(Locale.ROOT, "  %s  %6.1f days  %,14d bytes", c.name(), c.age_days(), c.bytes()));
        }
        if (stateCopies.isEmpty()) Printer.println("  no state.db copies");
        String verb = prune ? "pruned" : "would prune (--prune)";
        Printer.println(verb + ": " + r.pruned_backups().size() + " backup(s), "
                + r.pruned_plans().size() + " expired plan(s), " + String.format(Locale.ROOT, "%,d", r.bytes_freed())
                + " bytes");
        for (String w : r.warnings()) System.err.println("steward backups: " + w);
        return 0;
    }
}
