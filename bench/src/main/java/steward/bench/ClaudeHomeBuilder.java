package steward.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Writes a large synthetic Claude Code home for {@code steward bench audit --store claude}: {@code projects} project
 * directories of {@code perProject} sessions each, about {@code targetBytes} of transcripts in all, shaped like real
 * ones (compact JSON lines in Claude Code's key order, user turns with text or tool results, assistant turns with
 * thinking and text, snapshots and queue operations; sizes spread from a few KB to a few MB; 80 % with an
 * {@code ai-title} or rename at the tail, 5 % older files with a {@code summary} line on top, 15 % untitled and
 * short; 15 % with a {@code subagents/} directory; 30 % of projects with a {@code sessions-index.json}; modification
 * times over the last 30 days, 3 % live). Deterministic for a seed.
 */
public final class ClaudeHomeBuilder {
    private ClaudeHomeBuilder() {}

    public record Stats(int projects, int sessions, int subagentFiles, long bytes, int indexFiles, int untitled) {}

    private static final String FILLER;

    static {
        StringBuilder sb = new StringBuilder();
        String[] words = {
            "the",
            "handler",
            "returns",
            "a",
            "redirect",
            "when",
            "session",
            "cookie",
            "is",
            "missing",
            "so",
            "we",
            "check",
            "middleware",
            "order",
            "and",
            "update",
            "tests",
            "for",
            "login",
            "flow",
            "config",
            "value",
            "timeout",
            "retry",
            "cache"
        };
        Random r = new Random(7);
        while (sb.length() < 400_000) sb.append(words[r.nextInt(words.length)]).append(r.nextInt(9) == 0 ? ". " : " ");
        FILLER = sb.toString();
    }

    public static Stats build(Path home, int projects, int perProject, long targetBytes, long seed, Instant now)
            throws IOException {
        Random rnd = new Random(seed);
        Path root = home.resolve("projects");
        Files.createDirectories(root);
        int sessions = projects * perProject;
        double mean = targetBytes / (sessions * 1.06); // subagent files add about 6 %
        long bytes = 0;
        int subFiles = 0, indexes = 0, untitled = 0;
        for (int p = 0; p < projects; p++) {
            String cwd = "/home/dev/work/project-" + p + (p % 7 == 0 ? "/app.v2" : "");
            Path dir = root.resolve(encode(cwd));
            Files.createDirectories(dir);
            List<String> ids = new ArrayList<>();
            for (int s = 0; s < perProject; s++) {
                String id = new UUID(rnd.nextLong(), rnd.nextLong()).toString();
                ids.add(id);
                int kind = rnd.nextInt(100); // <80 titled at the tail, <85 summary on top, else untitled
                boolean isUntitled = kind >= 85;
                if (isUntitled) untitled++;
                double size = isUntitled
                        ? mean * 0.15 * Math.exp(rnd.nextGaussian() * 0.8)
                        : mean * Math.exp(rnd.nextGaussian() * 1.1 - 0.6);
                long target = Math.max(1500, Math.min(8_000_000, (long) size));
                double age =
                        rnd.nextInt(100) < 3 ? rnd.nextDouble() * 20 * 3600 : 86400 + rnd.nextDouble() * 29 * 86400;
                Instant mtime = now.minusSeconds((long) age);
                Path file = dir.resolve(id + ".jsonl");
                bytes += transcript(file, id, cwd, target, kind, mtime, rnd, false, null);
                Files.setLastModifiedTime(file, FileTime.from(mtime));
                if (rnd.nextInt(100) < 15) {
                    Path sub = dir.resolve(id).resolve("subagents");
                    Files.createDirectories(sub);
                    int n = 1 + rnd.nextInt(3);
                    for (int k = 0; k < n; k++) {
                        String agent = Long.toHexString(rnd.nextLong() & 0xffffffffffffL);
                        Path af = sub.resolve("agent-" + agent + ".jsonl");
                        bytes += transcript(
                                af,
                                id,
                                cwd,
                                (long) (mean * 0.4 * Math.exp(rnd.nextGaussian() * 0.5)),
                                99,
                                mtime,
                                rnd,
                                true,
                                agent);
                        Files.setLastModifiedTime(af, FileTime.from(mtime));
                        Files.writeString(
                                sub.resolve("agent-" + agent + ".meta.json"),
                                "{\"agentType\":\"Explore\",\"description\":\"Look around\"}\n");
                        subFiles++;
                    }
                }
            }
            if (rnd.nextInt(100) < 30) {
                StringBuilder idx = new StringBuilder(
                        "{\n  \"version\": 1,\n  \"originalPath\": \"" + cwd + "\",\n  \"entries\": [");
                for (int i = 0; i < ids.size(); i++) {
                    idx.append(i == 0 ? "\n" : ",\n")
                            .append("    {\n      \"sessionId\": \"")
                            .append(ids.get(i))
                            .append("\",\n      \"fullPath\": \"")
                            .append(dir.resolve(ids.get(i) + ".jsonl"))
                            .append("\",\n      \"messageCount\": 12,\n      \"projectPath\": \"")
                            .append(cwd)
                            .append("\",\n      \"isSidechain\": false\n    }");
                }
                idx.append("\n  ]\n}\n");
                Files.writeString(dir.resolve("sessions-index.json"), idx);
                indexes++;
            }
        }
        return new Stats(projects, sessions, subFiles, bytes, indexes, untitled);
    }

