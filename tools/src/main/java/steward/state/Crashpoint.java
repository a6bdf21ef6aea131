package steward.state;

/**
 * Named points where crash tests stop this process the way SIGKILL would: no finally blocks, no shutdown hooks, the
 * kernel releasing files and locks. Off unless the JVM was started with {@code -Dsteward.crashpoint=<name>}; then the
 * process halts with exit code 137 when it reaches that point.
 */
public final class Crashpoint {
    private static final String AT = System.getProperty("steward.crashpoint");

    private Crashpoint() {}

    public static void reach(String name) {
        if (AT != null && AT.equals(name)) Runtime.getRuntime().halt(137);
    }
}
