package steward.server.protocol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches {@code MEMORY.md} and {@code USER.md} in Hermes' memories dir, whoever changes them
 * (Steward's own memory_write, Hermes itself, an editor), and tells its listeners which file changed.
 * It compares content digests on a short poll rather than trusting file events: writers replace the
 * files by rename (atomic writes), and the directory may not exist yet when the server starts.
 */
public final class MemoryWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryWatcher.class);
    public static final List<String> FILES = List.of("MEMORY.md", "USER.md");

    private final Path dir;
    private final long intervalMillis;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, byte[]> seen = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    public MemoryWatcher(Path memoriesDir, long intervalMillis) {
        this.dir = memoriesDir;
        this.intervalMillis = intervalMillis;
        for (String f : FILES) seen.put(f, digest(dir.resolve(f)));
        this.thread = new Thread(this::loop, "steward-memory-watch");
        thread.setDaemon(true);
        thread.start();
    }

    public void addListener(Consumer<String> onChange) {
        listeners.add(onChange);
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(intervalMillis);
            } catch (InterruptedException e) {
                return;
            }
            for (String f : FILES) {
                byte[] now = digest(dir.resolve(f));
                if (!Arrays.equals(now, seen.get(f))) {
                    seen.put(f, now);
                    LOG.debug("{} changed", f);
                    for (Consumer<String> l : listeners) {
                        try {
                            l.accept(f);
                        } catch (RuntimeException e) {
                            LOG.warn("a memory change listener failed: {}", e.toString());
                        }
                    }
                }
            }
        }
    }

    /** SHA-256 of the file, or null when it does not exist or cannot be read right now. */
    static byte[] digest(Path p) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
