package steward.memory.precheck;

import org.junit.jupiter.api.Test;

class ProcedureCheckTest {
    @Test
    void stepsCommandsAndSequencesFail() {
        CheckFixtures.check(new ProcedureCheck(), """
                fail | To deploy: run make build, then scp dist/ to web01, then systemctl restart app
                fail | 1. Bump the version\\n2. Tag the commit\\n3. Push the tag
                fail | Steps: 1) export the DB 2) upload the dump 3) notify the team
                fail | [ops] certbot renew && systemctl reload nginx
                fail | [ops] Password reset: open the Django shell, get the user, call set_password, save
                fail | [ops] 发布流程：先打 tag，再推送到 GitLab，然后等 CI 通过，最后在群里通知
                fail | [ops] 重建索引：运行 ./manage.py rebuild_index，然后用 curl 预热缓存
                """);
    }

    @Test
    void factsNamingToolsAndOneLineRulesPass() {
        CheckFixtures.check(new ProcedureCheck(), """
                pass | [env] pnpm is the only allowed package manager
                pass | [ops] kubectl context for prod is named prod-eu
                pass | [rule] Deploys go through the pipeline, never by hand
                pass | [rule] 磁盘告警时先清 /var/log，再看别的
                pass | 用户喜欢简洁、先说结论的回答，遇到不确定的地方先说明假设再给出方案
                """);
    }
}
