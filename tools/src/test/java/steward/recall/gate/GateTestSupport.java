package steward.recall.gate;

import java.util.Set;
import steward.recall.RecallItem;

final class GateTestSupport {
    private GateTestSupport() {}

    static RecallItem item(String uri, String text) {
        return new RecallItem(uri, "session", "session:s1", "", text, "", 1.7e9, "s1", false);
    }

    static Gate.Context ctx(Set<String> own, Set<String> recentTexts, Set<String> cooldown, Set<String> harmful) {
        return new Gate.Context("s1", own, recentTexts, cooldown, harmful);
    }

    static final Gate.Context EMPTY = ctx(Set.of(), Set.of(), Set.of(), Set.of());
}
