package steward.sessions.grouping;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Working-directory paths compared by segments, as Hermes' sidebar compares them ({@code /} and {@code \} alike). */
final class Paths {
    private Paths() {}

    /** Segments of a path; a Windows drive path compares case-insensitively. */
    static List<String> segments(String p) {
        List<String> out = new ArrayList<>();
        if (p == null) return out;
        String s = p.strip().replace('\\', '/');
        boolean windows = s.length() >= 2 && Character.isLetter(s.charAt(0)) && s.charAt(1) == ':';
        if (windows) s = s.toLowerCase(Locale.ROOT);
        if (s.startsWith("/")) out.add("");
        int start = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || s.charAt(i) == '/') {
                if (i > start) out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        return out;
    }

    /** The path of the first {@code n} segments, written with {@code /}. */
    static String join(List<String> segs) {
        if (segs.isEmpty()) return "";
        if (segs.size() == 1 && segs.get(0).isEmpty()) return "/";
        String j = String.join("/", segs);
        return j;
    }

    /** Whether {@code cwd} lies under {@code prefix} (segment-wise). */
    static boolean under(List<String> cwd, List<String> prefix) {
        return !prefix.isEmpty()
                && prefix.size() <= cwd.size()
                && cwd.subList(0, prefix.size()).equals(prefix);
    }

    /** The longest common segment prefix of the given paths. */
    static List<String> commonPrefix(List<List<String>> paths) {
        if (paths.isEmpty()) return List.of();
        List<String> p = new ArrayList<>(paths.get(0));
        for (List<String> q : paths) {
            int k = 0;
            while (k < p.size() && k < q.size() && p.get(k).equals(q.get(k))) k++;
            p = new ArrayList<>(p.subList(0, k));
        }
        return p;
    }
}
