package steward.memory.precheck;

import java.util.regex.Pattern;

@CheckMeta(id = "history_state", verdict = "reject_history", summary = "not a past, already-fixed state",
        rationale = "Seed 001 (四问终检): historical state (已修复的过去式) is never written; memory holds what is true now.")
public final class HistoryCheck implements PrecheckCheck {
    static final Pattern HISTORY = Pattern.compile("(?i)\\b(?:was|were|had been|has been|got)\\s+(?:already\\s+)?(?:fixed|resolved|patched|repaired|solved|"
            + "removed|migrated|upgraded)\\b|\\bused to\\b|\\bno longer\\b|\\bpreviously\\b|\\bformerly\\b|\\bin the past\\b"
            + "|已修复|已解决|已经修复|已经解决|已经处理|曾经|以前是|之前是|已迁移|已废弃|修好了|不再");

    @Override
    public Outcome evaluate(PrecheckInput in) {
        return HISTORY.matcher(in.content()).find() ? Outcome.fail("describes a past, already-fixed state: history is not stored")
                : Outcome.pass("no past-state wording");
    }
}
