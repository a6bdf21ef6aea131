package steward.recall;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class EchoVetoTest {
    static final String ITEM = "[rule] Before editing memories/ or skills/: back up, show the diff, wait for approval";

    @Test
    void restatingAStoredRuleIsVetoed() {
        assertNotNull(EchoVeto.veto(
                "Before editing memories or skills, back up, show the diff and wait for approval.", ITEM));
    }

    @Test
    void replayingAStoredTurnIsVetoedEvenWithAQuestionMark() {
        String turn =
                "Melanie: I just signed up for a pottery class yesterday. Have you found any activities that make you feel creative?";
        assertNotNull(EchoVeto.veto(
                "I just signed up for a pottery class yesterday. Have you found any activities that make you feel creative?",
                turn));
    }

    @Test
    void aQuestionAboutTheStoredFactIsNotAnEcho() {
        assertNull(EchoVeto.veto("What do I have to do before editing skills?", ITEM));
    }

    @Test
    void aStatementSharingFewWordsIsNotAnEcho() {
        assertNull(EchoVeto.veto("I am editing the deploy skill now", ITEM));
    }
}
