package steward.sessions.store;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Messages whose indexed text holds a NUL character in Hermes' trigram search table. Hermes stores list content
 * (images, multimodal parts) as {@code "\0json:…"}; the trigram tokenizer of an older SQLite (Python's 3.40) stops
 * reading at the NUL, Steward's (3.54) reads past it. An index Hermes built with an older SQLite then looks damaged to Steward's FTS5
 * check, and Steward cannot delete those rows through Hermes' triggers (SQLITE_CORRUPT_VTAB): its tokenizer asks to
 * remove entries that were never written.
 *
 * <p>The cure reads the same in every SQLite: such a row's text in the table's own copy ({@code <table>_content.c0})
 * is cut at the NUL, so every tokenizer finds the words that were indexed. It changes no message and no index entry
 * ({@link #alignIndexedPrefixes}: only rows whose stored size says they were indexed up to the NUL), or indexes a row
 * Steward writes the same way ({@link #indexByPrefix}). Only trigram tables: the unicode61 tokenizer treats a NUL the
 * same way in every version.
 */
public final class FtsNulRows {
    private FtsNulRows() {}

    /** One-column trigram FTS5 tables with their own content ({@code <t>_content(id, c0)}, {@code <t>_docsize}). */
    static List<String[]> trigramTables(Connection c) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                        + "AND lower(sql) LIKE '%using fts5%' AND lower(sql) LIKE '%trigram%' ORDER BY name")) {
            while (rs.next()) out.add(new String[] {rs.getString(1), rs.getString(2)});
        }
        List<String[]> usable = new ArrayList<>();
        for (String[] t : out) {
            if (columns(c, t[0] + "_content").equals(List.of("id", "c0"))
                    && columns(c, t[0] + "_docsize").contains("sz")) usable.add(t);
        }
        return usable;
    }

    private static List<String> columns(Connection c, String table) throws SQLException {
        List<String> cols = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA table_info(" + FtsIndex.quote(table) + ")")) {
            while (rs.next()) cols.add(rs.getString("name"));
        }
        return cols;
    }

    /**
     * Cuts at the NUL the stored text of every row that was indexed only up to it (its stored size is that of the text
     * before the NUL, not of the whole text), in the caller's transaction. Returns the rows changed.
     */
    public static int alignIndexedPrefixes(Connection c) throws SQLException {
        int changed = 0;
        for (String[] t : trigramTables(c)) {
            String content = FtsIndex.quote(t[0] + "_content"), docsize = FtsIndex.quote(t[0] + "_docsize");
            List<Object[]> cut = new ArrayList<>();
            try (Tokenizer tk = new Tokenizer(t[0], t[1]);
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT x.id, CAST(x.c0 AS BLOB), d.sz FROM " + content + " x JOIN "
                            + docsize + " d ON d.id = x.id WHERE instr(CAST(x.c0 AS BLOB), x'00') > 0")) {
                while (rs.next()) {
                    byte[] text = rs.getBytes(2), stored = rs.getBytes(3);
                    String prefix = prefix(text);
                    if (Arrays.equals(stored, tk.size(prefix))
                            && !Arrays.equals(stored, tk.size(new String(text, StandardCharsets.UTF_8))))
                        cut.add(new Object[] {rs.getLong(1), prefix});
                }
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE " + content + " SET c0 = ? WHERE id = ?")) {
                for (Object[] r : cut) {
                    ps.setString(1, (String) r[1]);
                    ps.setLong(2, (Long) r[0]);
                    changed += ps.executeUpdate();
                }
            }
        }
        return changed;
    }

    /**
     * Indexes each given row of every trigram table whose text holds a NUL by the text before it (as an older SQLite
     * does, and a newer one then reads the same), in the caller's transaction. {@code rowids} null: every row.
     * Returns the rows re-indexed.
     */
    public static int indexByPrefix(Connection c, Collection<Long> rowids) throws SQLException {
        int n = 0;
        for (String[] t : trigramTables(c)) {
            String table = FtsIndex.quote(t[0]), content = FtsIndex.quote(t[0] + "_content");
            List<Object[]> rows = new ArrayList<>();
            String sql = "SELECT id, CAST(c0 AS BLOB) FROM " + content + " WHERE instr(CAST(c0 AS BLOB), x'00') > 0";
            if (rowids == null) {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) rows.add(new Object[] {rs.getLong(1), prefix(rs.getBytes(2))});
                }
            } else {
                try (PreparedStatement ps = c.prepareStatement(sql + " AND id = ?")) {
                    for (long id : rowids) {
                        ps.setLong(1, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (rs.next()) rows.add(new Object[] {rs.getLong(1), prefix(rs.getBytes(2))});
                        }
                    }
                }
            }
            try (PreparedStatement del = c.prepareStatement("DELETE FROM " + table + " WHERE rowid = ?");
                    PreparedStatement ins = c.prepareStatement(
                            "INSERT INTO " + table + " (rowid, " + contentColumn(t[1]) + ") VALUES (?, ?)")) {
                for (Object[] r : rows) {
                    del.setLong(1, (Long) r[0]);
                    del.executeUpdate();
                    ins.setLong(1, (Long) r[0]);
                    ins.setString(2, (String) r[1]);
                    ins.executeUpdate();
                    n++;
                }
            }
        }
        return n;
    }

    /** The first column's name of {@code CREATE VIRTUAL TABLE t USING fts5(col, …)}. */
    static String contentColumn(String createSql) {
        String args = createSql.substring(createSql.indexOf('(') + 1);
        String first = args.split("[,)]", 2)[0].strip();
        return FtsIndex.quote(first.replaceAll("^[\"`\\[]|[\"`\\]]$", ""));
    }

    /** The UTF-8 text before the first NUL byte. */
    static String prefix(byte[] text) {
        int i = 0;
        while (i < text.length && text[i] != 0) i++;
        return new String(text, 0, i, StandardCharsets.UTF_8);
    }

    /** The stored size ({@code <t>_docsize.sz}) a text gets from the table's own tokenizer, in a private database. */
    private static final class Tokenizer implements AutoCloseable {
        private final Connection mem;
        private final String insert, read, clear;

        Tokenizer(String table, String createSql) throws SQLException {
            this.mem = Sqlite.openInMemory();
            String t = FtsIndex.quote(table);
            this.insert = "INSERT INTO " + t + " (rowid, " + contentColumn(createSql) + ") VALUES (1, ?)";
            this.read = "SELECT sz FROM " + FtsIndex.quote(table + "_docsize") + " WHERE id = 1";
            this.clear = "DELETE FROM " + t + " WHERE rowid = 1";
            try (Statement st = mem.createStatement()) {
                st.execute(createSql);
            }
        }

        byte[] size(String text) throws SQLException {
            try (PreparedStatement ins = mem.prepareStatement(insert)) {
                ins.setString(1, text);
                ins.executeUpdate();
            }
            try (Statement st = mem.createStatement();
                    ResultSet rs = st.executeQuery(read)) {
                return rs.next() ? rs.getBytes(1) : null;
            } finally {
                try (Statement st = mem.createStatement()) {
                    st.execute(clear);
                }
            }
        }

        @Override
        public void close() throws SQLException {
            mem.close();
        }
    }
}
