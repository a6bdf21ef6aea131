package steward.memory;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import steward.text.CodePoints;

/**
 * The threat scan of Hermes' memory tool, re-expressed in Java: Hermes' shared pattern library
 * ({@code tools/threat_patterns.py}) at the {@code "strict"} scope, which Hermes applies both when its memory tool
 * writes an entry and when it loads the entries into the system prompt ({@code MemoryStore.load_from_disk}, where a
 * matching entry is replaced by a {@code [BLOCKED: …]} placeholder).
 *
 * <p>As Hermes does: the first 65,536 code points are scanned; Hermes' 17 invisible characters are looked for in the
 * raw text; the patterns are matched, case-insensitively, on its NFKC form (no look-alike folding). Python's
 * {@code \w}, {@code \s} and {@code \b} are Unicode classes; {@link #py} gives the patterns Python's meaning of them.
 * Where several invisible characters occur Hermes lists them in Python set order (random per process); Steward lists
 * them in the order they first occur.
 */
public final class ThreatScan {
    private ThreatScan() {}

    /** Hermes' {@code MAX_SCAN_CHARS}: only this many code points are scanned. */
    public static final int MAX_SCAN_CHARS = 65_536;

    /** One of Hermes' patterns: its id, the scope it has in Hermes ({@code all}, {@code context}, {@code strict}). */
    public record ThreatPattern(String id, String scope, Pattern regex) {}

    /** Hermes' {@code INVISIBLE_CHARS}: zero-width, invisible-operator and bidirectional-control characters. */
    public static final Set<Integer> INVISIBLE = Set.of(
            0x200B, 0x200C, 0x200D, 0x2060, 0x2062, 0x2063, 0x2064, 0xFEFF, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
            0x2066, 0x2067, 0x2068, 0x2069);

    /** Python's {@code \w} on str: {@code str.isalnum()} or '_'. */
    static final String W = "[\\p{L}\\p{N}_]";
    /** Python's {@code \s} on str: {@code str.isspace()} (Java's White_Space plus U+001C..U+001F). */
    static final String S = "[\\t\\n\\x0B\\f\\r\\x1C-\\x1F \\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}"
            + "\\x{202F}\\x{205F}\\x{3000}]";
    /** Python's {@code \b}: a boundary between a {@link #W} character and anything else. */
    static final String B = "(?:(?<=" + W + ")(?!" + W + ")|(?<!" + W + ")(?=" + W + "))";
    /** Hermes' {@code _FILLER}: up to eight words between the key words of a pattern. */
    static final String FILLER = "(?:\\w+\\s+){0,8}";

