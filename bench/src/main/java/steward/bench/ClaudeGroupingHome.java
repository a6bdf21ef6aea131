package steward.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import steward.claude.ClaudeHome;
import steward.json.Json;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sessions of a {@link GroupingHome} written as a Claude Code home: one transcript per session in
 * {@code projects/<encoded cwd>/<uuid>.jsonl} (the first prompt, an answer and, when titled, an {@code ai-title} entry),
 * modified at the session's last activity. Returns the uuid of each generated session id.
 */
final class ClaudeGroupingHome {
    private ClaudeGroupingHome() {}

    static Map<String, String> write(Path home, List<GroupingHome.Session> sessions) throws IOException {
        Map<String, String> uuids = new LinkedHashMap<>();
        for (GroupingHome.Session s : sessions) {
            String id = UUID.nameUUIDFromBytes(s.id().getBytes(StandardCharsets.UTF_8))
                    .toString();
            uuids.put(s.id(), id);
            Path dir = home.resolve("projects").resolve(ClaudeHome.encodeCwd(s.cwd()));
            Files.createDirectories(dir);
            String ts = Instant.ofEpochMilli((long) ((s.lastActivity() - 300) * 1000))
                    .toString();
            StringBuilder sb = new StringBuilder();
            ObjectNode u = Json.MAPPER.createObjectNode();
            u.putNull("parentUuid");
            u.put("isSidechain", false)
                    .put("userType", "external")
                    .put("cwd", s.cwd())
                    .put("sessionId", id)
                    .put("version", "2.1.0");
            u.put("type", "user");
            u.putObject("message").put("role", "user").put("content", s.prompt());
            u.put("uuid", id.substring(0, 8) + "-u").put("timestamp", ts);
            sb.append(Json.MAPPER.writeValueAsString(u)).append('\n');
            ObjectNode a = Json.MAPPER.createObjectNode();
            a.put("parentUuid", id.substring(0, 8) + "-u")
                    .put("isSidechain", false)
                    .put("cwd", s.cwd())
                    .put("sessionId", id);
            ObjectNode m = a.putObject("message");
            m.put("id", "msg_" + id.substring(0, 8)).put("type", "message").put("role", "assistant");
            m.putArray("content").addObject().put("type", "text").put("text", "Here is what I found.");
            a.put("type", "assistant").put("uuid", id.substring(0, 8) + "-a").put("timestamp", ts);
            sb.append(Json.MAPPER.writeValueAsString(a)).append('\n');
            if (s.title() != null) {
                sb.append(Json.MAPPER.writeValueAsString(Json.MAPPER
                                .createObjectNode()
                                .put("type", "ai-title")
                                .put("aiTitle", s.title())
                                .put("sessionId", id)))
                        .append('\n');
            }
            Path f = dir.resolve(id + ".jsonl");
            Files.writeString(f, sb.toString());
            Files.setLastModifiedTime(f, FileTime.fromMillis((long) (s.lastActivity() * 1000)));
        }
        return uuids;
    }
}
