package steward.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The CLI's progress lines, on a clock the test moves. */
class StderrProgressTest {
    final AtomicLong clock = new AtomicLong();
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    StderrProgress work(StderrProgress.Mode mode) {
        return new StderrProgress(
                "steward call x", mode, new PrintStream(bytes, true, StandardCharsets.UTF_8), clock::get);
    }

    List<String> lines() {
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    void advance(long millis) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void autoStaysQuietForAShortCallThenPrintsOneLinePerPhase() {
        StderrProgress w = work(StderrProgress.Mode.auto);
        w.progress(0, 4, "listing sessions");
        advance(300);
        w.progress(1, 4, "classifying 62 sessions");
        assertEquals(List.of(), lines(), "nothing for the first second");
        advance(800);
        w.progress(2, 10, "backing up 8 sessions");
        advance(100);
        w.progress(3, 10, "backing up 8 sessions");
        advance(2100);
        w.progress(7, 10, "backing up 8 sessions");
        w.progress(8, 10, "applying 8 changes in one transaction");
        assertEquals(
                List.of(
                        "steward call x: [ 20%] backing up 8 sessions",
                        "steward call x: [ 70%] backing up 8 sessions",
                        "steward call x: [ 80%] applying 8 changes in one transaction"),
                lines(),
                "a repeated phase at most every 2 s");
    }

    @Test
    void alwaysPrintsAtOnceAndNeverPrintsNothing() {
        StderrProgress always = work(StderrProgress.Mode.always);
        always.progress(1, 0, "reading 12 changed sources");
        assertEquals(
                List.of("steward call x: reading 12 changed sources"),
                lines(),
                "no percentage when the total is unknown");
        bytes.reset();
        StderrProgress never = work(StderrProgress.Mode.never);
        advance(5000);
        never.progress(1, 2, "anything");
        assertEquals(List.of(), lines());
    }

    @Test
    void figuresDoNotMakeANewPhase() {
        assertEquals(StderrProgress.phase("backed up 200 of 9,000"), StderrProgress.phase("backed up 4,400 of 9,000"));
        assertEquals(false, StderrProgress.phase("reading").equals(StderrProgress.phase("indexing")));
    }
}
