package steward.recall.gate;

import java.util.List;
import java.util.regex.Pattern;
import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/** Drops any item holding what looks like a secret: API keys, tokens, passwords, private keys. */
@RuleMeta(
        id = "secret",
        summary = "drops items that look like they hold a secret (keys, tokens, passwords, private keys)",
        rationale = "Recall must never move a credential into a prompt, even one the user stored themselves.")
public final class SecretGate implements Gate {
    static final List<Pattern> PATTERNS = List.of(
            Pattern.compile(
                    "(?i)\\b(api[_-]?key|secret|password|passwd|pwd|access[_-]?token|auth[_-]?token|token)\\s*[:=：]\\s*\\S{4,}"),
            Pattern.compile("(密码|口令|密钥|令牌)\\s*[:=：]\\s*\\S{4,}"),
            Pattern.compile("\\bsk-[A-Za-z0-9_-]{16,}"),
            Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{30,}"),
            Pattern.compile("\\bAKIA[0-9A-Z]{16}\\b"),
            Pattern.compile("\\bxox[abprs]-[A-Za-z0-9-]{10,}"),
            Pattern.compile("\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
            Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----"),
            Pattern.compile("(?i)\\bbearer\\s+[A-Za-z0-9._~+/=-]{20,}"));

    @Override
    public String drop(RecallItem item, Context ctx) {
        return looksSecret(item.text()) ? "looks like it holds a secret" : null;
    }

    public static boolean looksSecret(String text) {
        for (Pattern p : PATTERNS) if (p.matcher(text).find()) return true;
        return false;
    }
}
