package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(
        id = "claude_instruction",
        verdict = "route_claude_md",
        summary = "not a standing rule for the whole project (that is CLAUDE.md's)",
        rationale =
                "Claude Code's CLAUDE.md holds the instructions the user writes (team conventions, rules for the repository); auto "
                        + "memory holds what the agent learned. A directive that binds the whole project or team is proposed for CLAUDE.md, "
                        + "which Steward edits only with the user's confirm. A directive without such a scope only warns.")
public final class ClaudeInstructionCheck implements PrecheckCheck {
    static final Pattern DIRECTIVE =
            Pattern.compile("(?i)^\\s*(?:[-*]\\s*)?(?:always|never|do not|don'?t|must|avoid|make sure|ensure)\\b"
                    + "|\\b(?:must(?: not)?|never|always|should (?:always|never)|is (?:forbidden|required)|are not allowed)\\b"
                    + "|必须|禁止|不要|务必|一律|总是|不得|不准|永远不要");
    static final Pattern SCOPE =
            Pattern.compile("(?i)\\b(?:team|everyone|repo(?:sitory)?|codebase|project|convention|policy|standard"
                    + "|every (?:commit|pr|pull request|file|change|module)|all (?:code|files|commits|modules|changes|prs))\\b"
                    + "|团队|项目|仓库|代码库|规范|约定|所有代码|每次提交|每个提交|全部代码");

    public static boolean directive(String c) {
        return DIRECTIVE.matcher(c).find();
    }

    public static boolean projectWide(String c) {
        return directive(c) && SCOPE.matcher(c).find();
    }

    @Override
    public Outcome evaluate(PrecheckInput in) {
        if (!ClaudeCoveredCheck.claude(in)) return new Outcome("skip", "Hermes target");
        if (projectWide(in.content()))
            return Outcome.fail(
                    "a standing rule for the project or team: propose it for CLAUDE.md (target 'claude_md', shown as a diff, written only with confirm)");
        if (directive(in.content()))
            return Outcome.warn("reads as an instruction: if the user sets it as a rule, CLAUDE.md is its place");
        return Outcome.pass("a learned fact, not a standing rule");
    }
}
