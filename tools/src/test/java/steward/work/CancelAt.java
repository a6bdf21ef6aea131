package steward.work;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import steward.Work;

/** A caller that gives up when it sees the n-th progress report of a call (1 = the first), and keeps every report. */
public final class CancelAt implements Work {
    private final int n;
    private int seen;
    private volatile boolean cancelled;
    public final List<String> messages = Collections.synchronizedList(new ArrayList<>());
    public final List<Double> values = Collections.synchronizedList(new ArrayList<>());

    public CancelAt(int n) {
        this.n = n;
    }

    /** Never cancels: only records. */
    public static CancelAt never() {
        return new CancelAt(Integer.MAX_VALUE);
    }

    @Override
    public synchronized void progress(double done, double total, String message) {
        messages.add(message);
        values.add(done);
        if (++seen >= n) cancelled = true;
    }

    @Override
    public boolean cancelled() {
        return cancelled;
    }

    public int reports() {
        return messages.size();
    }
}
