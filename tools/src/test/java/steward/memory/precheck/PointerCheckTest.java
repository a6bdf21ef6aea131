package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PointerCheckTest {
    final PointerCheck check = new PointerCheck();

    @Test
    void longTextThatNamesWhereItLivesOrThatASkillMostlyCarriesFails() {
        CheckFixtures.check(check, """
                fail | [ops] The payments release has many rollback and alerting rules; the full text is in the ops handbook, see docs/ops/payments-release.md
                fail | [ops] 支付服务发布时的回滚步骤、灰度比例和告警阈值都很多，完整说明详见 docs/ops/payments-release.md
                fail | [rule] Our review policy (reviewers, approvals, what blocks a merge) is documented in CONTRIBUTING.md; read it first
                """);
        assertEquals(
                "fail",
                check.evaluate(CheckFixtures.with(
                                "[ops] embedder is e5-small; patch it per the notes",
                                "skill",
                                "skills/x/SKILL.md:5",
                                0.6,
                                false))
                        .status());
    }

    @Test
    void aShortMentionOrAFullCoverIsNotAPointer() {
        CheckFixtures.check(check, """
                pass | [ops] Runbooks live in the SRE wiki space
                pass | [ops] MinIO console is at http://minio.lan:9001
                pass | [ops] 运维手册在 Confluence 的 SRE 空间
                """);
        assertEquals(
                "pass",
                check.evaluate(CheckFixtures.with(
                                "[ops] embedder is e5-small; patch it per the notes", "skill", "s", 0.9, false))
                        .status(),
                "a full cover is already_covered, not a pointer");
        assertEquals(
                "pass",
                check.evaluate(CheckFixtures.with(
                                "[ops] embedder is e5-small; patch it per the notes",
                                "memory",
                                "MEMORY.md entry 2",
                                0.6,
                                false))
                        .status(),
                "a partial entry match is no pointer");
    }
}
