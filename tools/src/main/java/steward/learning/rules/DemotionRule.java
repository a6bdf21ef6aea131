package steward.learning.rules;

import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Level;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.learning.RuleKey;
import steward.sessions.rules.RuleMeta;

/**
 * A HIGH condition vetoed (the user kept the session, or restored one it ran automatically) twice is demoted to
 * MEDIUM for good, with "you kept similar ones before" in its reason. (After the first veto it already stops running
 * unattended: rule F asks instead, because HIGH needs no veto ever.) A condition the user's approvals promoted goes back to
 * its rule's own level when the user restores a deletion they had approved (Outcome.WITHDRAWN): it runs automatically again
 * only after new approvals. A restore of an automatic run is cautious across families of sessions (RuleKey): the same
 * condition promoted for another store or Hermes source family goes back to its rule's own level too, asked until approved
 * again there (the user said no to what it did unasked; asking again costs one question, acting wrongly costs their data).
 * A kept session (a veto of a question) teaches only its own family. The engine reports the change.
 */
@RuleMeta(
        id = "demotion",
        summary = "HIGH vetoed twice → MEDIUM, \"you kept similar ones before\"; a restored approved deletion → the "
                + "condition's own level until approved again",
        rationale = "a rule that deletes what the user wants kept must ask first")
public final class DemotionRule implements LearningRule {
    public static final int VETOES_FOR_DEMOTION = 2;

    @Override
    public void apply(LearningRun run) {
        for (var entry : run.byKey().entrySet()) {
            if (run.frozen.contains(entry.getKey())) continue;
            PreferenceData.RuleState s = run.state(entry.getValue().get(0));
            if (s.level == Level.HIGH && s.vetoes >= VETOES_FOR_DEMOTION) s.level = Level.MEDIUM;
            // the user restored a deletion they had approved: a level their approvals raised is theirs no more
            boolean withdrawn = entry.getValue().stream().anyMatch(e -> e.outcome() == Outcome.WITHDRAWN);
            Level base = s.base_level == null ? Level.MEDIUM : s.base_level;
            if (withdrawn && s.level != null && s.level.ordinal() < base.ordinal()) s.level = base;
            if (RuleKey.along(entry.getKey())
                    || entry.getValue().stream().noneMatch(e -> e.outcome() == Outcome.RESTORED)) continue;
            String condition = RuleKey.unscoped(entry.getKey());
            for (var other : run.data.rule_level.entrySet()) {
                String k = other.getKey();
                PreferenceData.RuleState o = other.getValue();
                if (k.equals(entry.getKey()) || !RuleKey.unscoped(k).equals(condition) || run.frozen.contains(k))
                    continue;
                Level own = o.base_level == null ? Level.MEDIUM : o.base_level;
                if (o.level != null && o.level.ordinal() < own.ordinal()) {
                    o.level = own;
                    run.demotedBy.putIfAbsent(k, entry.getKey());
                }
            }
        }
    }
}
