package steward.sessions.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import steward.state.FileMoves;

/** The backup's bytes go before the lines written at the path since, and no line appended during the merge is lost. */
class TranscriptMergeTest {
    @TempDir
    Path tmp;

    static final String HISTORY = """
            {"type":"user","uuid":"u1","message":{"role":"user","content":"first"}}
            {"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"role":"assistant","content":"answer"}}
            """;

    @Test
    void theHistoryGoesBeforeTheNewLinesOnceAndAPartialLastLineGetsItsNewline() throws Exception {
        Path saved = Files.writeString(tmp.resolve("saved.jsonl"), HISTORY + "{\"type\":\"user\",\"uuid\":\"cut");
        Path live = Files.writeString(tmp.resolve("s.jsonl"), "{\"type\":\"user\",\"uuid\":\"u2\"}\n");
        assertEquals(TranscriptMerge.Result.MERGED, TranscriptMerge.merge(saved, live, FileMoves.sha256(saved)));
        assertEquals(
                HISTORY + "{\"type\":\"user\",\"uuid\":\"cut\n{\"type\":\"user\",\"uuid\":\"u2\"}\n",
                Files.readString(live));
        assertEquals(TranscriptMerge.Result.ALREADY_THERE, TranscriptMerge.merge(saved, live, null));
        assertTrue(Files.readString(live).indexOf("first")
                == Files.readString(live).lastIndexOf("first"));
    }

    @Test
    void aBackupCopyThatDoesNotMatchItsHashIsNotMerged() throws Exception {
        Path saved = Files.writeString(tmp.resolve("saved.jsonl"), HISTORY);
        Path live = Files.writeString(tmp.resolve("s.jsonl"), "{\"uuid\":\"u2\"}\n");
        assertThrows(IOException.class, () -> TranscriptMerge.merge(saved, live, "00".repeat(32)));
        assertEquals("{\"uuid\":\"u2\"}\n", Files.readString(live), "nothing written");
    }

    @Test
    void linesAppendedByPathDuringTheMergeAreAllKept() throws Exception {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 20_000; i++)
            big.append("{\"type\":\"assistant\",\"uuid\":\"h").append(i).append("\"}\n");
        Path saved = Files.writeString(tmp.resolve("saved.jsonl"), big);
        Path live = Files.writeString(tmp.resolve("s.jsonl"), "{\"uuid\":\"n0\"}\n");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger(1);
        Thread writer = new Thread(() -> {
            // as Claude Code appends: open by path, append one line, close
            while (!stop.get()) {
                int n = written.get();
                try {
                    Files.writeString(
                            live, "{\"uuid\":\"n" + n + "\"}\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    written.incrementAndGet();
                } catch (IOException e) {
                    // the path is being replaced: try again
                }
            }
        });
        writer.start();
        try {
            Thread.sleep(5);
            TranscriptMerge.merge(saved, live, null);
            Thread.sleep(50);
        } finally {
            stop.set(true);
            writer.join();
        }
        List<String> lines = Files.readAllLines(live, StandardCharsets.UTF_8);
        assertTrue(FileMoves.startsWith(live, saved), "the history first");
        List<String> fresh = new ArrayList<>(lines.subList(20_000, lines.size()));
        HashSet<String> want = new HashSet<>();
        for (int i = 0; i < written.get(); i++) want.add("{\"uuid\":\"n" + i + "\"}");
        HashSet<String> missing = new HashSet<>(want);
        missing.removeAll(fresh);
        assertEquals(0, missing.size(), "appended lines lost, of " + want.size());
        assertEquals(written.get(), fresh.size());
    }
}
