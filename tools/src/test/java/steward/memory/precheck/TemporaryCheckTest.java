package steward.memory.precheck;

import org.junit.jupiter.api.Test;

class TemporaryCheckTest {
    @Test
    void todosAndProgressFail() {
        CheckFixtures.check(new TemporaryCheck(), """
                fail | TODO: finish the migration script
                fail | Progress: 3 of 5 services moved
                fail | Waiting on legal before we can ship
                fail | Still have to write the README before Friday
                fail | 待办：明天把迁移脚本写完
                fail | 性能测试报告还没写完，周一继续
                fail | 导出功能要等法务确认后再上线
                """);
    }

    @Test
    void rulesAboutTodosNamesAndSchedulesPass() {
        CheckFixtures.check(new TemporaryCheck(), """
                pass | [rule] Every TODO comment must carry an issue number
                pass | [ops] The todo-api service listens on port 8000
                pass | [env] Sprints start on Monday and last two weeks
                pass | [ops] 待办系统 TodoHub 部署在 tools 命名空间
                pass | [env] 每周一上午十点站会
                """);
    }
}
