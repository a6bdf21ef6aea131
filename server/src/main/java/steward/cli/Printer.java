package steward.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The only code that writes to the process's real standard output. At start-up {@link #install()}
 * keeps the real stdout here and points {@code System.out} at stderr, so that nothing else (a
 * library, a stray print) can corrupt the MCP protocol stream.
 */
public final class Printer {
    private static volatile PrintStream out;

    private Printer() {}

    public static synchronized void install() {
        if (out != null) return;
        out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
    }

    /** The real stdout (the protocol channel for {@code serve}, the result channel for {@code call}). */
    public static PrintStream out() {
        install();
        return out;
    }

    public static void println(String s) {
        out().println(s);
    }
}
