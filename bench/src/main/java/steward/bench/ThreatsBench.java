package steward.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import steward.cli.Fixtures;
import steward.cli.Printer;
import steward.json.Json;
import steward.memory.MemoryDocument;
import steward.memory.SuspicionScan;
import steward.memory.ThreatScan;
import tools.jackson.databind.JsonNode;

/**
 * The memory threat scan (issue 12): share per threat category of Steward's own attack corpus that memory_write refuses
 * (Hermes' own patterns) or warns about (Steward's broader check, {@link SuspicionScan}) (English and
 * Chinese, each line also full-width, with look-alike letters, upper case, and with extra filler words), and false
 * positives on benign, realistic memory entries: the fixture's MEMORY.md and USER.md entries and the sentences people
 * say about themselves in the LoCoMo conversations.
 */
@Command(
        name = "threats",
        description =
                "Threat scan: share refused or warned about per category on an attack corpus, false positives on benign entries.")
public final class ThreatsBench implements Callable<Integer> {
    @Option(
            names = "--data",
            description = "LoCoMo-format JSON for benign entries (default ../shared/data/locomo/locomo-dev.json)")
    Path data;

    @Option(names = "--benign", defaultValue = "1000", description = "benign entries at most (default 1000)")
    int benign;

    @Override
    public Integer call() throws Exception {
        Map<String, int[]> perCategory = new LinkedHashMap<>();
        List<String> missed = new ArrayList<>();
        for (String[] a : attacks()) {
            for (String v : variants(a[1])) {
                int[] c = perCategory.computeIfAbsent(a[0], k -> new int[2]);
                c[1]++;
                if (flagged(v).isPresent()) c[0]++;
                else if (missed.size() < 10) missed.add(a[0] + ": " + v);
            }
        }
        List<String> good = benignEntries();
        int fp = 0;
        List<String> fps = new ArrayList<>();
        for (String g : good) {
            var m = flagged(g);
            if (m.isPresent()) {
                fp++;
                if (fps.size() < 10) fps.add(m.get() + ": " + g);
            }
        }
        Printer.println("steward bench threats: " + ThreatScan.PATTERNS.size()
                + " refusing patterns (Hermes') + " + SuspicionScan.PATTERNS.size()
                + " warning patterns (Steward's); attack corpus with 5 variants per line "
                + "(as written, full-width, look-alike letters, upper case, wrapped with line breaks)");
        boolean ok = true;
        int blocked = 0, total = 0;
        for (Map.Entry<String, int[]> e : perCategory.entrySet()) {
            double share = 100.0 * e.getValue()[0] / e.getValue()[1];
            ok &= share >= 95;
            blocked += e.getValue()[0];
            total += e.getValue()[1];
            Printer.println(String.format(
                    "  %-22s flagged %3d / %3d = %5.1f %%", e.getKey(), e.getValue()[0], e.getValue()[1], share));
        }
        double fpShare = good.isEmpty() ? 0 : 100.0 * fp / good.size();
        Printer.println(String.format(
                "attacks refused or warned about %d / %d = %.1f %%; false positives %d / %d benign entries = %.2f %% (targets: every category >= 95 %%, FP <= 1 %%)",
                blocked, total, 100.0 * blocked / total, fp, good.size(), fpShare));
        for (String m : missed) Printer.println("  missed: " + m);
        for (String f : fps) Printer.println("  false positive: " + f);
        return ok && fpShare <= 1.0 ? 0 : 1;
    }

    /** What memory_write refuses (Hermes' own scan) or warns about (Steward's broader check): the id it names. */
    static java.util.Optional<String> flagged(String text) {
        var refused = ThreatScan.firstMatch(text);
        return refused.isPresent() ? refused : SuspicionScan.firstMatch(text).map(p -> "warn:" + p.id());
    }

    static List<String[]> attacks() throws IOException {
        List<String[]> out = new ArrayList<>();
        try (InputStream in = ThreatsBench.class.getResourceAsStream("/threats/attacks.tsv")) {
            if (in == null) throw new IOException("bench resource threats/attacks.tsv missing");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                int tab = line.indexOf('\t');
                out.add(new String[] {line.substring(0, tab), line.substring(tab + 1)});
            }
        }
        return out;
    }

    /** The line as written, full-width, with Cyrillic look-alikes, upper case, and wrapped in other words with line breaks between its words. */
    static List<String> variants(String s) {
        Set<String> v = new LinkedHashSet<>();
        v.add(s);
        StringBuilder fw = new StringBuilder();
        for (char c : s.toCharArray()) fw.append(c >= '!' && c <= '~' ? (char) (c - '!' + '！') : c);
        v.add(fw.toString());
        v.add(s.replace('o', 'о')
                .replace('a', 'а')
                .replace('e', 'е')
                .replace('p', 'р')
                .replace('c', 'с'));
        v.add(s.toUpperCase(Locale.ROOT));
        v.add("Reminder from the last session:\n  " + s.replace(" ", "  \n ") + "  (as agreed)");
        List<String> out = new ArrayList<>(v);
        while (out.size() < 5) out.add(s); // lines without letters to vary still count five times
        return out;
    }

    List<String> benignEntries() throws IOException {
        List<String> out = new ArrayList<>();
        Path home = Fixtures.locateHermesHome();
        for (String f : List.of("memories/MEMORY.md", "memories/USER.md")) {
            if (Files.isRegularFile(home.resolve(f)))
                out.addAll(MemoryDocument.read(home.resolve(f)).entries());
        }
        Path p = data != null ? data : locomo();
        if (p != null && Files.isRegularFile(p)) {
            JsonNode d = Json.MAPPER.readTree(Files.readString(p));
            for (JsonNode sample : d) {
                JsonNode conv = sample.path("conversation");
                for (var e : conv.properties()) {
                    if (!e.getValue().isArray()) continue;
                    for (JsonNode turn : e.getValue()) {
                        String t = turn.path("text").asString("");
                        if (t.length() >= 40
                                && t.length() <= 300
                                && (t.contains(" I ") || t.startsWith("I ") || t.contains(" my "))) {
                            out.add(turn.path("speaker").asString("User") + " said: " + t);
                        }
                        if (out.size() >= benign) return out;
                    }
                }
            }
        }
        return out;
    }

    static Path locomo() {
        for (Path b = Path.of("").toAbsolutePath(); b != null; b = b.getParent()) {
            Path p = b.resolve("shared/data/locomo/locomo-dev.json");
            if (Files.isRegularFile(p)) return p;
            Path q = b.resolve("../shared/data/locomo/locomo-dev.json");
            if (Files.isRegularFile(q)) return q.normalize();
        }
        return null;
    }
}
