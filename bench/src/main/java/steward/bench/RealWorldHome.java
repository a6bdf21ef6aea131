package steward.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The "real-world" profile of {@code steward bench audit}: a Hermes home as users with many cron jobs report it (issue 14:
 * 54,647 sessions, ~760,000 messages, 63 days, ~114 cron jobs). Of {@code sessions}: about 0.65 % interactive
 * ({@code cli}/{@code tui}, a few hundred at full size, ~6 % of them still open), 12 % gateway threads (telegram, discord,
 * slack, whatsapp; 60 % never ended: expired chat threads), 15 % subagents (model_config {@code _delegate_from}; 30 % left
 * open), 2 % empty sessions (a dashboard that opens one per visit), the rest cron runs ({@code cron_<job>_<stamp>}, 114
 * jobs, 80 % never got {@code ended_at}). About 5 % of the interactive and gateway sessions are compaction chains of 2–4
 * members (parent {@code end_reason = 'compression'}, child {@code parent_session_id}, titles "… #2", "… #3").
 * Messages are spread by source (cron ~14, gateway ~20, interactive ~60, subagent ~12) and scaled to {@code messages}.
 * Side files: {@code sessions/<id>.json} for every session with messages except subagents, and a
 * {@code request_dump_<id>_<n>.json} for one gateway session in ten. Deterministic (seed 42).
 */
final class RealWorldHome {
    private RealWorldHome() {}

    static final String[] GATEWAYS = {"telegram", "telegram", "discord", "slack", "whatsapp"};
    static final String[] JOBS = {
        "inbox digest",
        "news brief",
        "backup check",
        "disk report",
        "price watch",
        "rss summary",
        "calendar sync",
        "weather",
        "github triage",
        "standup notes",
        "invoice scan",
        "log review"
    };
    static final double DAY = 86400.0;

    record Made(
            int sessions,
            int messages,
            int interactive,
            int gateway,
            int subagents,
            int empty,
            int cron,
            int chains,
            int chainMembers,
            int sideFiles,
            long sideBytes) {
        String describe() {
            return String.format(
                    "%,d sessions (%,d cron, %,d gateway, %,d subagent, %,d interactive, %,d empty; %,d compaction chains "
                            + "with %,d members), %,d messages, %,d side files (%.1f MB)",
                    sessions,
                    cron,
                    gateway,
                    subagents,
                    interactive,
                    empty,
                    chains,
                    chainMembers,
                    messages,
                    sideFiles,
                    sideBytes / 1048576.0);
        }
    }

    private record S(
            String id,
            String source,
            String parent,
            String modelConfig,
            double started,
            Double ended,
            String endReason,
            String title,
            double weight) {}

