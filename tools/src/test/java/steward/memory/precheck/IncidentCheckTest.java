package steward.memory.precheck;

import org.junit.jupiter.api.Test;

class IncidentCheckTest {
    @Test
    void storiesOfFailuresFail() {
        CheckFixtures.check(new IncidentCheck(), """
                fail | On 3 May the deploy failed because the disk filled up; we cleaned /var/log and restarted nginx
                fail | Last Friday the payments API went down for 40 minutes
                fail | Spent two hours debugging the login loop; it turned out the cookie domain was wrong
                fail | 上周五数据库主从切换失败，排查后发现是复制延迟太大
                fail | [ops] 8 月 3 日发布失败，原因是磁盘满了
                """);
    }

    @Test
    void standingRulesAndFactsAboutIncidentsPass() {
        CheckFixtures.check(new IncidentCheck(), """
                pass | [ops] Incident channel is #inc-bridge on Slack
                pass | [ops] Postmortems are written within 48 hours
                pass | [ops] 故障期间对外沟通统一由值班经理负责
                pass | [ops] When the disk fills on web01, clean /var/log first
                """);
    }
}
