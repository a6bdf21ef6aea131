package steward;

/**
 * An expected failure, reported to the caller as an {@code isError} result.
 * The message always has the form "context: cause" so that the agent can relay it as it is.
 */
public class StewardError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String context;

    public StewardError(String context, String cause) {
        super(context + ": " + cause);
        this.context = context;
    }

    public StewardError(String context, String cause, Throwable underlying) {
        super(context + ": " + cause, underlying);
        this.context = context;
    }

    public String context() {
        return context;
    }
}
