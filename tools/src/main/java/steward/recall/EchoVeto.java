package steward.recall;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Restating is not asking: when the user's message merely restates a stored item (most of the item's
 * terms are in the message and the message asks nothing), that item is not injected. A near-verbatim
 * replay is vetoed even when it carries a question mark.
 */
public final class EchoVeto {
    private EchoVeto() {}

    /** Share of the item's terms found in the message above which a non-question is an echo. */
    public static final double CONTAINMENT = 0.7;
    /** A replay of the stored text (even one with a question mark): the message lies almost wholly inside the
     *  item ({@code REPLAY} of its terms) and covers most of it ({@code REPLAY_COVER}). */
    public static final double REPLAY = 0.9, REPLAY_COVER = 0.75;
    /** A message of at least this many distinct terms lying wholly inside an item restates it, whatever else the item holds. */
    public static final int REPLAY_MIN_TERMS = 8;

    public static double containment(String message, String itemText) {
        List<String> item = RecallAnalyzer.terms(itemText);
        if (item.isEmpty()) return 0;
        Set<String> msg = new HashSet<>(RecallAnalyzer.terms(message));
        Set<String> itemSet = new HashSet<>(item);
        int in = 0;
        for (String t : itemSet) if (msg.contains(t)) in++;
        return (double) in / itemSet.size();
    }

    /** Null when the item may be injected, else why it is vetoed. */
    public static String veto(String message, String itemText) {
        double c = containment(message, itemText);
        int msgTerms = new HashSet<>(RecallAnalyzer.terms(message)).size();
        if ((c >= REPLAY_COVER || msgTerms >= REPLAY_MIN_TERMS && c >= 0.4) && containment(itemText, message) >= REPLAY)
            return String.format("echo: the message replays this item (%.0f%% of its terms)", c * 100);
        if (c >= CONTAINMENT && !Lanes.isQuestion(message)) {
            return String.format(
                    "echo: the message restates this item (%.0f%% of its terms) and asks nothing", c * 100);
        }
        return null;
    }
}
