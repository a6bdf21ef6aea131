package steward.recall.gate;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import steward.recall.Identity;
import steward.recall.RecallItem;
import steward.sessions.rules.RuleMeta;

/**
 * Drops items the user marked harmful through recall_feedback, and every item with the same text (equal when
 * normalised, as {@link Identity#normalHash}, whatever its confidence prefix; or as the previous release hashed it)
 * wherever it lives: the same assistant answer in another session, the same
 * entry in another file. A daily log entry is also dropped when its whole day was marked harmful under the previous
 * release's per-day URI ({@code steward://log/<date>}).
 */
@RuleMeta(
        id = "harmful",
        summary = "drops items marked harmful in recall_feedback",
        rationale = "The user said the item did harm; injecting it again would repeat the harm, whatever its score.")
public final class HarmfulGate implements Gate {
    private static final Pattern LOG_ENTRY = Pattern.compile("(steward://log/\\d{4}-\\d{2}-\\d{2})/[^/]+");

    @Override
    public String drop(RecallItem item, Context ctx) {
        if (ctx.harmfulUris().contains(item.uri())) return "marked harmful in feedback";
        Matcher day = LOG_ENTRY.matcher(item.uri());
        if (day.matches() && ctx.harmfulUris().contains(day.group(1)))
            return "its day's log was marked harmful in feedback";
        if (!ctx.harmfulTexts().isEmpty()
                && (ctx.harmfulTexts().contains(Identity.normalHash(item.text()))
                        || ctx.harmfulTexts().contains(Identity.prefixedNormalHash(item.text()))))
            return "the same text as an item marked harmful in feedback";
        return null;
    }
}
