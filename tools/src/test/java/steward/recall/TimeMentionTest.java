package steward.recall;

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
    void theVerbMayAndPlainTextAreNotDates() {
        assertNull(TimeMention.parse("May I ask what we decided about the backups?"));
        assertNull(TimeMention.parse("you may want to check the restic logs"));
        assertNull(TimeMention.parse("What port does the staging database use?"));
    }
}
