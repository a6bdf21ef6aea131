package steward.sessions.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.config.StewardPaths;
import steward.sessions.HermesRows;
import steward.testing.TestHomes;

/**
 * One shared keyword is a weak match, two are strong — in Chinese as in English: the overlapping bigrams of one shared
 * Chinese word ("数据" + "据库" of 数据库) are one keyword, and generic words (讨论, like "discuss") match nothing.
 */
class SharedWordStrengthTest {
    @TempDir
    Path tmp;

    /** Active titled sessions added to the fixture home. */
    static final String TITLES = """
            zh-db      | 数据库备份策略讨论
            zh-deploy  | 部署前端到生产环境
            en-db      | Database backup strategy discussion
            en-deploy  | Deploy the frontend to production
            """;

    /**
     * request | title | expected strength (none: not a match) | matched keywords (comma-separated; - for none). A run
     * shared contiguously is one keyword however long (数据库备份); the same characters in another order are two.
     */
    static final String CASES = """
            数据库连接池配置              | 数据库备份策略讨论      | weak   | 数据库
            database connection pool settings | Database backup strategy discussion | weak | database
            生产环境的监控告警            | 部署前端到生产环境      | weak   | 生产环境
            monitoring alerts for the production environment | Deploy the frontend to production | weak | production
            周末讨论一下去哪里玩          | 数据库备份策略讨论      | none   | -
            let's discuss where to go this weekend | Database backup strategy discussion | none | -
            数据库备份失败了              | 数据库备份策略讨论      | weak   | 数据库备份
            备份数据库                    | 数据库备份策略讨论      | strong | 备份,数据库
            数据库的备份                  | 数据库备份策略讨论      | strong | 数据库,备份
            database backup failed        | Database backup strategy discussion | strong | database,backup
            把前端部署到生产环境          | 部署前端到生产环境      | strong | 前端,部署,到生产环境
            deploy the frontend to production again | Deploy the frontend to production | strong | deploy,frontend,production
            """;

    record Case(String request, String title, String strength, List<String> keywords) {}

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (String line : CASES.strip().split("\n")) {
            String[] f = line.split("\\|");
            String kw = f[3].strip();
            out.add(new Case(
                    f[0].strip(), f[1].strip(), f[2].strip(), kw.equals("-") ? List.of() : List.of(kw.split(","))));
        }
        return out;
    }

    PrecheckEngine engine() throws Exception {
        Path home = TestHomes.copyFixture(tmp);
        HermesRows rows = HermesRows.into(home.resolve("state.db"));
        double now = TestHomes.NOW.getEpochSecond();
        for (String line : TITLES.strip().split("\n")) {
            String[] f = line.split("\\|");
            rows.chat("precheck-" + f[0].strip(), "cli", f[1].strip(), false, 4, now - 3600);
        }
        rows.write();
        return new PrecheckEngine(StewardPaths.of(home), TestHomes.CLOCK);
    }

    @Test
    void oneSharedWordIsWeakInChineseAsInEnglish() throws Exception {
        PrecheckEngine e = engine();
        List<String> wrong = new ArrayList<>();
        for (Case c : cases()) {
            String locale = c.request().codePoints().anyMatch(steward.text.TitleAnalyzer::isCjk) ? "zh" : "en";
            PrecheckEngine.Result r = e.precheck(c.request(), TestHomes.NOW, locale, 50);
            Optional<PrecheckEngine.Match> m = r.matches().stream()
                    .filter(x -> x.title().equals(c.title()))
                    .findFirst();
            String got = m.map(PrecheckEngine.Match::strength).orElse("none");
            List<String> kws = m.map(PrecheckEngine.Match::matched_keywords).orElse(List.of());
            if (!got.equals(c.strength()) || !kws.equals(c.keywords()))
                wrong.add(c.request() + " vs " + c.title() + ": expected " + c.strength() + " " + c.keywords()
                        + ", got " + got + " " + kws + " (keywords " + r.keywords() + ")");
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void aGenericWordAloneAsksNothing() throws Exception {
        PrecheckEngine.Result r = engine().precheck("周末讨论一下去哪里玩", TestHomes.NOW, "zh", 50);
        assertEquals(0, r.match_count(), r.toString());
        assertNull(r.suggested_question());
    }
}
