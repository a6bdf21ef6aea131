package steward.memory;

import java.text.Normalizer;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Refuses memory content that would smuggle a prompt-injection or exfiltration payload into the system
 * prompt. Steward's own patterns (an explicit, ordered registry; each has a test), matched on a normalised
 * copy of the text: NFKC (full-width letters become ASCII), Cyrillic/Greek look-alike letters mapped to Latin,
 * invisible format characters removed, lower case, whitespace collapsed. The invisible-character pattern
 * itself looks at the original text.
 */
public final class ThreatScan {
    private ThreatScan() {}

    /** One rule: an id shown to the agent, what it catches, and the regex (on normalised text unless {@code raw}). */
    public record ThreatPattern(String id, String description, Pattern regex, boolean raw, boolean negatable) {
        static ThreatPattern normalised(String id, String description, String regex) {
            return new ThreatPattern(id, description, Pattern.compile(regex), false, false);
        }

        /** A rule that a preceding negation ("never cat ~/.ssh", "禁止读取 .env") turns into a safety rule. */
        static ThreatPattern negatable(String id, String description, String regex) {
            return new ThreatPattern(id, description, Pattern.compile(regex), false, true);
        }
    }

    private static final Pattern NEGATION = Pattern.compile("(?:\\bnever\\b|\\bdon't\\b|\\bdo not\\b|\\bmust not\\b|\\bnot\\b|禁止|不要|不得|切勿|别)[^.;。；]{0,12}$");

    private static final String SECRET_PATHS = "(?:~/|\\$home/|/home/[^/\\s]+/|/root/)?(?:\\.ssh\\b|id_(?:rsa|ed25519|ecdsa|dsa)\\b"
            + "|\\.env\\b|\\.netrc\\b|\\.aws/credentials|\\.pgpass\\b|\\.git-credentials|/etc/shadow\\b|\\.docker/config\\.json"
            + "|\\.kube/config|auth\\.json\\b|\\.gnupg\\b|\\.npmrc\\b|\\.pypirc\\b)";
    private static final String SECRET_WORDS = "(?:api[ _-]?keys?|access[ _-]?tokens?|tokens?|secrets?|passwords?|passwd|credentials?"
            + "|private[ _-]?keys?|ssh[ _-]?keys?|cookies?|session[ _-]?ids?|密钥|令牌|密码|凭据)";

    /** The registry, in the order the scan reports (first match wins). */
    public static final List<ThreatPattern> PATTERNS = List.of(
            new ThreatPattern("invisible_unicode",
                    "zero-width, bidirectional-control or tag characters that hide text from the reader",
                    Pattern.compile("[\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF\\u00AD\\u180E]"
                            + "|[\\x{E0000}-\\x{E007F}]"), true, false),
            ThreatPattern.normalised("ignore_instructions",
                    "tells the model to ignore, forget or override earlier instructions",
                    "\\b(?:ignore|disregard|forget|override|bypass|skip)\\b[^.\\n]{0,40}?\\b(?:all |any |the |your |my )?"
                            + "(?:previous|prior|above|earlier|preceding|original|system|developer|safety)\\b[^.\\n]{0,20}?"
                            + "\\b(?:instructions?|prompts?|rules?|guidelines?|directives?|messages?)\\b"
                            + "|(?:忽略|无视|忘记|忽视)(?:之前|以上|先前|上面|所有|系统)[^。\\n]{0,10}(?:指令|指示|提示|规则)"),
            ThreatPattern.normalised("system_prompt_probe",
                    "asks to reveal, print or replace the system prompt",
                    "\\b(?:reveal|print|show|dump|output|repeat|leak|send|replace|rewrite)\\b[^.\\n]{0,30}?\\bsystem[ _-]?prompt\\b"
                            + "|\\bnew system prompt\\b|(?:泄露|输出|显示|打印|替换)[^。\\n]{0,10}系统提示"),
            ThreatPattern.normalised("role_hijack",
                    "re-assigns the model's identity or unlocks a jailbreak mode",
                    "\\byou are now\\b[^.\\n]{0,40}?\\b(?:unrestricted|jailbroken|dan|evil|no longer bound|free of)\\b"
                            + "|\\b(?:developer|god|dan|jailbreak) mode\\b|\\bdo anything now\\b|从现在起你(?:不再受|是一个没有限制)"),
            ThreatPattern.normalised("hide_from_user",
                    "tells the model to act without the user knowing",
                    "\\b(?:do not|don't|never|without)\\b[^.\\n]{0,15}?\\b(?:tell|telling|inform|informing|notify|notifying|mention|mentioning|show|showing)\\b"
                            + "[^.\\n]{0,10}?\\bthe user\\b|\\bsecretly\\b|(?:不要|别|勿)(?:告诉|通知|提醒)用户|瞒着用户"),
            ThreatPattern.normalised("remote_code_exec",
                    "pipes a download straight into a shell or interpreter",
                    "\\b(?:curl|wget|iwr|invoke-webrequest|fetch)\\b[^|\\n]{0,200}\\|\\s*(?:sudo\\s+)?(?:ba|z|k|da)?sh\\b"
                            + "|\\b(?:curl|wget)\\b[^|\\n]{0,200}\\|\\s*(?:sudo\\s+)?(?:python3?|perl|ruby|node)\\b"
                            + "|\\biex\\s*\\(\\s*(?:iwr|invoke-webrequest|new-object net\\.webclient)"
                            + "|\\b(?:bash|sh)\\s+<\\(\\s*(?:curl|wget)\\b"),
            ThreatPattern.negatable("read_secrets",
                    "reads a credential file (~/.ssh, .env, .netrc, cloud or git credentials)",
                    "\\b(?:cat|less|more|head|tail|type|read|open|print|dump|copy|cp|scp|rsync|base64|grep|source|load|upload|send|share)\\b"
                            + "[^\\n]{0,40}?" + SECRET_PATHS
                            + "|(?:读取|查看|打印|发送|上传|复制)[^。\\n]{0,10}" + SECRET_PATHS),
            ThreatPattern.negatable("exfiltrate_secrets",
                    "sends tokens, keys or passwords to a remote place",
                    "\\b(?:curl|wget|nc|netcat|scp|post|send|upload|exfiltrate|forward|email|paste)\\b[^\\n]{0,60}?"
                            + "(?:\\$\\{?[a-z_]*(?:token|key|secret|password|passwd)[a-z_]*\\}?|\\b" + SECRET_WORDS + ")"
                            + "[^\\n]{0,40}?(?:\\bto\\b|https?://|@|webhook|pastebin|\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b)"
                            + "|(?:发送|上传|转发)[^。\\n]{0,10}" + SECRET_WORDS + "[^。\\n]{0,10}(?:到|给)"
                            + "|" + SECRET_WORDS + "[^。\\n]{0,8}(?:发送|上传|转发|发)(?:到|给)"));

