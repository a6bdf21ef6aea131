package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClaudeInstructionCheckTest {
    static void check(String block) {
        for (CheckFixtures.Row r : CheckFixtures.rows(block)) {
            PrecheckInput in = PrecheckInput.of(r.content());
            in = new PrecheckInput(in.content(), "claude", null, null, 0, false, null, 3, 200, true, null, null);
            assertEquals(r.status(), new ClaudeInstructionCheck().evaluate(in).status(), r.content());
        }
    }

    @Test
    void standingRulesForTheProjectOrTeamFail() {
        check("""
                fail | Always run the linter before every commit
                fail | Never push to main in this repository; the team reviews every pull request
                fail | All code must have unit tests
                fail | The project must not use default exports
                fail | 团队规范：所有代码必须经过 code review
                fail | 本项目禁止直接修改生成的代码
                """);
    }

    @Test
    void directivesWithoutAProjectScopeOnlyWarn() {
        check("""
                warn | Always use pnpm, not npm
                warn | Never run the e2e suite without the test-db container
                warn | 不要在周五部署
                """);
    }

    @Test
    void learnedFactsPass() {
        check("""
                pass | The e2e suite connects to postgres on port 5433
                pass | The user prefers short answers with code first
                pass | Stripe retries a webhook for up to three days
                pass | 支付回调的重试间隔是指数退避
                """);
    }

    @Test
    void hermesTargetsAreSkipped() {
        assertEquals(
                "skip",
                new ClaudeInstructionCheck()
                        .evaluate(PrecheckInput.of("All code must have unit tests"))
                        .status());
    }
}
