package steward.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecallIndexTest {
    @Test
    void speakerIsTheNameAChatLineStartsWith() {
        assertEquals("melanie", RecallIndex.speaker("Melanie: I ran a charity race last Saturday."));
        assertEquals("mary ann lee", RecallIndex.speaker("Mary Ann Lee: see you"));
        assertEquals("josé", RecallIndex.speaker("José: hola"));
    }

    @Test
    void noSpeakerWithoutANameColonPrefix() {
        assertNull(RecallIndex.speaker("note: lower-case words are not names"));
        assertNull(RecallIndex.speaker("The plan for today: finish the report and ship it"));
        assertNull(RecallIndex.speaker("12:30 lunch"));
        assertNull(RecallIndex.speaker(null));
    }

    @Test
    void onlySpeakersThatStartAShareOfTheMessagesCount() {
        // "Remember: …" parses like a name but starts one message of 200: not a participant
        assertEquals("remember", RecallIndex.speaker("Remember: the deploy key lives in the vault."));
        assertEquals(
                Set.of("alice", "bob"),
                RecallIndex.recurringSpeakers(Map.of("alice", 90, "bob", 100, "remember", 1, "plan", 3), 200));
        assertEquals(Set.of("alice"), RecallIndex.recurringSpeakers(Map.of("alice", 3, "bob", 2), 10));
    }

    @Test
    void aMessageAsksWhenItsLastSentenceIsAQuestion() {
        assertTrue(RecallIndex.asks("Caroline: Wow, that's awesome! What's your best camping memory?"));
        assertTrue(RecallIndex.asks("Melanie: Isn't it pretty? [shared a photo: a sunset over a lake]"));
        assertTrue(RecallIndex.asks("你还记得上次的决定吗？"));
    }

    @Test
    void aStatementDoesNotAsk() {
        assertFalse(RecallIndex.asks("Melanie: Did you know? I signed up for a pottery class yesterday."));
        assertFalse(RecallIndex.asks("We decided to ship on Friday."));
        assertFalse(RecallIndex.asks(""));
    }
}
