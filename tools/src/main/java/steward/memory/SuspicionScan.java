package steward.memory;

import java.text.Normalizer;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Steward's own, broader check for prompt-injection and exfiltration payloads: it WARNS, it never refuses (refusals are
 * Hermes' own, {@link ThreatScan}). It catches what Hermes' patterns let through and Hermes would then show the agent
 * verbatim: look-alike letters, Chinese phrasings, {@code curl … | sh}, tag characters. Patterns (an explicit, ordered
 * registry; each has a test) are matched on a normalised copy of the text: NFKC (full-width letters become ASCII),
 * Cyrillic/Greek look-alike letters mapped to Latin, invisible format characters removed, lower case, whitespace
 * collapsed. The invisible-character pattern itself looks at the original text.
 */
public final class SuspicionScan {
    private SuspicionScan() {}

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

    private static final Pattern NEGATION = Pattern.compile(
            "(?:\\bnever\\b|\\bdon't\\b|\\bdo not\\b|\\bmust not\\b|\\bnot\\b|禁止|不要|不得|切勿|别)[^.;。；]{0,12}$");

    private static final String SECRET_PATHS =
            "(?:~/|\\$home/|/home/[^/\\s]+/|/root/)?(?:\\.ssh\\b|id_(?:rsa|ed25519|ecdsa|dsa)\\b"
                    + "|\\.env\\b|\\.netrc\\b|\\.aws/credentials|\\.pgpass\\b|\\.git-credentials|/etc/shadow\\b|\\.docker/config\\.json"
                    + "|\\.kube/config|auth\\.json\\b|\\.gnupg\\b|\\.npmrc\\b|\\.pypirc\\b)";
    private static final String SECRET_WORDS =
            "(?:api[ _-]?keys?|access[ _-]?tokens?|tokens?|secrets?|passwords?|passwd|credentials?"
                    + "|private[ _-]?keys?|ssh[ _-]?keys?|cookies?|session[ _-]?ids?|密钥|令牌|密码|凭据)";