    static Made generate(Connection c, Path home, int sessions, int messages, double now)
            throws SQLException, IOException {
        Random rnd = new Random(42);
        double start = now - 63 * DAY;
        int interactive = Math.max(3, (int) Math.round(sessions * 0.0065));
        int gateway = (int) Math.round(sessions * 0.12);
        int subagents = (int) Math.round(sessions * 0.15);
        int empty = (int) Math.round(sessions * 0.02);
        int cron = sessions - interactive - gateway - subagents - empty;
        List<S> all = new ArrayList<>(sessions);
        List<String> parents = new ArrayList<>();
        int chains = 0, chainMembers = 0, made = 0;
        // interactive and gateway sessions, some of them compaction chains
        for (int kind = 0; kind < 2; kind++) {
            int want = kind == 0 ? interactive : gateway;
            int k = 0;
            while (k < want) {
                String source = kind == 0 ? (rnd.nextBoolean() ? "cli" : "tui") : ScaleHome.pick(rnd, GATEWAYS);
                double t = start + rnd.nextDouble() * 62 * DAY;
                String base = AuditBench.WORDS[rnd.nextInt(AuditBench.WORDS.length)] + " "
                        + AuditBench.WORDS[rnd.nextInt(AuditBench.WORDS.length)] + " "
                        + made; // Hermes' titles are unique
                boolean titled = kind == 0 ? rnd.nextDouble() < 0.7 : rnd.nextDouble() < 0.3;
                int members = rnd.nextDouble() < 0.05 && want - k >= 2 ? 2 + rnd.nextInt(Math.min(3, want - k - 1)) : 1;
                if (members > 1) {
                    chains++;
                    chainMembers += members;
                    titled = true;
                }
                String parent = null;
                for (int m = 0; m < members; m++) {
                    boolean last = m == members - 1;
                    boolean open = last && (kind == 0 ? rnd.nextDouble() < 0.06 : rnd.nextDouble() < 0.6);
                    double len = (kind == 0 ? 2 : 0.5) * 3600 * (0.2 + rnd.nextDouble());
                    Double ended = open ? null : Math.min(now - 60, t + len);
                    String reason = open ? null : !last ? "compression" : kind == 0 ? "cli_close" : "session_reset";
                    String id = stamp(t) + "_" + String.format("%06x", made++);
                    String title = titled ? (m == 0 ? base : base + " #" + (m + 1)) : null;
                    all.add(new S(id, source, parent, null, t, ended, reason, title, kind == 0 ? 60 : 20));
                    parents.add(id);
                    parent = id;
                    t = ended == null ? t + len : ended;
                    k++;
                }
            }
        }
        for (int i = 0; i < subagents; i++) {
            String parent = parents.get(rnd.nextInt(parents.size()));
            double t = start + rnd.nextDouble() * 62 * DAY;
            boolean open = rnd.nextDouble() < 0.3;
            String id = stamp(t) + "_" + String.format("%06x", made++);
            all.add(new S(
                    id,
                    "subagent",
                    parent,
                    "{\"_delegate_from\": \"" + parent + "\"}",
                    t,
                    open ? null : Math.min(now - 60, t + 300 + rnd.nextInt(1200)),
                    open ? null : "completed",
                    rnd.nextDouble() < 0.1
                            ? "subtask " + AuditBench.WORDS[rnd.nextInt(AuditBench.WORDS.length)] + " " + made
                            : null,
                    12));
        }
        for (int i = 0; i < empty; i++) {
            double t = start + rnd.nextDouble() * 63 * DAY - 7200;
            String id = stamp(t) + "_" + String.format("%06x", made++);
            all.add(new S(id, rnd.nextBoolean() ? "api" : "tui", null, null, t, null, null, null, 0));
        }
        int jobs = 114;
        for (int i = 0; i < cron; i++) {
            int job = i % jobs;
            double t = start + (i / (double) cron) * 63 * DAY - 3600;
            boolean open = rnd.nextDouble() < 0.8;
            String id = "cron_" + String.format("j%03d", job) + "_" + stamp(t) + String.format("%03d", i % 1000);
            all.add(new S(
                    id,
                    "cron",
                    null,
                    null,
                    t,
                    open ? null : t + 60 + rnd.nextInt(300),
                    open ? null : "cron_complete",
                    rnd.nextDouble() < 0.5 ? "cron: " + JOBS[job % JOBS.length] + " " + job + " run " + i : null,
                    14 * (0.5 + rnd.nextDouble())));
        }
        double sum = all.stream().mapToDouble(S::weight).sum();
        int[] counts = new int[all.size()];
        int assigned = 0;
        for (int i = 0; i < all.size(); i++) {
            counts[i] = (int) Math.floor(all.get(i).weight() / sum * messages);
            assigned += counts[i];
        }
        for (int i = 0; assigned < messages; i = (i + 1) % all.size()) {
            if (all.get(i).weight() > 0) {
                counts[i]++;
                assigned++;
            }
        }
        Path sideDir = home.resolve("sessions");
        Files.createDirectories(sideDir);
        int sideFiles = 0;
        long sideBytes = 0;
        long msgId = 0;
        try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO sessions (id, source, model_config, parent_session_id, started_at, ended_at, "
                                + "end_reason, message_count, title) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
                PreparedStatement pm = c.prepareStatement(
                        "INSERT INTO messages (id, session_id, role, content, tool_name, timestamp) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < all.size(); i++) {
                S s = all.get(i);
                int mc = counts[i];
                ps.setString(1, s.id());
                ps.setString(2, s.source());
                ps.setString(3, s.modelConfig());
                ps.setString(4, s.parent());
                ps.setDouble(5, s.started());
                if (s.ended() == null) ps.setNull(6, Types.REAL);
                else ps.setDouble(6, s.ended());
                ps.setString(7, s.endReason());
                ps.setInt(8, mc);
                ps.setString(9, s.title());
                ps.addBatch();
                double span = (s.ended() != null ? s.ended() : Math.min(now - 120, s.started() + 1800)) - s.started();
                for (int k = 0; k < mc; k++) {
                    String role = k == 0 ? "user" : k % 3 == 2 ? "tool" : k % 3 == 1 ? "assistant" : "user";
                    pm.setLong(1, ++msgId);
                    pm.setString(2, s.id());
                    pm.setString(3, role);
                    pm.setString(4, text(rnd, role, s.source()));
                    pm.setString(
                            5,
                            role.equals("tool")
                                    ? ScaleHome.pick(rnd, new String[] {"terminal", "web_search", "read_file"})
                                    : null);
                    pm.setDouble(6, s.started() + span * (k + 1) / (mc + 1));
                    pm.addBatch();
                    if (msgId % 10000 == 0) pm.executeBatch();
                }
                if (i % 1000 == 999) ps.executeBatch();
                if (mc > 0 && !s.source().equals("subagent")) {
                    byte[] body = sideFile(rnd, s, mc);
                    Files.write(sideDir.resolve(s.id() + ".json"), body);
                    sideFiles++;
                    sideBytes += body.length;
                    if (!s.source().equals("cron")
                            && !s.source().equals("cli")
                            && !s.source().equals("tui")
                            && rnd.nextInt(10) == 0) {
                        byte[] dump = ("{\"request\": \"" + "x".repeat(2000 + rnd.nextInt(4000)) + "\"}")
                                .getBytes(StandardCharsets.UTF_8);
                        Files.write(sideDir.resolve("request_dump_" + s.id() + "_1.json"), dump);
                        sideFiles++;
                        sideBytes += dump.length;
                    }
                }
            }
            ps.executeBatch();
            pm.executeBatch();
        }
        return new Made(
                all.size(),
                (int) msgId,
                interactive,
                gateway,
                subagents,
                empty,
                cron,
                chains,
                chainMembers,
                sideFiles,
                sideBytes);
    }

