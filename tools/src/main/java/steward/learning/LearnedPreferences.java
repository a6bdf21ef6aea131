package steward.learning;

import java.util.OptionalInt;

import steward.sessions.rules.Confidence;
import steward.sessions.rules.Preferences;
import steward.sessions.rules.Text;

/**
 * The rules' view of the learning store. Levels: a condition vetoed even once can never run at HIGH
 * (HIGH needs no veto ever): a HIGH condition drops to MEDIUM; a MEDIUM condition approved twice over
 * at least two runs, with no veto, is promoted to HIGH; a LOW condition approved once asks at MEDIUM.
 * A condition with two contradictions is locked at LOW until the user trusts it again.
 */
public final class LearnedPreferences implements Preferences {
    private final PreferenceData data;

    public LearnedPreferences(PreferenceData data) {
        this.data = data;
    }

    @Override
    public SessionChoice sessionChoice(String sessionId) {
        for (PreferenceData.SessionEntry e : data.session_level.retain) if (sessionId.equals(e.id)) return SessionChoice.RETAINED;
        for (PreferenceData.SessionEntry e : data.session_level.delete) if (sessionId.equals(e.id)) return SessionChoice.DELETED;
        return SessionChoice.NONE;
    }

    @Override
    public Learned learned(String condition) {
        PreferenceData.RuleState r = data.rule_level.get(condition);
        if (r == null || r.base_level == null) return null;
        if (r.locked) {
            return new Learned(Confidence.LOW, true, new Text("locked at LOW: your choices on this disagreed; say so to trust it again",
                    "你对此类的选择前后矛盾，已锁定为 LOW，需你明确表示信任后才会恢复"));
        }
        Confidence base = Confidence.valueOf(r.base_level);
        Confidence level = level(r);
        if (level == base) return null;
        if (level.compareTo(base) < 0) {
            return new Learned(level, false, r.vetoes >= 2 ? new Text("you kept similar ones before", "你之前保留过同类")
                    : new Text("you rejected one like this before", "上次否决过同类"));
        }
        return new Learned(level, false, new Text("you approved " + r.approvals + " similar ones", "你已批准过 " + r.approvals + " 条同类"));
    }

    /** The level a condition runs at now (without the lock). */
    public static Confidence level(PreferenceData.RuleState r) {
        Confidence base = Confidence.valueOf(r.base_level);
        if (r.locked) return Confidence.LOW;
        if (r.vetoes > 0) return base == Confidence.HIGH ? Confidence.MEDIUM : base;
        if (base == Confidence.MEDIUM && r.approvals >= 2 && r.runs_with_decisions >= 2) return Confidence.HIGH;
        if (base == Confidence.LOW) {
            if (r.approvals >= 3 && r.runs_with_decisions >= 2) return Confidence.HIGH;
            if (r.approvals >= 1) return Confidence.MEDIUM;
        }
        return base;
    }

    @Override
    public OptionalInt activeThreshold() {
        return OptionalInt.of((int) Math.floor(clampN(data.active_threshold)));
    }

    @Override
    public boolean consolidated(String topic) {
        for (PreferenceData.ConsolidatedTopic t : data.topic_level.consolidated) if (topic.equalsIgnoreCase(t.topic)) return true;
        return false;
    }

    public static double clampN(double n) {
        return Math.max(2, Math.min(6, n));
    }
}
