package steward.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import steward.sessions.store.Sqlite;

/** Creates an empty Hermes-schema state.db by replaying the schema (sqlite_master) of a reference state.db. */
final class HermesDbBuilder {
    private HermesDbBuilder() {}

    static List<String> schema(Path reference) throws SQLException {
        List<String> out = new ArrayList<>();
        Set<String> virtual = new HashSet<>();
        List<String[]> rows = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(reference);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")) {
            while (rs.next()) rows.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
            try (ResultSet v = st.executeQuery("SELECT version FROM schema_version")) {
                while (v.next())
                    rows.add(new String[] {
                        "row", "schema_version", "INSERT INTO schema_version(version) VALUES (" + v.getInt(1) + ")"
                    });
            }
        }
        for (String[] r : rows) if (r[2].toUpperCase().startsWith("CREATE VIRTUAL TABLE")) virtual.add(r[1]);
        for (String[] r : rows) {
            String name = r[1];
            if (name.startsWith("sqlite_")) continue;
            boolean shadow = r[0].equals("table")
                    && virtual.stream().anyMatch(v -> name.startsWith(v + "_") && !virtual.contains(name));
            if (shadow) continue;
            out.add(r[2]);
        }
        return out;
    }

    static void create(Path db, List<String> schema) throws SQLException {
        try (Connection c = Sqlite.openOwned(db);
                Statement st = c.createStatement()) {
            for (String sql : schema) st.execute(sql);
        }
    }
}
