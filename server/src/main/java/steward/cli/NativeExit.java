package steward.cli;

import java.lang.reflect.Proxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import steward.recall.RecallRuntime;

/**
 * Ends the process without racing ONNX Runtime. The runtime registers its own shutdown hook, which frees its native
 * environment; shutdown hooks run in no fixed order, so a background indexer still making a session or embedding a text
 * when the JVM shut down crashed in libonnxruntime (SIGSEGV). Here recall is stopped first, on every way out: a SIGTERM,
 * SIGINT or SIGHUP (a terminal closing) is handled by Steward (stop the indexers, close the model: nothing native starts again and the call now
 * running is waited for, bounded), then the JVM exits with the usual 128+signal status; a command that returns does the
 * same before {@code System.exit}. When a native call outlives the wait, the process halts without running the hooks
 * (its output flushed), because running ONNX Runtime's hook then is what crashes.
 */
public final class NativeExit {
    private static final Logger LOG = LoggerFactory.getLogger(NativeExit.class);

    private NativeExit() {}

    /** Handles SIGTERM, SIGINT and SIGHUP as described above (once per process; a JVM run with -Xrs keeps its own handling). */
    public static void install(RecallRuntime recall) {
        // sun.misc.Signal (module jdk.unsupported) is reached reflectively: javac's "internal proprietary API"
        // warning cannot be suppressed, and the build treats warnings as errors.
        Class<?> signal;
        Class<?> handler;
        try {
            signal = Class.forName("sun.misc.Signal");
            handler = Class.forName("sun.misc.SignalHandler");
        } catch (ClassNotFoundException e) {
            LOG.debug("cannot handle signals: {}", e.toString());
            return;
        }
        // HUP: a closed terminal ends the process the same way (a process started with nohup keeps ignoring it: the JVM
        // then installs no handler)
        for (String name : new String[] {"TERM", "INT", "HUP"}) {
            try {
                Object h = Proxy.newProxyInstance(
                        NativeExit.class.getClassLoader(), new Class<?>[] {handler}, (proxy, m, args) -> {
                            if (!m.getName().equals("handle")) {
                                return switch (m.getName()) {
                                    case "hashCode" -> System.identityHashCode(proxy);
                                    case "equals" -> proxy == args[0];
                                    default -> "NativeExit.handler";
                                };
                            }
                            int number = (int) signal.getMethod("getNumber").invoke(args[0]);
                            LOG.debug("SIG{}: stopping recall before the shutdown hooks", name);
                            exit(recall, 128 + number);
                            return null;
                        });
                signal.getMethod("handle", signal, handler)
                        .invoke(null, signal.getConstructor(String.class).newInstance(name), h);
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.debug("cannot handle SIG{}: {}", name, e.toString());
            }
        }
    }

    /** Stops recall, then exits with {@code status}: through the shutdown hooks when nothing native runs any more. */
    public static void exit(RecallRuntime recall, int status) {
        if (stop(recall)) System.exit(status);
        halt(status);
    }

    /** Stops recall before a command's return; false when a native call is still running (then {@link #halt}). */
    public static boolean stop(RecallRuntime recall) {
        boolean quiet;
        try {
            quiet = recall.close(RecallRuntime.CLOSE_WAIT_MS);
        } catch (RuntimeException e) {
            LOG.warn("recall: stopping failed: {}", e.toString());
            quiet = false;
        }
        if (quiet) LOG.debug("recall stopped: the embedding model is closed and nothing native runs");
        else
            LOG.warn(
                    "recall: the embedding model was still running after {} ms; exiting without shutdown hooks",
                    RecallRuntime.CLOSE_WAIT_MS);
        return quiet;
    }

    /** Ends the process at once (no shutdown hooks), after flushing what it printed. */
    public static void halt(int status) {
        Printer.out().flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
