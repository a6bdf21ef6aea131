package steward.sessions.grouping;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import steward.sessions.store.Sqlite;

/**
 * Hermes Desktop's Projects, read-only: {@code projects} and {@code project_folders} in {@code <home>/projects.db}
 * (else in {@code state.db}, if a Hermes version keeps them there). The sidebar puts a session in the project whose
 * folder is the longest path prefix of the session's {@code cwd} (project_tree.py {@code _FolderIndex.match}); a project
 * without a folder gathers nothing. Column names are read from the tables ({@code name}/{@code title},
 * {@code path}/{@code folder_path}); archived rows are left out. Anything unreadable means "no projects", with a warning.
 */
public record HermesProjects(List<Project> projects, String source, String warning) {

    public record Project(String id, String name, List<String> folders) {}

    public static final HermesProjects NONE = new HermesProjects(List.of(), null, null);

    public static HermesProjects read(Path hermesHome) {
        for (Path db : List.of(hermesHome.resolve("projects.db"), hermesHome.resolve("state.db"))) {
            if (!Files.isRegularFile(db)) continue;
            try (Connection c = Sqlite.openReadOnly(db)) {
                Map<String, Set<String>> tables = new HashMap<>();
                for (String t : List.of("projects", "project_folders")) {
                    Set<String> cols = columns(c, t);
                    if (!cols.isEmpty()) tables.put(t, cols);
                }
                if (!tables.containsKey("projects")) continue;
                return new HermesProjects(load(c, tables), db.getFileName().toString(), null);
            } catch (SQLException | RuntimeException e) {
                return new HermesProjects(
                        List.of(),
                        db.getFileName().toString(),
                        "cannot read Hermes projects from " + db + ": " + Sqlite.describe(e));
            }
        }
        return NONE;
    }

    private static Set<String> columns(Connection c, String table) throws SQLException {
        Set<String> cols = new LinkedHashSet<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA table_info(" + table + ")")) {
            while (rs.next()) cols.add(rs.getString("name").toLowerCase(Locale.ROOT));
        }
        return cols;
    }

    private static String first(Set<String> cols, String... names) {
        for (String n : names) if (cols.contains(n)) return n;
        return null;
    }

    private static List<Project> load(Connection c, Map<String, Set<String>> tables) throws SQLException {
        Set<String> pc = tables.get("projects");
        String id = first(pc, "id", "project_id", "rowid");
        String name = first(pc, "name", "title", "display_name");
        String path = first(pc, "path", "folder", "root");
        StringBuilder sql = new StringBuilder("SELECT ")
                .append(id == null ? "rowid" : id)
                .append(", ")
                .append(name == null ? "NULL" : name)
                .append(", ")
                .append(path == null ? "NULL" : path)
                .append(" FROM projects");
        List<String> where = new ArrayList<>();
        if (pc.contains("archived_at")) where.add("archived_at IS NULL");
        if (pc.contains("archived")) where.add("COALESCE(archived, 0) = 0");
        if (pc.contains("deleted_at")) where.add("deleted_at IS NULL");
        if (!where.isEmpty()) sql.append(" WHERE ").append(String.join(" AND ", where));
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, List<String>> folders = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                String pid = rs.getString(1);
                names.put(pid, rs.getString(2) == null ? pid : rs.getString(2));
                List<String> fs = new ArrayList<>();
                if (rs.getString(3) != null && !rs.getString(3).isBlank()) fs.add(rs.getString(3));
                folders.put(pid, fs);
            }
        }
        Set<String> fc = tables.get("project_folders");
        if (fc != null) {
            String fid = first(fc, "project_id", "project");
            String fpath = first(fc, "path", "folder_path", "folder", "root");
            if (fid != null && fpath != null) {
                StringBuilder fsql = new StringBuilder("SELECT ")
                        .append(fid)
                        .append(", ")
                        .append(fpath)
                        .append(" FROM project_folders");
                List<String> fw = new ArrayList<>();
                if (fc.contains("archived_at")) fw.add("archived_at IS NULL");
                if (fc.contains("deleted_at")) fw.add("deleted_at IS NULL");
                if (!fw.isEmpty()) fsql.append(" WHERE ").append(String.join(" AND ", fw));
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery(fsql.toString())) {
                    while (rs.next()) {
                        List<String> fs = folders.get(rs.getString(1));
                        String p = rs.getString(2);
                        if (fs != null && p != null && !p.isBlank() && !fs.contains(p)) fs.add(p);
                    }
                }
            }
        }
        List<Project> out = new ArrayList<>();
        for (Map.Entry<String, String> e : names.entrySet())
            out.add(new Project(e.getKey(), e.getValue(), List.copyOf(folders.get(e.getKey()))));
        return out;
    }

    /** The project whose folder is the longest path prefix of {@code cwd} (as the sidebar matches), or null. */
    public Project match(String cwd) {
        List<String> target = Paths.segments(cwd);
        Project best = null;
        int bestLen = -1;
        for (Project p : projects) {
            for (String f : p.folders()) {
                List<String> fs = Paths.segments(f);
                if (fs.isEmpty() || fs.size() > target.size() || fs.size() <= bestLen) continue;
                if (target.subList(0, fs.size()).equals(fs)) {
                    best = p;
                    bestLen = fs.size();
                }
            }
        }
        return best;
    }
}