    static String stamp(double t) {
        return DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss")
                .withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochSecond((long) t));
    }

    /** A message of realistic shape: short user prompts, longer assistant answers, tool output the longest. */
    static String text(Random r, String role, String source) {
        int words = switch (role) {
            case "user" -> 6 + r.nextInt(30);
            case "assistant" -> 20 + r.nextInt(90);
            default -> 30 + r.nextInt(150);
        };
        StringBuilder sb = new StringBuilder(words * 7);
        if (source.equals("cron") && role.equals("user")) sb.append("[cron] ");
        for (int i = 0; i < words; i++) {
            if (i > 0) sb.append(i % 12 == 0 ? ". " : " ");
            sb.append(AuditBench.WORDS[r.nextInt(AuditBench.WORDS.length)]);
        }
        return sb.toString();
    }

    /** Hermes' per-session transcript file: the session's header and a few of its turns (1–4 KB). */
    static byte[] sideFile(Random r, S s, int mc) {
        StringBuilder sb = new StringBuilder("{\"session_id\": \"")
                .append(s.id())
                .append("\", \"source\": \"")
                .append(s.source())
                .append("\", \"messages\": [");
        int n = Math.min(mc, 3 + r.nextInt(6));
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(", ");
            sb.append("{\"role\": \"")
                    .append(i % 2 == 0 ? "user" : "assistant")
                    .append("\", \"content\": \"")
                    .append(text(r, i % 2 == 0 ? "user" : "assistant", s.source()))
                    .append("\"}");
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