    /** The registry, in the order the scan reports (first match wins). */
    public static final List<ThreatPattern> PATTERNS = List.of(
            new ThreatPattern(
                    "invisible_unicode",
                    "zero-width, bidirectional-override or tag characters that hide text from the reader",
                    Pattern.compile("[\\u200B-\\u200D\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF\\u180E]"
                            + "|[\\x{E0000}-\\x{E007F}]"),
                    true,
                    false),
            ThreatPattern.normalised(
                    "ignore_instructions",
                    "tells the model to ignore, forget or override earlier instructions",
                    "\\b(?:ignore|disregard|forget|override|bypass|skip)\\b[^.\\n]{0,40}?\\b(?:all |any |the |your |my )?"
                            + "(?:previous|prior|above|earlier|preceding|original|system|developer|safety)\\b[^.\\n]{0,20}?"
                            + "\\b(?:instructions?|prompts?|rules?|guidelines?|directives?|messages?)\\b"
                            + "|(?:忽略|无视|忘记|忽视)(?:之前|以上|先前|上面|所有|系统)[^。\\n]{0,10}(?:指令|指示|提示|规则)"),
            ThreatPattern.normalised(
                    "system_prompt_probe",
                    "asks to reveal, print or replace the system prompt",
                    "\\b(?:reveal|print|show|dump|output|repeat|leak|send|replace|rewrite)\\b[^.\\n]{0,30}?\\b(?:system|initial)[ _-]?prompt\\b"
                            + "|\\bnew system prompt\\b|\\bsystem[ _-]?prompt[ _-]?override\\b|\\boverrid(?:e|ing) (?:the )?system[ _-]?prompt\\b"
                            + "|(?:泄露|输出|显示|打印|替换|覆盖)[^。\\n]{0,10}系统提示|系统提示(?:词)?覆盖"),
            ThreatPattern.normalised(
                    "context_exfiltration",
                    "asks to print or share the whole conversation or context",
                    "\\b(?:include|output|print|share|dump|repeat|send|paste|post)\\b(?:\\s+\\S+){0,8}?\\s+(?:the\\s+)?(?:entire|full|whole|complete)\\s+"
                            + "(?:context|conversation|chat(?: history)?|transcript|prompt)\\b"
                            + "|\\b(?:include|output|print|share|dump|send|paste|post)\\b(?:\\s+\\S+){0,8}?\\s+(?:the\\s+)?(?:chat history|previous messages|conversation history)\\b"
                            + "|(?:输出|打印|发送|分享|附上|粘贴)[^。\\n]{0,8}(?:全部|完整|整个|所有)[^。\\n]{0,4}(?:上下文|对话|聊天记录|会话记录)"
                            + "|(?:全部|完整|整个|所有)的?(?:上下文|对话|聊天记录|会话记录)[^。\\n]{0,4}(?:发送|发给|输出|打印|分享|粘贴|上传)"),
            ThreatPattern.normalised(
                    "role_hijack",
                    "re-assigns the model's identity or unlocks a jailbreak mode",
                    "\\byou are now\\b[^.\\n]{0,40}?\\b(?:unrestricted|jailbroken|dan|evil|no longer bound|free of)\\b"
                            + "|\\b(?:enable|enter|activate|switch to|turn on) (?:developer|god) mode\\b|\\b(?:dan|jailbreak) mode\\b|\\bdo anything now\\b|从现在起你(?:不再受|是一个没有限制)"),
            ThreatPattern.normalised(
                    "role_pretend",
                    "tells the model to pretend to be someone else, or renames and 'updates' it",
                    "\\bpretend\\b(?:\\s+\\S+){0,8}?\\s+(?:you are|you're|to be)\\b|\\bname yourself\\b|\\byou have been (?:\\S+\\s+){0,4}?(?:updated|upgraded|patched) to\\b"
                            + "|\\byou are now (?:a|an|the)\\s+(?!on\\b)\\S+\\s*(?:ai|assistant|agent|model|bot|admin|administrator|root|hacker|system)\\b"
                            + "|\\bact as (?:if|though)\\b(?:\\s+\\S+){0,8}?\\s+(?:no|without)\\s+(?:restrictions|limits|rules)\\b"
                            + "|\\b(?:respond|answer|reply)\\s+without\\b(?:\\s+\\S+){0,8}?\\s+(?:restrictions|limitations|filters|safety)\\b"
                            + "|假装(?:你|自己)(?:是|为)|你(?:现在)?已(?:经)?被(?:升级|更新)为|给自己(?:取名|命名)为"),
            ThreatPattern.normalised(
                    "c2_beacon",
                    "command-and-control behaviour: heartbeats or check-ins to a host, node registration, task pulls, known C2 frameworks",
                    "\\b(?:heartbeat|beacon|check[ -]?in|ping home)s?\\b[^.\\n]{0,30}?\\b(?:to|with)\\s+(?:https?://)?[a-z0-9-]+(?:\\.[a-z0-9-]+)+"
                            + "|\\bregister (?:as )?(?:a )?node\\b|\\bpull (?:down )?(?:new )?task(?:ing|s)?\\b(?:[^.\\n]{0,30}?\\bfrom\\b)"
                            + "|\\bconnect to the network\\b|\\byou must (?:\\S+\\s+){0,3}?(?:register|beacon)\\b"
                            + "|\\b(?:cobalt ?strike|metasploit|brainworm|meterpreter|empire c2|covenant c2)\\b|\\b(?:sliver|havoc|mythic) (?:c2|implant|beacon|teamserver|agent)\\b"
                            + "|\\bc2 (?:server|channel|infrastructure|beacon|callback)\\b|\\bcommand[ -]and[ -]control\\b"
                            + "|(?:心跳|信标)[^。\\n]{0,10}(?:发送|发)?(?:到|给)[^。\\n]{0,3}[a-z0-9-]+\\.[a-z]|(?:注册为|注册成)(?:一个)?节点|命令与控制|c2 ?服务器"),
            ThreatPattern.normalised(
                    "anti_forensics",
                    "tells the model to leave no traces: one-liners only, nothing on disk, history cleared, agent variables unset",
                    "\\bonly use one[ -]?liners?\\b|\\bone[ -]?liners? only\\b|\\bnever\\b(?:\\s+\\S+){0,8}?\\s+(?:create|write|save)\\b(?:\\s+\\S+){0,8}?\\s+(?:scripts?|files?)\\b(?:\\s+\\S+){0,8}?\\s+disk\\b"
                            + "|\\b(?:clear|wipe|erase|delete)\\s+(?:the\\s+)?(?:bash\\s+|shell\\s+)?history\\s+(?:after|afterwards|each|every)\\b|\\bhistory -c\\b"
                            + "|\\bleave no (?:traces?|logs?)\\b|\\bunset\\s+\\$?\\w*(?:claude|codex|hermes|agent|openai|anthropic)\\w*"
                            + "|只(?:用|使用)单行命令|不要(?:在磁盘上)?(?:留下|留)(?:任何)?(?:痕迹|文件)|清除(?:命令)?历史记录"),
            ThreatPattern.negatable(
                    "persistence_backdoor",
                    "plants persistence: authorized_keys, ~/.ssh, the agent's own config or instruction files, shell startup files",
                    "\\bauthorized_keys\\b|(?:~|\\$home)/\\.hermes/(?:\\.env|config\\.yaml|soul\\.md)\\b"
                            + "|\\b(?:update|modify|edit|write|change|append|add to|overwrite)\\b[^\\n]{0,80}?(?:agents\\.md|claude\\.md|\\.cursorrules|\\.clinerules|\\.hermes/config\\.yaml|\\.hermes/soul\\.md|\\.bashrc|\\.zshrc|\\.profile|crontab)\\b"
                            + "|(?:修改|写入|追加|添加)[^。\\n]{0,10}(?:authorized_keys|agents\\.md|claude\\.md|\\.bashrc|crontab)"),
            ThreatPattern.normalised(
                    "html_hidden_text",
                    "hides instructions in an HTML comment or an invisible element",
                    "<!--[^>]{0,512}(?:ignore|override|system|secret|hidden)[^>]{0,512}-->|<\\s*(?:div|span|p)\\s+style\\s*=\\s*[\"'][^>]{0,512}display\\s*:\\s*none"
                            + "|\\btranslate\\b[^\\n]{0,200}\\binto\\b[^\\n]{0,200}\\band (?:execute|run|eval)\\b"),
            ThreatPattern.normalised(
                    "hardcoded_secret",
                    "stores a secret value itself (a key, token or password literal)",
                    "\\b(?:api[_-]?key|access[_-]?token|token|secret|password|passwd)\\s*[=:]\\s*[\"']?[a-z0-9+/=_-]{20,}"
                            + "|\\b(?:sk-[a-z0-9_-]{20,}|ghp_[a-z0-9]{30,}|xox[bp]-[a-z0-9-]{20,}|akia[0-9a-z]{16})\\b"),
            ThreatPattern.normalised(
                    "hide_from_user",
                    "tells the model to act without the user knowing",
                    "\\b(?:do not|don't|never|without)\\b[^.\\n]{0,15}?\\b(?:tell|telling|inform|informing|notify|notifying|mention|mentioning|show|showing)\\b"
                            + "[^.\\n]{0,10}?\\bthe user\\b|\\bsecretly\\b|(?:不要|别|勿)(?:告诉|通知|提醒)用户|瞒着用户"),
            ThreatPattern.normalised(
                    "remote_code_exec",
                    "pipes a download straight into a shell or interpreter",
                    "\\b(?:curl|wget|iwr|invoke-webrequest|fetch)\\b[^|\\n]{0,200}\\|\\s*(?:sudo\\s+)?(?:ba|z|k|da)?sh\\b"
                            + "|\\b(?:curl|wget)\\b[^|\\n]{0,200}\\|\\s*(?:sudo\\s+)?(?:python3?|perl|ruby|node)\\b"
                            + "|\\biex\\s*\\(\\s*(?:iwr|invoke-webrequest|new-object net\\.webclient)"
                            + "|\\b(?:bash|sh)\\s+<\\(\\s*(?:curl|wget)\\b"),
            ThreatPattern.negatable(
                    "read_secrets",
                    "reads a credential file (~/.ssh, .env, .netrc, cloud or git credentials)",
                    "\\b(?:cat|less|more|head|tail|type|read|open|print|dump|copy|cp|scp|rsync|base64|grep|upload|send|share)\\b"
                            + "[^\\n]{0,40}?" + SECRET_PATHS
                            + "|(?:读取|查看|打印|发送|上传|复制)[^。\\n]{0,10}" + SECRET_PATHS),
            ThreatPattern.negatable(
                    "exfiltrate_secrets",
                    "sends tokens, keys or passwords to a remote place",
                    "\\b(?:curl|wget|nc|netcat|scp|post|send|upload|exfiltrate|forward|email|paste)\\b[^\\n]{0,60}?"
                            + "(?:\\$\\{?[a-z_]*(?:token|key|secret|password|passwd)[a-z_]*\\}?|\\b" + SECRET_WORDS
                            + ")"
                            + "[^\\n]{0,40}?(?:\\bto\\b|https?://|@|webhook|pastebin|\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b)"
                            + "|\\b(?:send|post|upload|transmit)\\b[^\\n]{0,200}\\b(?:to|at)\\s+https?://"
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
                    if (!p.negatable()
                            || !NEGATION.matcher(norm.substring(Math.max(0, m.start() - 20), m.start()))
                                    .find()) {
                        return Optional.of(p);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Steward's warning for content Hermes accepts but this check flags, or empty. */
    public static Optional<String> warning(String content) {
        if (ThreatScan.firstMatch(content).isPresent()) return Optional.empty();
        return firstMatch(content)
                .map(p -> "An entry looks like a prompt-injection or exfiltration payload (" + p.description()
                        + "; Steward's check '" + p.id() + "'). Hermes accepts it and shows it to the agent as written:"
                        + " remove it unless it was meant.");
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
