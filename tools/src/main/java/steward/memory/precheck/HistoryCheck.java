package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(
        id = "history_state",
        verdict = "reject_history",
        summary = "not a past, already-fixed state",
        rationale = "Seed 001 (四问终检): historical state (已修复的过去式) is never written; memory holds what is true now. "
                + "\"No longer\" / 不再 states a current preference and passes.")
public final class HistoryCheck implements PrecheckCheck {
    static final Pattern HISTORY =
            Pattern.compile("(?i)\\b(?:was|were|had been|has been|have been|got|is|are)\\s+(?:now\\s+)?(?:already\\s+)?"
                    + "(?:fixed|resolved|patched|repaired|solved|removed|migrated|upgraded|replaced|decommissioned|retired|deprecated)\\b"
                    + "|\\b(?:solved|fixed|resolved) now\\b|\\bare gone\\b|\\bis gone\\b|\\bused to\\b|\\bpreviously\\b|\\bformerly\\b|\\bin the past\\b"
                    + "|已修复|已解决|已经修复|已经解决|已经处理|已处理|曾经|以前|^之前|之前(?:是|用|在|部署)|原来(?:用|是)|已迁移|已经迁移|已废弃|修好了|已下线|已经下线"
                    + "|已经被|已被|已经消失|已消失");

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return HISTORY.matcher(in.content()).find()
                ? Outcome.fail("describes a past, already-fixed state: history is not stored")
                : Outcome.pass("no past-state wording");
    }
}
