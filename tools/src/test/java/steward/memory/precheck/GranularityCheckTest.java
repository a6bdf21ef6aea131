package steward.memory.precheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class GranularityCheckTest {
    @Test
    void severalUnitsOrTooLongFail() {
        CheckFixtures.check(new GranularityCheck(), """
                fail | [env] NAS at 10.0.0.5; printer is an HP M404; the Wi-Fi password rotates monthly
                fail | [ops] Redis is on cache01. Kafka has three brokers. Sentry ids are 12, 13 and 14.
                fail | 用户喜欢深色模式。使用双拼输入法。不喜欢长会议。
                """);
        CheckFixtures.check(new GranularityCheck(), "fail | " + "用户".repeat(51));
        CheckFixtures.check(new GranularityCheck(), "fail | " + "x".repeat(201));
    }

    @Test
    void dotsInsideVersionsAddressesAndFileNamesEndNoSentence() {
        CheckFixtures.check(new GranularityCheck(), """
                pass | [env] Python 3.12 via uv; never use system pip
                pass | [env] Office IP is 192.168.1.50 (as of 2026-08)
                pass | [ops] 线上 Nginx 配置在 /etc/nginx/conf.d/app.conf
                pass | [rule] Never cat ~/.ssh or .env files into the chat
                pass | [env] Prefers vim keybindings everywhere, e.g. in VS Code and the shell
                """);
        CheckFixtures.check(new GranularityCheck(), "pass | " + "x".repeat(200));
        assertEquals(List.of("One thing.", "Another thing."), GranularityCheck.units("One thing. Another thing."));
    }
}
