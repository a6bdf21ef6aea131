package steward.recall;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TimeMentionTest {
    static double at(String date) {
        return LocalDate.parse(date).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
    }

    @Test
    void monthAndYearMatchItemsDatedThenOrShortlyAfter() {
        TimeMention t = TimeMention.parse("What setback did Melanie face in October 2023?");
        assertEquals(2023, t.year());
        assertEquals(10, t.month());
        assertTrue(t.matches(at("2023-10-20")));
        assertTrue(t.matches(at("2023-11-15")), "told a few weeks later");
        assertFalse(t.matches(at("2023-12-20")));
        assertFalse(t.matches(at("2022-10-20")));
    }

    @Test
    void dayMonthYearAndChineseDates() {
        TimeMention t = TimeMention.parse("What happened on 7 July, 2023?");
        assertEquals(7, t.month());
        assertEquals(2023, t.year());
        TimeMention c = TimeMention.parse("2024年3月我们决定了什么？");
        assertEquals(2024, c.year());
        assertEquals(3, c.month());
    }

    @Test
    void aNamedDayMatchesThatDayAndTwoDaysAfterAndBoostsMoreThanItsMonth() {
        for (String q :
                new String[] {"What dish did Nate make on 9 November, 2022?", "What did we fix on November 9th 2022?"
                }) {
            TimeMention t = TimeMention.parse(q);
            assertEquals(9, t.day(), q);
            assertTrue(t.matchesDay(at("2022-11-09") + 3600), q);
            assertTrue(t.matchesDay(at("2022-11-11") + 3600), q);
            assertFalse(t.matchesDay(at("2022-11-12") + 3600), q);
            assertFalse(t.matchesDay(at("2022-11-08") + 3600), q);
            assertFalse(t.matchesDay(at("2021-11-09") + 3600), q);
            assertEquals(TimeMention.DAY_BOOST, t.boost(at("2022-11-09")), 0.0);
            assertEquals(TimeMention.BOOST, t.boost(at("2022-11-20")), 0.0, "same month, other day");
            assertEquals(1.0, t.boost(at("2023-02-20")), 0.0);
            assertArrayEquals(new long[] {(long) at("2022-11-09"), (long) at("2022-11-12")}, t.range());
        }
        assertNull(TimeMention.parse("What happened on 31 February, 2022?").day(), "no such day: month only");
        assertNull(TimeMention.parse("What happened in November?").range(), "no year: recurs every year, no range");
        assertArrayEquals(
                new long[] {(long) at("2023-10-01"), (long) at("2023-12-02")},
                TimeMention.parse("What setback did Melanie face in October 2023?")
                        .range(),
                "month plus the 31-day slack");
    }

    @Test
    void theVerbMayAndPlainTextAreNotDates() {
        assertNull(TimeMention.parse("May I ask what we decided about the backups?"));
        assertNull(TimeMention.parse("you may want to check the restic logs"));
        assertNull(TimeMention.parse("What port does the staging database use?"));
    }
}
