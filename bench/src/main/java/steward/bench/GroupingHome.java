package steward.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import steward.sessions.store.Sqlite;

/**
 * Generates a Hermes home whose sessions belong to known topics, for measuring topic grouping. Topics are drawn at
 * random from shared English and Chinese word pools (so topics overlap in vocabulary by chance, as real ones do): a
 * name of one or two words and a handful of aspect words. Each topic gets 2–8 sessions whose titles follow varied
 * styles ("Name aspect", "aspect in Name", "Name: aspect notes", "Name #3", untitled) and whose first prompts use the
 * topic's words in English or Chinese templates. A topic runs either in its own repository directory (then a Hermes
 * Project fits), in a monorepo it shares with other topics, or in the home directory every other session uses (then only
 * a title prefix can group it). One-off sessions on random words are noise. The truth is the topic of each session.
 */
public final class GroupingHome {
    static final String[] EN =
            ("kafka consumer docker compose kubernetes ingress postgres vacuum redis cluster terraform module "
                            + "react hooks vue router webpack bundle rust borrow lifetime tokio async python packaging poetry django migrations "
                            + "flask blueprint fastapi pydantic graphql schema grpc stream nginx proxy certbot tls ssh tunnel git rebase github actions "
                            + "jenkins pipeline ansible playbook prometheus alerts grafana dashboard elastic search opensearch logstash kibana spark job "
                            + "airflow dag pandas dataframe numpy array pytorch training tensorflow model llama finetune embedding vector sqlite index "
                            + "mysql replication mongodb shard cassandra compaction sentry errors oauth login jwt token stripe billing invoice refunds "
                            + "tax return budget spreadsheet excel macro latex thesis paper citations zotero notion obsidian vault hugo blog jekyll "
                            + "wordpress plugin shopify theme figma prototype tailwind css flexbox svg animation unity shader godot scene blender render "
                            + "arduino sensor raspberry gpio esp32 firmware bluetooth audio ffmpeg video subtitles youtube channel podcast episode "
                            + "garden tomatoes sourdough bread marathon training chess openings guitar chords japanese grammar spanish verbs travel "
                            + "itinerary visa application mortgage rates insurance claim resume interview salary negotiation wedding speech")
                    .split(" ");
    static final String[] ZH = ("显卡 驱动 安装 记忆 整理 流程 会话 分组 桌面 搜索 咨询 视频 剪辑 字幕 翻译 论文 引用 格式 简历 面试 "
                    + "薪资 谈判 旅行 行程 签证 房贷 利率 保险 理赔 健身 计划 饮食 减脂 咖啡 烘焙 面包 围棋 定式 吉他 和弦 日语 语法 "
                    + "英语 口语 写作 小说 大纲 股票 基金 定投 税务 申报 报销 发票 预算 表格 公众号 排版 直播 带货 小红书 文案 摄影 "
                    + "构图 修图 滤镜 装修 预算 家具 选购 育儿 辅食 宠物 疫苗 数据库 索引 缓存 集群 部署 容器 镜像 网关 限流 监控 告警")
            .split(" ");
    static final String[] GENERIC =
            ("question notes help issue update review fix plan idea draft check ideas summary todo setup error "
                            + "problem debugging follow progress status")
                    .split(" ");
    static final String[] ZH_GENERIC = "问题 笔记 帮助 更新 检查 计划 想法 总结 进展 错误".split(" ");

    /** What a topic is and where its sessions run. */
    record Topic(int id, boolean zh, List<String> name, List<String> aspects, String kind, String dir) {}

    /** One generated session and its true topic (-1 for a one-off). */
    public record Session(String id, String title, String prompt, String cwd, int topic, double lastActivity) {}

    /** The generated truth: sessions, and per topic whether a Hermes Project fits (its own directory). */
    public record Truth(List<Session> sessions, Map<Integer, String> topicKind) {}

    public static final String HOME_DIR = "/home/u";

    private GroupingHome() {}

    public static Truth generate(long seed, int topics, double noiseShare) {
        Random rnd = new Random(seed);
        List<Topic> ts = new ArrayList<>();
        Set<String> usedNames = new HashSet<>();
        for (int t = 0; t < topics; t++) {
            boolean zh = rnd.nextDouble() < 0.3;
            String[] pool = zh ? ZH : EN;
            List<String> name = new ArrayList<>();
            do {
                name.clear();
                int words = rnd.nextDouble() < 0.6 ? 2 : 1;
                for (int w = 0; w < words; w++) name.add(pool[rnd.nextInt(pool.length)]);
            } while (!usedNames.add(String.join(" ", name))
                    || name.size() == 2 && name.get(0).equals(name.get(1)));
            List<String> aspects = new ArrayList<>();
            while (aspects.size() < 5) {
                String a = pool[rnd.nextInt(pool.length)];
                if (!name.contains(a) && !aspects.contains(a)) aspects.add(a);
            }
            double r = rnd.nextDouble();
            String kind, dir;
            if (r < 0.3) {
                kind = "project";
                dir = HOME_DIR + "/src/" + (zh ? "proj" + t : String.join("-", name));
            } else if (r < 0.4) {
                kind = "title_prefix";
                dir = HOME_DIR + "/work/mono";
            } else {
                kind = "title_prefix";
                dir = HOME_DIR;
            }
            ts.add(new Topic(t, zh, name, aspects, kind, dir));
        }
        List<Session> out = new ArrayList<>();
        Set<String> titles = new HashSet<>();
        double now = 1786363200.0;
        int n = 0;
        Map<Integer, String> kinds = new LinkedHashMap<>();
        for (Topic t : ts) {
            kinds.put(t.id(), t.kind());
            int count = 2;
            while (count < 8 && rnd.nextDouble() < 0.55) count++;
            for (int k = 0; k < count; k++) {
                String cwd = t.kind().equals("project") && rnd.nextDouble() < 0.3
                        ? t.dir() + "/" + (rnd.nextBoolean() ? "api" : "docs")
                        : t.dir();
                out.add(session(
                        n++,
                        title(t, k, rnd, titles),
                        prompt(t, rnd),
                        cwd,
                        t.id(),
                        now - rnd.nextDouble() * 60 * 86400));
            }
        }
        int noise = (int) Math.round(out.size() * noiseShare / (1 - noiseShare));
        for (int i = 0; i < noise; i++) {
            boolean zh = rnd.nextDouble() < 0.3;
            String[] pool = zh ? ZH : EN;
            String a = pool[rnd.nextInt(pool.length)], b = pool[rnd.nextInt(pool.length)];
            String g = zh ? ZH_GENERIC[rnd.nextInt(ZH_GENERIC.length)] : GENERIC[rnd.nextInt(GENERIC.length)];
            String title = rnd.nextDouble() < 0.15 ? null : unique(zh ? a + b + g : cap(a) + " " + b + " " + g, titles);
            String prompt = zh ? "帮我看看" + a + "和" + b + "的" + g : "Can you help with " + a + " and " + b + "? " + g;
            out.add(session(
                    n++,
                    title,
                    prompt,
                    rnd.nextDouble() < 0.8 ? HOME_DIR : HOME_DIR + "/tmp",
                    -1,
                    now - rnd.nextDouble() * 60 * 86400));
        }
        // shuffle so ids do not reveal topics
        Collections.shuffle(out, rnd);
        return new Truth(out, kinds);
    }

