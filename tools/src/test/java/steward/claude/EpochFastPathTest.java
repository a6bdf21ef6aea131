package steward.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EpochFastPathTest {
    private static double slow(String ts) {
        try {
            Instant i = Instant.parse(ts);
            return i.getEpochSecond() + i.getNano() / 1e9;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    @Test
    void fastPathAgreesWithInstantParse() {
        Random r = new Random(7);
        for (int k = 0; k < 20_000; k++) {
            Instant i = Instant.ofEpochSecond(r.nextInt(2_000_000_000), r.nextInt(1_000_000_000));
            for (String ts : List.of(
                    i.toString(),
                    i.truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString(),
                    i.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString())) {
                double f = TranscriptReader.fastEpoch(ts);
                assertTrue(!Double.isNaN(f), ts);
                assertEquals(Double.doubleToLongBits(slow(ts)), Double.doubleToLongBits(f), ts);
            }
        }
    }

    @Test
    void oddFormsFallBackOrAgree() {
        for (String ts : List.of(
                "2026-02-30T00:00:00Z",
                "2024-02-29T23:59:59.5Z",
                "2026-13-01T00:00:00Z",
                "2026-01-01T24:00:00Z",
                "2026-06-30T23:59:60Z",
                "2026-01-01T00:00:00.Z",
                "2026-01-01T00:00:00+01:00",
                "2026-01-01 00:00:00Z",
                "2026-01-01T00:00:00.1234567891Z",
                "x",
                "+12026-01-01T00:00:00Z")) {
            double f = TranscriptReader.fastEpoch(ts);
            if (!Double.isNaN(f)) assertEquals(Double.doubleToLongBits(slow(ts)), Double.doubleToLongBits(f), ts);
            double all = TranscriptReader.epoch(ts);
            double expected = slow(ts);
            if (!Double.isNaN(expected))
                assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(all), ts);
        }
    }
}
