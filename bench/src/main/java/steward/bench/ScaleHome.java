package steward.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import steward.json.Json;
import steward.sessions.store.Sqlite;

/**
 * A generated Hermes home for the recall scale benchmark: {@code state.db} in Hermes' own schema (replayed from the
 * fixture, so Hermes' FTS5 triggers fill {@code messages_fts} and {@code messages_fts_trigram} as Hermes would), sessions
 * of 2–80 turns with user, assistant and tool rows, about one session in five in Chinese, realistic lengths (a user turn
 * 20–400 characters, an assistant answer 80–2,000 with a long tail, tool output not indexed by recall), two years of
 * timestamps, and a memory file. Deterministic for a seed; reused when {@code state.db} already holds the size asked for.
 */
final class ScaleHome {
    private ScaleHome() {}

    static final String[] TOPICS = {
        "docker",
        "kubernetes",
        "postgres",
        "nginx",
        "react",
        "python",
        "rust",
        "terraform",
        "grafana",
        "prometheus",
        "kafka",
        "redis",
        "elasticsearch",
        "ansible",
        "jenkins",
        "webpack",
        "typescript",
        "golang",
        "java",
        "spark",
        "backup",
        "restic",
        "zfs",
        "raid",
        "vpn",
        "wireguard",
        "ssh",
        "tmux",
        "neovim",
        "emacs",
        "git",
        "rebase",
        "cherry-pick",
        "sourdough",
        "espresso",
        "ramen",
        "marathon",
        "cycling",
        "bouldering",
        "yoga",
        "guitar",
        "piano",
        "photography",
        "aquarium",
        "bonsai",
        "tax",
        "mortgage",
        "budget",
        "invoice",
        "passport",
        "visa",
        "flight",
        "hotel",
        "itinerary",
        "museum",
        "garden",
        "compost",
        "solar",
        "battery",
        "thermostat",
        "router",
        "firmware",
        "printer",
        "laptop",
        "monitor",
        "keyboard",
        "headphones"
    };
    static final String[] VERBS = {
        "configure",
        "debug",
        "migrate",
        "deploy",
        "benchmark",
        "upgrade",
        "rollback",
        "profile",
        "refactor",
        "schedule",
        "automate",
        "document",
        "monitor",
        "secure",
        "optimise",
        "replace",
        "install",
        "compare",
        "plan",
        "clean up"
    };
    static final String[] THINGS = {
        "the staging cluster",
        "the home server",
        "my laptop",
        "the CI pipeline",
        "the database",
        "the nightly job",
        "the reverse proxy",
        "the mobile app",
        "the API gateway",
        "the build cache",
        "the NAS",
        "the garden beds",
        "the weekend trip",
        "the monthly budget",
        "the training plan",
        "the recipe",
        "the photo library",
        "the team wiki"
    };
    static final String[] NAMES = {
        "Lena", "Marco", "Priya", "Tomás", "Aiko", "Jonas", "Fatima", "Grace", "Ivan", "Chen", "Olu", "Sofia", "Mateo",
        "Hana", "Noor", "Elias", "Zara", "Ravi", "Maya", "Leon"
    };
    static final String[] PLACES = {
        "Porto",
        "Kyoto",
        "Lisbon",
        "Oslo",
        "Tbilisi",
        "Hanoi",
        "Quito",
        "Tallinn",
        "Cusco",
        "Bergen",
        "Valencia",
        "Seoul",
        "Krakow",
        "Accra",
        "Dublin",
        "Hobart"
    };
    static final String[] EN_USER = {
        "How do I %v %t without downtime?", "Can you help me %v %t? It keeps failing with a timeout.",
        "I want to %v %t this weekend, what should I check first?", "Remind me what we decided about %p for %t.",
        "%n said we should %v %t before the release, is that right?", "What's the best way to %v %t with %p?",
        "I tried %p but %t still breaks after a restart.", "Write a short checklist to %v %t.",
        "My %p setup is slow again, any idea why?", "We're going to %c next month with %n, can you help plan it?",
        "Note for later: %n prefers %p over the old setup.", "Why does %t need %p at all?"
    };
    static final String[] EN_ASSISTANT = {
        "To %v %t, start by checking the %p configuration and the logs from the last run.",
        "The usual cause is a stale %p cache; clearing it and restarting %t fixes it in most cases.",
        "You can %v %t in three steps: back it up, apply the change with %p, then verify the result.",
        "Based on what you told me earlier, %n prefers %p, so I would keep that as the default.",
        "A safer approach is to %v %t on a copy first and compare the output before switching over.",
        "If the timeout persists, raise the limit in the %p settings and watch the metrics for an hour.",
        "For the trip to %c, book the flight early and keep a day free in case of delays.",
        "I recommend writing the decision down: we agreed to %v %t every Sunday with %p.",
        "The error comes from %p rejecting the request; the fix is to update the credentials used by %t.",
        "Here is a plan: first %v %t, then document the steps in the wiki so %n can repeat them.",
        "Keep an eye on disk usage; %p tends to grow quickly when %t runs every night.",
        "Both options work, but %p is simpler to maintain for %t in the long run."
    };
    static final String[] ZH_USER = {
        "怎么配置%p才能让%t更稳定？",
        "帮我看看%t为什么总是超时。",
        "上次我们决定用%p做什么来着？",
        "周末想%v一下%t，先检查哪些地方？",
        "%n说%p比原来的方案好，是真的吗？",
        "给我写一个%p的备份计划。",
        "去%c旅行要准备什么？"
    };
    static final String[] ZH_ASSISTANT = {
        "可以先检查%p的配置，再看%t最近的日志。",
        "常见原因是%p的缓存过期，清理后重启%t一般就能解决。",
        "建议分三步：先备份，再用%p修改，最后验证%t的结果。",
        "根据你之前说的，%n更喜欢%p，所以默认保留这个方案。",
        "去%c的话，提前订机票，并留出一天的机动时间。",
        "我们之前约定每周日用%p检查一次%t。",
        "如果还是超时，把%p的上限调高，然后观察一小时的监控。"
    };
    static final String[] ZH_TOPICS = {
        "备份", "数据库", "服务器", "路由器", "相机", "预算", "机票", "酒店", "花园", "咖啡", "跑步", "钢琴", "报税", "发票", "防火墙", "容器", "集群", "日志",
        "监控", "脚本"
    };

