package steward.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import steward.Work;

/**
 * The CLI's {@link Work}: the progress an engine reports, as one line per phase on stderr ({@code steward call
 * session_audit: [ 40%] classifying 5000 sessions}), and the cancellation Ctrl-C asks for. In {@link Mode#auto}
 * nothing is printed for calls that end within a second; the phase running at that point and every later one
 * are. A phase repeating with new figures is printed at most every two seconds.
 */
final class StderrProgress implements Work {
    enum Mode {
        auto,
        always,
        never
    }

    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long REPEAT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final String prefix;
    private final Mode mode;
    private final PrintStream err;
    private final LongSupplier nanos;
    private final long start;
    private volatile boolean cancelled;
    private String lastPhase;
    private long lastPrinted = Long.MIN_VALUE;

    StderrProgress(String prefix, Mode mode, PrintStream err, LongSupplier nanos) {
        this.prefix = prefix;
        this.mode = mode;
        this.err = err;
        this.nanos = nanos;
        this.start = nanos.getAsLong();
    }

    StderrProgress(String prefix, Mode mode) {
        this(prefix, mode, System.err, System::nanoTime);
    }

    @Override
    public synchronized void progress(double done, double total, String message) {
        if (mode == Mode.never || message == null) return;
        long now = nanos.getAsLong();
        if (mode == Mode.auto && now - start < QUIET_NANOS) return;
        String phase = phase(message);
        if (phase.equals(lastPhase) && now - lastPrinted < REPEAT_NANOS) return;
        lastPhase = phase;
        lastPrinted = now;
        String pct = total > 0
                ? String.format(Locale.ROOT, "[%3d%%] ", (int) Math.floor(100 * Math.min(done, total) / total))
                : "";
        err.println(prefix + ": " + pct + message);
    }

    /** The words of a message without its figures: "backed up 200 of 900" and "backed up 400 of 900" are one phase. */
    static String phase(String message) {
        return message.replaceAll("[0-9][0-9,.]*", "#");
    }

    @Override
    public boolean cancelled() {
        return cancelled;
    }

    void cancel() {
        cancelled = true;
    }
}
