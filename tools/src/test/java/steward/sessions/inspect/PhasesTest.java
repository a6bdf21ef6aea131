package steward.sessions.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import steward.text.TitleAnalyzer;

class PhasesTest {
    /** One message per line: {@code seconds | U or A | text}. */
    static List<Phases.Mark> marks(String table) {
        List<Phases.Mark> out = new ArrayList<>();
        for (String line : table.strip().split("\n")) {
            String[] c = line.split("\\|", 3);
            boolean user = c[1].strip().equals("U");
            String text = c[2].strip();
            out.add(new Phases.Mark(
                    Double.parseDouble(c[0].strip()), user, 0, user ? TitleAnalyzer.tokens(text) : List.of(), text));
        }
        return out;
    }

    static List<String> split(String table) {
        List<Phases.Mark> m = marks(table);
        return Phases.split(m, 1800).stream()
                .map(s -> s.from() + "-" + s.to() + " " + s.startedBy())
                .toList();
    }

    @Test
    void aPauseStartsAPhase() {
        assertEquals(List.of("0-1 start", "2-3 pause"), split("""
                0    | U | postgres vacuum tuning
                30   | A | answer
                1830 | U | postgres vacuum again
                1860 | A | answer
                """));
        // just under the threshold: one phase
        assertEquals(List.of("0-3 start"), split("""
                0    | U | postgres vacuum tuning
                30   | A | answer
                1829 | U | postgres vacuum again
                1860 | A | answer
                """));
    }

    @Test
    void aTopicShiftNeedsNewWordsThatTheNextTurnFollows() {
        assertEquals(List.of("0-3 start", "4-7 topic_shift"), split("""
                0   | U | postgres vacuum tuning for the orders table
                10  | A | answer
                20  | U | and autovacuum thresholds for postgres
                30  | A | answer
                40  | U | plan a hiking weekend in zermatt
                50  | A | answer
                60  | U | which zermatt trails suit hiking beginners
                70  | A | answer
                """));
        // the next turn goes back to the old topic: a digression, not a phase
        assertEquals(List.of("0-5 start"), split("""
                0   | U | postgres vacuum tuning for the orders table
                10  | A | answer
                20  | U | plan a hiking weekend in zermatt
                30  | A | answer
                40  | U | back to postgres vacuum tuning settings
                50  | A | answer
                """));
        // short turns never shift ("ok thanks", "go on")
        assertEquals(List.of("0-3 start"), split("""
                0   | U | postgres vacuum tuning for the orders table
                10  | A | answer
                20  | U | ok thanks
                30  | A | answer
                """));
        // a shift in the last turn of the session counts
        assertEquals(List.of("0-1 start", "2-3 topic_shift"), split("""
                0   | U | postgres vacuum tuning for the orders table
                10  | A | answer
                20  | U | plan a hiking weekend in zermatt
                30  | A | answer
                """));
    }

    @Test
    void keywordsAreTheMostUsedWords() {
        List<Phases.Mark> m = marks("""
                0   | U | now postgres vacuum tuning
                10  | U | postgres autovacuum and vacuum
                20  | U | postgres again
                """);
        assertEquals(List.of("postgres", "vacuum", "tuning"), Phases.keywords(m, new Phases.Span(0, 2, "start")));
    }
}
