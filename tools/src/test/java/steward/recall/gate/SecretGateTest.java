package steward.recall.gate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretGateTest {
    final Gate gate = new SecretGate();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx",
                "the db password: hunter2hunter2",
                "token = ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                "aws AKIAIOSFODNN7EXAMPLE in the env",
                "-----BEGIN OPENSSH PRIVATE KEY-----",
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmno",
                "服务器密码：Zx9#kq2!"
            })
    void dropsItemsThatLookLikeSecrets(String text) {
        assertNotNull(gate.drop(GateTestSupport.item("steward://memory/memory/1", text), GateTestSupport.EMPTY), text);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Rotate the API key every 90 days",
                "passwords live in the vault, never in memory",
                "用户偏好：中文回答，代码注释用英文",
                "the token budget is 2400 characters"
            })
    void keepsOrdinaryTextAboutSecrets(String text) {
        assertNull(gate.drop(GateTestSupport.item("steward://memory/memory/1", text), GateTestSupport.EMPTY), text);
    }
}
