package steward.sessions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import steward.json.Json;
import steward.testing.RealHermes;

/** A rename is stored as Hermes' own sanitize_title stores a title: checked against the real Hermes. */
class HermesTitleTest {
    @Test
    void matchesHermesSanitizeTitleForTitlesWithoutControlCharacters() throws Exception {
        RealHermes hermes = RealHermes.require();
        String[] pool = {
            "a",
            "B",
            " ",
            "\t",
            "\n",
            "\r",
            "\u00a0",
            "\u3000",
            "\u200b",
            "\u200d",
            "\u202e",
            "\u2066",
            "\u2069",
            "\u2028",
            "\u2029",
            "\ufeff",
            "\ufffc",
            "\ufff9",
            "\u0085",
            "\u1680",
            "\u2003",
            "🚀",
            "👩‍👩‍👧",
            "مرحبا",
            "中文",
            "#2"
        };
        List<String> titles =
                new ArrayList<>(List.of("  padded  ", "a    b", "\u202eevil\u200b  title\t\u2066x\u2069 "));
        Random r = new Random(7);
        for (int i = 0; i < 300; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = 1 + r.nextInt(12); n > 0; n--) sb.append(pool[r.nextInt(pool.length)]);
            titles.add(sb.toString());
        }
        try (RealHermes.Driver d = hermes.start("sanitize_title.py")) {
            for (String t : titles) {
                var answer = Json.MAPPER.readTree(d.send(Json.MAPPER.writeValueAsString(t)));
                String hermesStores = answer.isNull() ? "" : answer.asString();
                assertEquals(
                        hermesStores, ApplyEngine.hermesTitle(t), () -> "title " + Json.MAPPER.writeValueAsString(t));
            }
        }
    }
}
