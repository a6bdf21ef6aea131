package steward.memory.history;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;

/** Unified diffs of two versions of a file (JGit's histogram diff, 3 lines of context). */
public final class Diffs {
    private Diffs() {}

    /** The unified diff from {@code before} to {@code after} (null = absent); empty when they are equal. */
    public static String unified(String name, byte[] before, byte[] after) {
        byte[] a = before == null ? new byte[0] : before;
        byte[] b = after == null ? new byte[0] : after;
        if (Arrays.equals(a, b) && (before == null) == (after == null)) return "";
        RawText ra = new RawText(a);
        RawText rb = new RawText(b);
        EditList edits = DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM)
                .diff(RawTextComparator.DEFAULT, ra, rb);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DiffFormatter f = new DiffFormatter(out)) {
            out.write(("--- " + (before == null ? "/dev/null" : "a/" + name) + "\n+++ "
                            + (after == null ? "/dev/null" : "b/" + name) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            f.format(edits, ra, rb);
            f.flush();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Lines added and removed by a unified diff. */
    public static int[] counts(String diff) {
        int add = 0, del = 0;
        for (String l : diff.split("\n")) {
            if (l.startsWith("+++") || l.startsWith("---")) continue;
            if (l.startsWith("+")) add++;
            else if (l.startsWith("-")) del++;
        }
        return new int[] {add, del};
    }
}
