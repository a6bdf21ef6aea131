package steward.memory.precheck;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

@CheckMeta(
        id = "procedure",
        verdict = "route_skill",
        summary = "not a procedure (steps, commands, code)",
        rationale =
                "Seed 001 (分流): build steps and command sequences belong in a skill (no size limit); memory keeps a one-line trigger. "
                        + "A fact that names a tool, or a one-line rule, passes.")
public final class ProcedureCheck implements PrecheckCheck {
    static final Pattern NUMBERED = Pattern.compile("(?im)^\\s*(?:\\d+[.)、]|step\\s*\\d+|第[一二三四五六七八九十\\d]+步)");
    static final Pattern INLINE_NUMBERED = Pattern.compile("(?:^|\\s)\\d\\)\\s|第[一二三四五六七八九十\\d]+步");
    static final Pattern PROCEDURE =
            Pattern.compile("(?i)```|(?m:^\\s*\\$\\s+\\S)|\\S+\\s*&&\\s*\\S+|\\bsteps?:|\\bhow to\\b|步骤[:：]|操作流程|执行以下"
                    + "|\\bto [a-z][\\w -]{2,40}:\\s*(?:run|execute|type|call|open|use)\\b");
    static final Pattern THEN = Pattern.compile("(?i)\\bthen\\b|\\bfinally\\b|\\bafterwards\\b");
    /** A Chinese sequence marker that opens a clause (先说结论 inside a clause is no step). */
    static final Pattern ZH_SEQUENCE = Pattern.compile("(?:^|[，,：:；;。、\\s])(?:首先|先|再|然后|接着|之后|最后)");

    static final String VERBS_EN =
            "run|open|get|call|save|install|stop|start|restart|delete|remove|generate|add|reload|send|push|tag|upload|notify"
                    + "|export|import|create|set|pick|drain|cordon|upgrade|clone|wait|check|compare|swap|copy|build|deploy|log in|login|switch|execute"
                    + "|confirm|edit|update|apply|restore|rotate|bump|publish|merge|write";
    static final String VERBS_ZH =
            "生成|把|重载|登录|切换|执行|确认|运行|安装|删除|删|重启|停掉|停止|导入|导出|上传|下载|打开|创建|添加|配置|检查|推送|拉取|校验|启动|打|等|写|设|选择|保存";
    static final Pattern IMPERATIVE_ITEM =
            Pattern.compile("(?i)^(?:and |then |和|并|再|然后|最后)?\\s*(?:" + VERBS_EN + "|" + VERBS_ZH + ")(?:\\b|\\s|$)");

    /** Whether {@code c} reads as a procedure. */
    public static boolean matches(String c) {
        if (count(NUMBERED.matcher(c)) >= 2
                || count(INLINE_NUMBERED.matcher(c)) >= 2
                || PROCEDURE.matcher(c).find()) return true;
        int then = count(THEN.matcher(c));
        boolean command = Cues.COMMAND.matcher(c).find();
        if (then >= 2 || then >= 1 && command) return true;
        int zh = count(ZH_SEQUENCE.matcher(c));
        if (zh >= 3 || zh >= 1 && command) return true;
        return imperativeList(c);
    }

    /** "Title: do a, do b, do c" — three or more comma-separated items after a colon that start with a verb. */
    static boolean imperativeList(String c) {
        int colon = Math.max(c.indexOf(": "), c.indexOf('：'));
        if (colon < 0) return false;
        String[] items = c.substring(colon + 1).split("[,，;；、]");
        int verbs = 0;
        for (String it : items) if (IMPERATIVE_ITEM.matcher(it.strip()).find()) verbs++;
        return items.length >= 3 && verbs >= 3;
    }

    static int count(Matcher m) {
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return matches(in.content())
                ? Outcome.fail("a procedure (commands, code or steps in sequence) belongs in a skill")
                : Outcome.pass("not a procedure");
    }
}