    /**
     * Compiles a pattern written with {@code \w}, {@code \s} and {@code \b} (outside character classes for {@code \b})
     * in Python's Unicode meaning, case-insensitive as Hermes compiles it ({@code re.IGNORECASE}).
     */
    static Pattern py(String regex) {
        StringBuilder sb = new StringBuilder(regex.length() * 2);
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                char n = regex.charAt(++i);
                switch (n) {
                    case 'w' -> sb.append(W);
                    case 's' -> sb.append(S);
                    case 'b' -> sb.append(B);
                    default -> sb.append(c).append(n);
                }
            } else {
                sb.append(c);
            }
        }
        return Pattern.compile(sb.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    private static ThreatPattern p(String scope, String id, String regex) {
        return new ThreatPattern(id, scope, py(regex.replace("{F}", FILLER)));
    }

    private static final String WRITE_VERB = "(?:update|modify|edit|write|change|append|add\\s+to)\\s+[^\\n]{0,2048}";

    /** Hermes' patterns of the strict scope (every scope), in Hermes' order: findings are listed in this order. */
    public static final List<ThreatPattern> PATTERNS = List.of(
            // classic prompt injection
            p("all", "prompt_injection", "ignore\\s+{F}(?:previous|all|above|prior)\\s+{F}instructions"),
            p("all", "sys_prompt_override", "system\\s+prompt\\s+override"),
            p("all", "disregard_rules", "disregard\\s+{F}(?:your|all|any)\\s+{F}(?:instructions|rules|guidelines)"),
            p(
                    "all",
                    "bypass_restrictions",
                    "act\\s+as\\s+(?:if|though)\\s+{F}you\\s+{F}(?:have\\s+no|don't\\s+have)\\s+{F}"
                            + "(?:restrictions|limits|rules)"),
            p("all", "html_comment_injection", "<!--[^>]{0,512}(?:ignore|override|system|secret|hidden)[^>]{0,512}-->"),
            p("all", "hidden_div", "<\\s*div\\s+style\\s*=\\s*[\"'][^>]{0,2048}display\\s*:\\s*none"),
            p(
                    "all",
                    "translate_execute",
                    "translate\\s+[^\\n]{0,512}\\s+into\\s+[^\\n]{0,512}\\s+and\\s+(?:execute|run|eval)"),
            p("all", "deception_hide", "do\\s+not\\s+{F}tell\\s+{F}the\\s+user"),
            // role play, identity hijack
            p("context", "role_hijack", "you\\s+are\\s+{F}now\\s+(?:a|an|the)\\s+"),
            p("context", "role_pretend", "pretend\\s+{F}(?:you\\s+are|to\\s+be)\\s+"),
            p("context", "leak_system_prompt", "output\\s+{F}(?:system|initial)\\s+prompt"),
            p(
                    "context",
                    "remove_filters",
                    "(?:respond|answer|reply)\\s+without\\s+{F}(?:restrictions|limitations|filters|safety)"),
            p("context", "fake_update", "you\\s+have\\s+been\\s+{F}(?:updated|upgraded|patched)\\s+to"),
            p("context", "identity_override", "\\bname\\s+yourself\\s+\\w+"),
            // C2 / promptware
            p("context", "c2_node_registration", "register\\s+(?:as\\s+)?a?\\s*node"),
            p("context", "c2_heartbeat", "(?:heartbeat|beacon|check[\\s\\-]?in)\\s+(?:to|with)\\s+"),
            p("context", "c2_task_pull", "pull\\s+(?:down\\s+)?(?:new\\s+)?task(?:ing|s)?\\b"),
            p("context", "c2_network_connect", "connect\\s+to\\s+the\\s+network\\b"),
            p("context", "forced_action", "you\\s+must\\s+(?:\\w+\\s+){0,3}(?:register|connect|report|beacon)\\b"),
            p("context", "anti_forensic_oneliner", "only\\s+use\\s+one[\\s\\-]?liners?\\b"),
            p("context", "anti_forensic_disk", "never\\s+{F}(?:create|write)\\s+{F}(?:script|file)\\s+{F}disk"),
            p("context", "env_var_unset_agent", "unset\\s+\\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\\w*"),
            p("context", "known_c2_framework", "\\b(?:cobalt\\s*strike|sliver|havoc|mythic|metasploit|brainworm)\\b"),
            p("context", "c2_explicit", "\\bc2\\s+(?:server|channel|infrastructure|beacon)\\b"),
            p("context", "c2_explicit_long", "\\bcommand\\s+and\\s+control\\b"),
            // exfiltration
            p("all", "exfil_curl", "curl\\s+[^\\n]{0,2048}\\$\\{?\\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)"),
            p("all", "exfil_wget", "wget\\s+[^\\n]{0,2048}\\$\\{?\\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)"),
            p(
                    "all",
                    "read_secrets",
                    "cat\\s+[^\\n]{0,2048}(?:\\.env|credentials|\\.netrc|\\.pgpass|\\.npmrc|\\.pypirc)"),
            p("strict", "send_to_url", "(?:send|post|upload|transmit)\\s+[^\\n]{0,2048}\\s+(?:to|at)\\s+https?://"),
            p(
                    "strict",
                    "context_exfil",
                    "(?:include|output|print|share)\\s+{F}(?:conversation|chat\\s+history|previous\\s+messages"
                            + "|full\\s+context|entire\\s+context)"),
            // persistence
            p("strict", "ssh_backdoor", "authorized_keys"),
            p("strict", "ssh_access", "\\$HOME/\\.ssh|~/\\.ssh"),
            p("strict", "hermes_env", "\\$HOME/\\.hermes/\\.env|~/\\.hermes/\\.env"),
            p("strict", "agent_config_mod", WRITE_VERB + "(?:AGENTS\\.md|CLAUDE\\.md|\\.cursorrules|\\.clinerules)"),
            p("strict", "hermes_config_mod", WRITE_VERB + "\\.hermes/(?:config\\.yaml|SOUL\\.md)"),
            // hard-coded secrets
            p(
                    "strict",
                    "hardcoded_secret",
                    "(?:api[_-]?key|token|secret|password)\\s*[=:]\\s*[\"'][A-Za-z0-9+/=_-]{20,}"));

    /**
     * Hermes' {@code scan_for_threats(content, scope="strict")}: {@code invisible_unicode_U+XXXX} for each invisible
     * character (in the order they first occur), then the id of every pattern that matches, in pattern order.
     */
    public static List<String> findings(String content) {
        if (content == null || content.isEmpty()) return List.of();
        String scanned = content;
        if (content.codePointCount(0, content.length()) > MAX_SCAN_CHARS)
            scanned = content.substring(0, content.offsetByCodePoints(0, MAX_SCAN_CHARS));
        List<String> out = new ArrayList<>();
        Set<Integer> seen = new LinkedHashSet<>();
        scanned.codePoints().filter(INVISIBLE::contains).forEach(seen::add);
        for (int cp : seen) out.add("invisible_unicode_U+" + String.format(Locale.ROOT, "%04X", cp));
        String normalised = Normalizer.normalize(scanned, Normalizer.Form.NFKC);
        for (ThreatPattern p : PATTERNS) if (p.regex().matcher(normalised).find()) out.add(p.id());
        return out;
    }

    /** The first finding (what Hermes' memory tool names when it refuses a write), if any. */
    public static Optional<String> firstMatch(String content) {
        List<String> f = findings(content);
        return f.isEmpty() ? Optional.empty() : Optional.of(f.get(0));
    }

    /** Hermes' {@code first_threat_message(content, scope="strict")}: the error of a refused memory write. */
    public static Optional<String> blockMessage(String content) {
        return firstMatch(content).map(ThreatScan::message);
    }

    static String message(String id) {
        if (id.startsWith("invisible_unicode_"))
            return "Blocked: content contains invisible unicode character "
                    + id.substring("invisible_unicode_".length()) + " (possible injection).";
        return "Blocked: content matches threat pattern '" + id + "'. Content is injected into the system prompt and "
                + "must not contain injection or exfiltration payloads.";
    }

    /**
     * The entries Hermes reads back once {@code content} is written as one entry: its file is read with universal
     * newlines ({@code \r\n} and {@code \r} become {@code \n}), split on {@code "\n§\n"}, each part stripped, empty parts
     * dropped.
     */
    public static List<String> entriesAsLoaded(String content) {
        String text = content.replace("\r\n", "\n").replace('\r', '\n');
        List<String> out = new ArrayList<>();
        for (String part : text.split(MemoryDocument.DELIMITER, -1)) {
            String e = CodePoints.pyStrip(part);
            if (!e.isEmpty()) out.add(e);
        }
        return out;
    }

    /**
     * Why Hermes would hide {@code content} from its system prompt although its memory tool accepts the write (the
     * load-time scan sees the entry as read back, see {@link #entriesAsLoaded}), or empty. Steward refuses such a
     * write: the fact would never reach the agent.
     */
    public static Optional<String> loadBlockMessage(String content, String fileName) {
        if (content == null || content.isEmpty() || firstMatch(content).isPresent()) return Optional.empty();
        for (String e : entriesAsLoaded(content)) {
            List<String> f = findings(e);
            if (!f.isEmpty()) {
                return Optional.of("Blocked: once written, content matches threat pattern '" + f.get(0) + "' as Hermes"
                        + " reads " + fileName + " back (line breaks \\r\\n and \\r become \\n), so Hermes would"
                        + " replace the entry with [BLOCKED: ...] in the system prompt and the agent would never see"
                        + " it. Nothing was written; rewrite the entry on one line or without that phrase.");
            }
        }
        return Optional.empty();
    }

    /**
     * Hermes' placeholder for an entry its load-time scan blocks ({@code MemoryStore._sanitize_entries_for_snapshot}),
     * or the entry itself: empty entries and entries already starting with {@code [BLOCKED:} are kept as they are.
     */
    public static String asInSnapshot(String entry, String fileName) {
        if (entry.isEmpty() || entry.startsWith("[BLOCKED:")) return entry;
        List<String> f = findings(entry);
        if (f.isEmpty()) return entry;
        return "[BLOCKED: " + fileName + " entry contained threat pattern(s): " + String.join(", ", f)
                + ". Removed from system prompt; use memory(action=remove) to delete the original.]";
    }
}