    static String encode(String cwd) {
        StringBuilder sb = new StringBuilder();
        for (char c : cwd.toCharArray()) sb.append(Character.isLetterOrDigit(c) && c < 128 ? c : '-');
        return sb.toString();
    }

    /** One transcript of about {@code target} bytes; returns its size. {@code kind}: &lt;80 tail title, &lt;85 summary on top, else none. */
    private static long transcript(
            Path file,
            String session,
            String cwd,
            long target,
            int kind,
            Instant end,
            Random rnd,
            boolean side,
            String agent)
            throws IOException {
        long written = 0;
        long t = end.toEpochMilli() - target / 20; // about 50 bytes per second of conversation
        String parent = null;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            if (kind >= 80 && kind < 85)
                written += line(
                        out,
                        "{\"type\":\"summary\",\"summary\":\"Summary of " + session.substring(0, 8)
                                + "\",\"leafUuid\":\"" + UUID.randomUUID() + "\"}");
            if (!side)
                written += line(
                        out,
                        "{\"type\":\"queue-operation\",\"operation\":\"dequeue\",\"timestamp\":\""
                                + Instant.ofEpochMilli(t) + "\",\"sessionId\":\"" + session + "\"}");
            int i = 0;
            long budget = Math.max(0, target - 200);
            while (written < budget) {
                String uuid = new UUID(rnd.nextLong(), rnd.nextLong()).toString();
                t += 2000 + rnd.nextInt(30000);
                String head = "{\"parentUuid\":" + (parent == null ? "null" : "\"" + parent + "\"")
                        + ",\"isSidechain\":" + side
                        + ",\"userType\":\"external\",\"cwd\":\"" + cwd + "\",\"sessionId\":\"" + session
                        + "\",\"version\":\"2.1.30\",\"gitBranch\":\"main\""
                        + (agent == null ? "" : ",\"agentId\":\"" + agent + "\"");
                String tail = ",\"uuid\":\"" + uuid + "\",\"timestamp\":\"" + Instant.ofEpochMilli(t) + "\"}";
                StringBuilder sb = new StringBuilder(4096).append(head);
                int r = rnd.nextInt(10);
                if (i % 2 == 0) {
                    sb.append(",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":");
                    if (r < 6)
                        sb.append("[{\"tool_use_id\":\"toolu_")
                                .append(uuid, 0, 8)
                                .append("\",\"type\":\"tool_result\",\"content\":\"")
                                .append(text(rnd, 300 + rnd.nextInt(r < 2 ? 12000 : 2500)))
                                .append("\"}]}");
                    else sb.append('"').append(text(rnd, 40 + rnd.nextInt(600))).append("\"}");
                    sb.append(tail);
                } else {
                    sb.append(",\"message\":{\"id\":\"msg_")
                            .append(uuid, 0, 12)
                            .append("\",\"type\":\"message\",\"role\":\"assistant\",\"model\":")
                            .append("\"claude-sonnet-4-5-20250929\",\"content\":[");
                    if (r < 3)
                        sb.append("{\"type\":\"thinking\",\"thinking\":\"")
                                .append(text(rnd, 100 + rnd.nextInt(800)))
                                .append("\",\"signature\":\"s\"},");
                    if (r < 6)
                        sb.append("{\"type\":\"tool_use\",\"id\":\"toolu_")
                                .append(uuid, 0, 8)
                                .append("\",\"name\":\"Bash\",\"input\":{\"command\":\"npm test\"}}");
                    else
                        sb.append("{\"type\":\"text\",\"text\":\"")
                                .append(text(rnd, 80 + rnd.nextInt(1200)))
                                .append("\"}");
                    sb.append(
                                    "],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":1234,\"output_tokens\":88,")
                            .append("\"cache_read_input_tokens\":20000}},\"requestId\":\"req_")
                            .append(uuid, 0, 12)
                            .append("\",\"type\":\"assistant\"")
                            .append(tail);
                }
                written += line(out, sb.toString());
                if (rnd.nextInt(12) == 0)
                    written += line(
                            out,
                            "{\"type\":\"file-history-snapshot\",\"messageId\":\"" + uuid
                                    + "\",\"snapshot\":{\"messageId\":\"" + uuid
                                    + "\",\"trackedFileBackups\":{},\"timestamp\":\"" + Instant.ofEpochMilli(t)
                                    + "\"},\"isSnapshotUpdate\":false}");
                parent = uuid;
                i++;
            }
            if (kind < 80) {
                if (kind < 10)
                    written += line(
                            out,
                            "{\"type\":\"custom-title\",\"customTitle\":\"Renamed " + session.substring(0, 6)
                                    + "\",\"sessionId\":\"" + session + "\"}");
                written += line(
                        out,
                        "{\"type\":\"ai-title\",\"aiTitle\":\"Work on " + session.substring(0, 6)
                                + "\",\"sessionId\":\"" + session + "\"}");
            }
        }
        return written;
    }

    private static String text(Random rnd, int n) {
        int from = rnd.nextInt(FILLER.length() - n - 1);
        return FILLER.substring(from, from + n);
    }

    private static long line(OutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b);
        out.write('\n');
        return b.length + 1;
    }
}
