package steward.memory.precheck;

import org.junit.jupiter.api.Test;

class HistoryCheckTest {
    @Test
    void pastAlreadyFixedStatesFail() {
        CheckFixtures.check(new HistoryCheck(), """
                fail | The login redirect bug was fixed in v2.3
                fail | The CORS error is solved now
                fail | [ops] Jenkins was replaced by GitHub Actions last year
                fail | We used to deploy with Capistrano
                fail | 导出任务的内存泄漏已经修复
                fail | 之前 API 部署在 Heroku 上
                fail | [ops] Jenkins 去年已经被 GitHub Actions 取代
                """);
    }

    @Test
    void currentFactsAndCurrentPreferencesPass() {
        CheckFixtures.check(new HistoryCheck(), """
                pass | User no longer wants emoji in replies
                pass | 用户不再需要每次回答后的总结
                pass | [env] The test server has a fixed IP 203.0.113.7
                pass | [rule] 修复线上问题必须先写回归测试
                pass | [rule] 修改 config.yaml 之前先备份
                """);
    }
}