    /**
     * Real text to draw from, so that the vocabulary is natural (Zipfian, thousands of words) rather than a few hundred
     * template words, which would make every query term match a large share of the history: the turns of the LoCoMo
     * dialogues, the comment lines of Hermes' own source, and the sentences of the (Chinese) seed documents, all from
     * {@code ../shared}. Empty lists when they are not there (the templates alone are used then).
     */
    record Pools(List<String> chat, List<String> tech, List<String> zh) {
        static Pools load(Path shared) {
            List<String> chat = new ArrayList<>(), tech = new ArrayList<>(), zh = new ArrayList<>();
            try {
                Path locomo = shared.resolve("data/locomo/locomo-dev.json");
                if (Files.isRegularFile(locomo)) {
                    tools.jackson.databind.JsonNode root = Json.MAPPER.readTree(Files.readAllBytes(locomo));
                    for (tools.jackson.databind.JsonNode c : root) {
                        for (var it = c.path("conversation").properties().iterator(); it.hasNext(); ) {
                            var e = it.next();
                            if (!e.getValue().isArray()) continue;
                            for (tools.jackson.databind.JsonNode t : e.getValue()) {
                                String x = t.path("text").asString("");
                                if (x.length() > 15) chat.add(x);
                            }
                        }
                    }
                }
                Path src = shared.resolve("hermes-src");
                if (Files.isDirectory(src)) {
                    try (var files = Files.walk(src)) {
                        for (Path f :
                                files.filter(f -> f.toString().endsWith(".py")).toList()) {
                            for (String l : Files.readAllLines(f)) {
                                String t = l.strip();
                                if (t.startsWith("#") && t.length() > 40)
                                    tech.add(t.substring(1).strip());
                            }
                        }
                    }
                }
                Path seeds = shared.resolve("seeds");
                if (Files.isDirectory(seeds)) {
                    try (var files = Files.list(seeds)) {
                        for (Path f : files.toList()) {
                            for (String sentence : Files.readString(f).split("[。！？\\n]")) {
                                String t =
                                        sentence.replaceAll("^[+\\s#>*|-]+", "").strip();
                                if (t.length() >= 8
                                        && t.codePoints()
                                                        .filter(cp -> Character.UnicodeScript.of(cp)
                                                                == Character.UnicodeScript.HAN)
                                                        .count()
                                                > t.length() / 3) {
                                    zh.add(t + "。");
                                }
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the templates alone
            }
            return new Pools(chat, tech, zh);
        }

        String describe() {
            return chat.size() + " LoCoMo turns, " + tech.size() + " Hermes source comments, " + zh.size()
                    + " seed sentences";
        }
    }

    static Pools pools = new Pools(List.of(), List.of(), List.of());

    /** Creates (or reuses) a home with about {@code messages} rows in {@code messages}; returns its path. */
    static Path create(Path dir, int messages, long seed, List<String> schema) throws Exception {
        Path home = dir.resolve("hermes-home");
        Path db = home.resolve("state.db");
        if (Files.isRegularFile(db)) {
            try (Connection c = Sqlite.openReadOnly(db);
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM messages")) {
                if (rs.next() && rs.getLong(1) >= messages) return home;
            }
            Files.delete(db);
        }
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(
                home.resolve("memories/MEMORY.md"),
                String.join(
                        "\n§\n",
                        "[env] Home server runs Debian 12; backups with restic to the NAS every night at 02:00",
                        "[rule] Before editing the staging cluster: snapshot first, announce in the team channel",
                        "[ops] Grafana dashboards live in the infra repo under dashboards/",
                        "用户偏好：中文回答，代码注释用英文"));
        HermesDbBuilder.create(db, schema);
        Random rnd = new Random(seed);
        double start = 1.72e9; // mid 2024
        double span = 2 * 365 * 86400.0;
        try (Connection c = Sqlite.openOwned(db)) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO sessions (id, source, started_at, ended_at, message_count, title) VALUES (?,?,?,?,?,?)");
                    PreparedStatement pm = c.prepareStatement(
                            "INSERT INTO messages (session_id, role, content, timestamp, tool_name) VALUES (?,?,?,?,?)")) {
                int written = 0, session = 0;
                while (written < messages) {
                    int len =
                            Math.min(messages - written, 2 + (int) Math.min(78, -Math.log(1 - rnd.nextDouble()) * 16));
                    boolean zh = rnd.nextInt(5) == 0;
                    double t = start + span * written / messages;
                    String sid = String.format("bench_%07d", session++);
                    String topic = zh ? pick(rnd, ZH_TOPICS) : pick(rnd, TOPICS);
                    ps.setString(1, sid);
                    ps.setString(2, rnd.nextInt(4) == 0 ? "telegram" : "cli");
                    ps.setDouble(3, t);
                    ps.setDouble(4, t + len * 40.0);
                    ps.setInt(5, len);
                    ps.setString(6, (zh ? topic + " 讨论 " : topic + " notes ") + session);
                    ps.executeUpdate();
                    for (int i = 0; i < len; i++) {
                        String role;
                        String text;
                        String tool = null;
                        if (i % 2 == 0) {
                            role = "user";
                            text = zh
                                    ? zhTurn(rnd, ZH_USER, topic, 1 + rnd.nextInt(2))
                                    : enTurn(rnd, EN_USER, topic, 1 + rnd.nextInt(3));
                        } else if (rnd.nextInt(6) == 0) {
                            role = "tool";
                            tool = pick(rnd, new String[] {"terminal", "read_file", "web_search"});
                            text = "{\"exit_code\": 0, \"output\": \""
                                    + enTurn(rnd, EN_ASSISTANT, topic, 2).replace("\"", "'") + "\"}";
                        } else {
                            role = "assistant";
                            int sentences = 1 + (int) Math.min(24, -Math.log(1 - rnd.nextDouble()) * 4);
                            text = zh
                                    ? zhTurn(rnd, ZH_ASSISTANT, topic, sentences)
                                    : enTurn(rnd, EN_ASSISTANT, topic, sentences);
                            if (!zh && rnd.nextInt(8) == 0)
                                text += "\n\n```bash\n" + topic + " "
                                        + pick(rnd, VERBS).replace(' ', '-') + " --config /etc/" + topic + ".conf\n```";
                        }
                        pm.setString(1, sid);
                        pm.setString(2, role);
                        pm.setString(3, text);
                        pm.setDouble(4, t + i * 40.0);
                        pm.setString(5, tool);
                        pm.addBatch();
                        written++;
                    }
                    if (session % 200 == 0) {
                        pm.executeBatch();
                        c.commit();
                    }
                }
                pm.executeBatch();
            }
            c.commit();
        }
        return home;
    }

    static String pick(Random r, String[] a) {
        return a[r.nextInt(a.length)];
    }

    static String fill(Random r, String tpl, String topic, boolean zh) {
        String p = zh ? pick(r, ZH_TOPICS) : pick(r, TOPICS);
        return tpl.replace("%v", zh ? "整理" : pick(r, VERBS))
                .replace("%t", zh ? topic : r.nextBoolean() ? topic : pick(r, THINGS))
                .replace("%p", r.nextInt(3) == 0 ? topic : p)
                .replace("%n", pick(r, NAMES))
                .replace("%c", pick(r, PLACES));
    }

    /** Sentences: a template about the session's topic one time in three, else real text (chat for users, chat and source comments for the assistant). */
    static String enTurn(Random r, String[] tpls, String topic, int sentences) {
        StringBuilder b = new StringBuilder();
        boolean user = tpls == EN_USER;
        for (int i = 0; i < sentences; i++) {
            if (i > 0) b.append(i % 4 == 0 ? "\n\n" : " ");
            int k = r.nextInt(3);
            if (k == 0 || pools.chat().isEmpty()) b.append(fill(r, pick(r, tpls), topic, false));
            else if (k == 1 || user || pools.tech().isEmpty())
                b.append(pools.chat().get(r.nextInt(pools.chat().size())));
            else b.append(pools.tech().get(r.nextInt(pools.tech().size())));
        }
        return b.toString();
    }

    static String zhTurn(Random r, String[] tpls, String topic, int sentences) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sentences; i++) {
            if (r.nextInt(3) == 0 || pools.zh().isEmpty()) b.append(fill(r, pick(r, tpls), topic, true));
            else b.append(pools.zh().get(r.nextInt(pools.zh().size())));
        }
        return b.toString();
    }

