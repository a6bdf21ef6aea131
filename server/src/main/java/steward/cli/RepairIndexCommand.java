package steward.cli;

import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import steward.StewardError;
import steward.json.Json;
import steward.sessions.backup.IndexRepair;

/** {@code steward repair-index}: the explicit, backed-up rebuild of Hermes' search index (FTS5 'rebuild'). */
@Command(
        name = "repair-index",
        description = {
            "Checks Hermes' search index (FTS5 tables of state.db) and, when it is inconsistent, rebuilds it from the messages",
            "after writing a verified copy of state.db to <state dir>/backups/state-db/. Holds Hermes' write lock while it rebuilds.",
            "Prints the result as JSON. Exit 0 when the index is consistent afterwards, 1 otherwise."
        })
public final class RepairIndexCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--force", description = "rebuild even when the check finds the index consistent")
    boolean force;

    @Override
    public Integer call() {
        try {
            IndexRepair.Result r = new IndexRepair(common.paths(), Clock.systemUTC()).run(force);
            Printer.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(r));
            System.err.println("steward repair-index: " + r.message()
                    + (r.backup_path() == null ? "" : " (backup: " + r.backup_path() + ")"));
            return r.after().ok() ? 0 : 1;
        } catch (StewardError e) {
            System.err.println("steward " + e.getMessage());
            return 1;
        }
    }
}
