package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(
        id = "history_state",
        verdict = "reject_history",
        summary = "not a past, already-fixed state",
        rationale = "Seed 001 (四问终检): historical state (已修复的过去式) is never written; memory holds what is true now. "
                + "A fix told in the past (\"Fixed the …\", \"… fixed on <date>\") is history too. \"No longer\" / 不再 states a "
                + "current preference and passes.")
public final class HistoryCheck implements PrecheckCheck {
    static final Pattern HISTORY =
            Pattern.compile("(?i)\\b(?:was|were|had been|has been|have been|got|is|are)\\s+(?:now\\s+)?(?:already\\s+)?"
                    + "(?:fixed|resolved|patched|repaired|solved|removed|migrated|upgraded|replaced|decommissioned|retired|deprecated)\\b"
                    + "|\\b(?:solved|fixed|resolved) now\\b|\\bare gone\\b|\\bis gone\\b|\\bused to\\b|\\bpreviously\\b|\\bformerly\\b|\\bin the past\\b"
                    + "|已修复|已解决|已经修复|已经解决|已经处理|已处理|曾经|以前|^之前|之前(?:是|用|在|部署)|原来(?:用|是)|已迁移|已经迁移|已废弃|修好了|已下线|已经下线"
                    + "|已经被|已被|已经消失|已消失");

    static final String FIX = "(?:fixed|resolved|repaired|patched|solved)";

    /**
     * A fix told in the past tense without an auxiliary: a sentence that starts with it ("Fixed the replication lag
     * …"), or one dated in the past ("lag fixed on 2026-12-03", "fixed … yesterday", "yesterday we fixed …"). "A fixed
     * IP" and "resolved incidents need a postmortem" name no fix.
     */
    static final Pattern PAST_FIX = Pattern.compile("(?i)(?:^|[.;!]\\s+)(?:\\[[a-z-]{1,12}\\]\\s*)?" + FIX
            + "\\s+(?:the|a|an|this|that|it|our|its|their|my|his|her|both|all)\\b"
            + "|(?<!\\ba\\s|\\ban\\s|\\bthe\\s)\\b" + FIX
            + "\\b(?:\\s+[^\\s.;]+){0,5}?\\s+(?:yesterday|today|this morning|earlier today|last (?:night|week|month|year|sprint|"
            + Cues.DAYS + ")|on \\d{4}-\\d{1,2}-\\d{1,2}|on (?:" + Cues.DAYS + ")|on (?:" + Cues.MONTHS
            + ") \\d{1,2}|on \\d{1,2} (?:"
            + Cues.MONTHS + ")|in (?:" + Cues.MONTHS + "))\\b"
            + "|\\b(?:yesterday|this morning|earlier today|last (?:night|week|month))\\b,?\\s+(?:we\\s+|i\\s+|they\\s+)?"
            + FIX + "\\b");

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return HISTORY.matcher(in.content()).find()
                        || PAST_FIX.matcher(in.content()).find()
                ? Outcome.fail("describes a past, already-fixed state: history is not stored")
                : Outcome.pass("no past-state wording");
    }
}
