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
                # a fix told in the past tense without an auxiliary: at the start of a sentence, or dated
                fail | Fixed the replication lag on db04 yesterday by raising wal_keep_size
                fail | [ops] Resolved the cert-manager renewal failure on staging
                fail | [ops] db04 replica lag fixed on 2026-12-03 (wal_keep_size 4GB)
                fail | [ops] The flaky e2e test was quarantined; patched it last week
                fail | [ops] Yesterday we repaired the broken backup cron on db05
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
                pass | [rule] Resolved incidents need a postmortem within two days
                pass | [env] Fixed-width fonts only in the terminal
                pass | [env] The VPN gateway got a fixed IP on Monday: 203.0.113.9
                pass | [rule] Replication lag on db04 must be fixed before any failover
                """);
    }
}
