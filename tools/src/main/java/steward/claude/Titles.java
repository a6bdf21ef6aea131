package steward.claude;

import java.util.List;

/** Title precedence, as Claude Code's session list shows it: the user's rename, else the generated title, else a summary. */
public final class Titles {
    private Titles() {}

    /**
     * The latest entry of the highest-ranked kind present, or null when there is no title entry. Within a kind the
     * latest entry wins, and a latest entry that is empty clears that kind (a rename to nothing).
     */
    public static TitleEntry effective(List<TitleEntry> titles) {
        TitleEntry custom = null, ai = null, summary = null;
        for (TitleEntry t : titles) {
            switch (t.kind()) {
                case TitleEntry.CUSTOM -> custom = later(custom, t);
                case TitleEntry.AI -> ai = later(ai, t);
                case TitleEntry.SUMMARY -> summary = later(summary, t);
                default -> {}
            }
        }
        return usable(custom) ? custom : usable(ai) ? ai : usable(summary) ? summary : null;
    }

    private static boolean usable(TitleEntry t) {
        return t != null && t.text() != null && !t.text().isBlank();
    }

    private static TitleEntry later(TitleEntry a, TitleEntry b) {
        return a == null || b.line() >= a.line() ? b : a;
    }

    /** The field holding the title of an entry of this kind, or null when the kind bears none. */
    public static String field(String kind) {
        return switch (kind) {
            case TitleEntry.CUSTOM -> "customTitle";
            case TitleEntry.AI -> "aiTitle";
            case TitleEntry.SUMMARY -> "summary";
            case TitleEntry.TAG -> "tag";
            default -> null;
        };
    }
}