    /** The first pattern {@code content} matches, if any. */
    public static Optional<ThreatPattern> firstMatch(String content) {
        if (content == null || content.isEmpty()) return Optional.empty();
        String norm = null;
        for (ThreatPattern p : PATTERNS) {
            if (p.raw()) {
                if (p.regex().matcher(content).find()) return Optional.of(p);
            } else {
                if (norm == null) norm = normalise(content);
                var m = p.regex().matcher(norm);
                while (m.find()) {
                    if (!p.negatable() || !NEGATION.matcher(norm.substring(Math.max(0, m.start() - 20), m.start())).find()) {
                        return Optional.of(p);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Hermes' wording for a blocked write. */
    public static Optional<String> blockMessage(String content) {
        return firstMatch(content).map(p -> "Blocked: content matches threat pattern '" + p.id() + "'. Content is injected "
                + "into the system prompt and must not contain injection or exfiltration payloads.");
    }

    /** NFKC, look-alikes to Latin, format characters dropped, lower case, whitespace collapsed. */
    public static String normalise(String s) {
        String n = Normalizer.normalize(s, Normalizer.Form.NFKC);
        StringBuilder sb = new StringBuilder(n.length());
        boolean space = false;
        for (int i = 0; i < n.length(); ) {
            int cp = n.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.getType(cp) == Character.FORMAT) continue;
            if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
                if (!space) sb.append(' ');
                space = true;
                continue;
            }
            space = false;
            sb.appendCodePoint(Character.toLowerCase(confusable(cp)));
        }
        return sb.toString();
    }

    /** Cyrillic and Greek letters that look like Latin ones (the usual homoglyph tricks). */
    static int confusable(int cp) {
        return switch (cp) {
            case 'а', 'А', 'α', 'Α' -> 'a';
            case 'в', 'В', 'β', 'Β' -> 'b';
            case 'с', 'С', 'ϲ' -> 'c';
            case 'ԁ' -> 'd';
            case 'е', 'Е', 'ε', 'Ε' -> 'e';
            case 'ɡ' -> 'g';
            case 'һ', 'Н', 'Η' -> 'h';
            case 'і', 'І', 'ι', 'Ι', 'ӏ' -> 'i';
            case 'ј', 'Ј' -> 'j';
            case 'к', 'К', 'κ', 'Κ' -> 'k';
            case 'М', 'Μ' -> 'm';
            case 'п', 'η', 'Ν' -> 'n';
            case 'о', 'О', 'ο', 'Ο', 'σ' -> 'o';
            case 'р', 'Р', 'ρ', 'Ρ' -> 'p';
            case 'ԛ' -> 'q';
            case 'г' -> 'r';
            case 'ѕ', 'Ѕ' -> 's';
            case 'т', 'Т', 'τ', 'Τ' -> 't';
            case 'υ', 'ս' -> 'u';
            case 'ν', 'ѵ' -> 'v';
            case 'ԝ', 'ω' -> 'w';
            case 'х', 'Х', 'χ', 'Χ' -> 'x';
            case 'у', 'У', 'γ', 'Υ' -> 'y';
            case 'Ζ' -> 'z';
            default -> cp;
        };
    }
}