    /** Queries: words of random real messages (English and Chinese), named people and places, and a few about nothing stored. */
    static List<String> queries(Path db, int n, long seed) throws Exception {
        Random rnd = new Random(seed);
        List<String> out = new ArrayList<>();
        long max;
        try (Connection c = Sqlite.openReadOnly(db);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT MAX(id) FROM messages")) {
                rs.next();
                max = rs.getLong(1);
            }
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT content FROM messages WHERE id >= ? AND role = 'user' LIMIT 1")) {
                while (out.size() < n) {
                    int kind = out.size() % 10;
                    if (kind == 8) {
                        out.add("What did " + pick(rnd, NAMES) + " say about " + pick(rnd, TOPICS) + "?");
                        continue;
                    }
                    if (kind == 9) {
                        out.add(pick(rnd, new String[] {"trip to ", "flight to ", "去"})
                                + pick(rnd, PLACES)
                                + (rnd.nextBoolean() ? " plans" : ""));
                        continue;
                    }
                    ps.setLong(1, 1 + (long) (rnd.nextDouble() * max));
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) continue;
                        String text = rs.getString(1);
                        out.add(excerpt(text, rnd));
                    }
                }
            }
        }
        return out;
    }

    /** A few words of a message: 3–6 English words, or 4–8 Chinese characters. */
    static String excerpt(String text, Random rnd) {
        boolean cjk = text.codePoints().anyMatch(cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN);
        if (cjk) {
            String han = text.replaceAll("[^\\p{IsHan}]", "");
            int len = Math.min(han.length(), 4 + rnd.nextInt(5));
            int at = han.length() - len <= 0 ? 0 : rnd.nextInt(han.length() - len);
            return han.substring(at, at + len);
        }
        String[] w = text.replaceAll("[^A-Za-z\\s-]", " ").strip().split("\\s+");
        int len = Math.min(w.length, 3 + rnd.nextInt(4));
        int at = w.length - len <= 0 ? 0 : rnd.nextInt(w.length - len);
        return String.join(" ", Arrays.copyOfRange(w, at, at + len));
    }
}
