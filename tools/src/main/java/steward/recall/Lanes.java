package steward.recall;

import java.util.regex.Pattern;

/**
 * Lane of a recall_inject call: explicit when the message asks to remember, refers back to the past or
 * asks a question (about a past fact); else proactive, which needs more evidence before anything is injected.
 */
public final class Lanes {
    private Lanes() {}

    public static final String EXPLICIT = "explicit", PROACTIVE = "proactive";

    static final Pattern REFERS_BACK =
            Pattern.compile("(?i)\\b(remember|recall|remind me|last time|we decided|we agreed|"
                    + "previously|earlier|before|you said|i told you|did i|have i|the other day|back when)\\b|"
                    + "上次|之前|以前|还记得|记得|我们决定|说过|提到过|回忆");
    static final Pattern QUESTION_START =
            Pattern.compile("(?i)^\\s*(what|when|where|who|whom|which|why|how|did|do|does|is|are|"
                    + "was|were|can|could|has|have|had|would|will|should)\\b");
    static final Pattern QUESTION_CJK = Pattern.compile("[吗呢？]|什么|哪|谁|怎么|为什么|几|多少");

    public static boolean isQuestion(String message) {
        String m = message.strip();
        return m.contains("?")
                || QUESTION_START.matcher(m).find()
                || QUESTION_CJK.matcher(m).find();
    }

    public static boolean refersBack(String message) {
        return REFERS_BACK.matcher(message).find();
    }

    public static String lane(String message) {
        return refersBack(message) || isQuestion(message) ? EXPLICIT : PROACTIVE;
    }
}