    private static Session session(int n, String title, String prompt, String cwd, int topic, double last) {
        String id = String.format("20260%d%02d_%06d_%06x", 6 + n % 2, 1 + n % 28, n, n * 2654435761L & 0xffffff);
        return new Session(id, title, prompt, cwd, topic, last);
    }

    private static String cap(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String title(Topic t, int k, Random rnd, Set<String> titles) {
        double r = rnd.nextDouble();
        String a = t.aspects().get(rnd.nextInt(t.aspects().size()));
        String b = t.aspects().get(rnd.nextInt(t.aspects().size()));
        if (r < 0.12) return null; // untitled
        String name = t.zh() ? String.join("", t.name()) : cap(String.join(" ", t.name()));
        String title;
        if (t.zh()) {
            String g = ZH_GENERIC[rnd.nextInt(ZH_GENERIC.length)];
            title = r < 0.55 ? name + " " + a : r < 0.75 ? a + b + "（" + name + "）" : r < 0.9 ? name + a + g : name;
        } else {
            String g = GENERIC[rnd.nextInt(GENERIC.length)];
            title = r < 0.5
                    ? name + " " + a
                    : r < 0.68 ? cap(a) + " " + b + " in " + name : r < 0.85 ? name + ": " + a + " " + g : name;
        }
        return unique(title, titles);
    }

    /** Hermes keeps titles unique and numbers repeats: {@code "title #2"}. */
    private static String unique(String t, Set<String> titles) {
        String c = t;
        for (int k = 2; !titles.add(c); k++) c = t + " #" + k;
        return c;
    }

    private static String prompt(Topic t, Random rnd) {
        String a = t.aspects().get(rnd.nextInt(t.aspects().size()));
        String b = t.aspects().get(rnd.nextInt(t.aspects().size()));
        boolean useName = rnd.nextDouble() < 0.75;
        if (t.zh()) {
            String name = String.join("", t.name());
            String[] f = {"继续讨论%s的%s", "%s里的%s怎么处理？", "帮我整理一下%s：%s和" + b, "关于%s，%s还有问题"};
            return String.format(f[rnd.nextInt(f.length)], useName ? name : b, a);
        }
        String name = String.join(" ", t.name());
        String[] f = {
            "How do I handle %2$s with %1$s?",
            "Let's continue on %1$s: %2$s and " + b + ".",
            "%1$s %2$s is failing with an error, can you help?",
            "What did we decide about %2$s in %1$s?",
            "Summarise the %2$s part of %1$s for me"
        };
        return String.format(f[rnd.nextInt(f.length)], useName ? name : b, a);
    }

    /** Writes the sessions into {@code home/state.db} (Hermes' schema, copied from a reference state.db) with one user and one assistant message each. */
    public static void write(Path home, List<Session> sessions, Path referenceDb) throws Exception {
        Files.createDirectories(home);
        Path db = home.resolve("state.db");
        HermesDbBuilder.create(db, HermesDbBuilder.schema(referenceDb));
        try (Connection c = Sqlite.openReadWrite(db)) {
            Sqlite.immediate(c, x -> {
                try (PreparedStatement s = x.prepareStatement(
                                "INSERT INTO sessions (id, source, title, started_at, ended_at, end_reason, "
                                        + "message_count, cwd) VALUES (?, 'cli', ?, ?, ?, 'cli_close', 2, ?)");
                        PreparedStatement m = x.prepareStatement(
                                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                    for (Session ss : sessions) {
                        s.setString(1, ss.id());
                        s.setString(2, ss.title());
                        s.setDouble(3, ss.lastActivity() - 600);
                        s.setDouble(4, ss.lastActivity() + 60);
                        s.setString(5, ss.cwd());
                        s.executeUpdate();
                        m.setString(1, ss.id());
                        m.setString(2, "user");
                        m.setString(3, ss.prompt());
                        m.setDouble(4, ss.lastActivity() - 300);
                        m.executeUpdate();
                        m.setString(2, "assistant");
                        m.setString(3, "Here is what I found.");
                        m.setDouble(4, ss.lastActivity());
                        m.executeUpdate();
                    }
                }
                return null;
            });
        }
    }
}
