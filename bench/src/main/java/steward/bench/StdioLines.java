package steward.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Raw newline-delimited JSON-RPC with a spawned server, for benchmarks that must not measure a client library. */
final class StdioLines {
    private StdioLines() {}

    static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The first line containing {@code marker} (e.g. {@code "id":3}); earlier lines (notifications) are skipped. */
    static String await(BufferedReader out, String marker) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.contains(marker)) return line;
        }
        throw new IOException("server closed stdout before answering " + marker);
    }
}
