package steward;

/**
 * How a long-running engine reports progress and learns that its caller gave up. Engines check
 * {@link #cancelled()} only at safe points (between items, never inside a transaction or a file
 * write) and stop there. No MCP type appears here: the server adapts its own notifications to it.
 */
public interface Work {
    /** Reports progress; {@code total} may be 0 when unknown. */
    void progress(double done, double total, String message);

    boolean cancelled();

    /** Throws {@link Cancelled} if the caller cancelled; call only at a safe point. */
    default void checkpoint(String context) {
        if (cancelled()) throw new Cancelled(context);
    }

    /** This work past its last safe point: progress still goes through, a cancellation is no longer honoured. */
    default Work pastSafePoint() {
        Work outer = this;
        return new Work() {
            @Override
            public void progress(double done, double total, String message) {
                outer.progress(done, total, message);
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        };
    }

    Work NONE = new Work() {
        @Override
        public void progress(double done, double total, String message) {}

        @Override
        public boolean cancelled() {
            return false;
        }
    };

    /** Raised at a safe point when the caller cancelled: nothing half-done is left behind. */
    final class Cancelled extends StewardError {
        private static final long serialVersionUID = 1L;

        public Cancelled(String context) {
            super(context, "cancelled by the caller at a safe point; nothing was left half-done");
        }
    }
}
