package steward.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Concepts: English and Chinese wordings of one fact share concepts; anchors and negation tell facts apart. */
class ConceptsTest {
    @Test
    void englishAndChineseWordingsOfOneFactShareTheirConcepts() {
        Concepts.Bag en = Concepts.of("Back up config.yaml before you edit it");
        Concepts.Bag zh = Concepts.of("修改 config.yaml 之前先备份");
        assertEquals(1.0, Concepts.coverage(zh, en), 1e-9, zh + " / " + en);
        assertEquals(1.0, Concepts.coverage(en, zh), 1e-9);
        assertEquals(List.of(), Concepts.missingAnchors(zh, en));
    }

    @Test
    void anEnglishWordAndItsInflectionsAreOneConcept() {
        assertEquals(
                Concepts.of("deploying").weights().keySet(),
                Concepts.of("deployment").weights().keySet());
        assertTrue(Concepts.of("deploys").weights().containsKey("deploy"));
    }

    @Test
    void versionsHostsAndPathsAreAnchorsKeptVerbatim() {
        Concepts.Bag b = Concepts.of("Postgres 16 on db01, data in /srv/pg");
        assertTrue(
                b.anchors().containsAll(List.of("16", "db01", "srv/pg")),
                b.anchors().toString());
        assertEquals(
                List.of("15"),
                Concepts.missingAnchors(Concepts.of("Postgres 15 on db01"), Concepts.of("Postgres 16 on db01")));
    }

    @Test
    void aNegatedTextLacksNothingOnlyWhenItsMatchNegatesToo() {
        Concepts.Bag neg = Concepts.of("预发部署不需要 VPN");
        assertEquals(List.of("not"), Concepts.missingAnchors(neg, Concepts.of("staging deploys need the VPN")));
        assertEquals(List.of(), Concepts.missingAnchors(neg, Concepts.of("staging deploys do not need the VPN")));
    }

    @Test
    void functionWordsCarryNothingAndUnknownNamesWeighMoreThanCommonWords() {
        assertTrue(Concepts.of("the and of").isEmpty());
        Concepts.Bag b = Concepts.of("fish shell");
        assertEquals(Concepts.NAME, b.weights().get("fish"));
        assertFalse(b.anchors().contains("fish"));
        assertTrue(Concepts.coverage(Concepts.of("zsh shell"), b) <= 0.5);
    }

    @Test
    void wordsInExchangedRolesAreASwapAndRewordingIsNot() {
        assertEquals(
                List.of("db05", "db04"),
                Concepts.swapped(
                        Concepts.of("Production database is Postgres 15 on db05, replica on db04"),
                        Concepts.of("Production database is Postgres 15 on db04, replica on db05")));
        assertEquals(
                List.of("appli", "plan"),
                Concepts.swapped(
                        Concepts.of("Always run terraform apply before terraform plan"),
                        Concepts.of("Always run terraform plan before terraform apply")));
        Concepts.Bag same = Concepts.of("Always run terraform plan before terraform apply");
        assertEquals(List.of(), Concepts.swapped(same, same));
        assertEquals(
                List.of(),
                Concepts.swapped(Concepts.of("User prefers answers in Chinese"), Concepts.of("用户偏好：中文回答")),
                "neighbours trade places in wording alone");
        assertEquals(
                List.of(),
                Concepts.swapped(
                        Concepts.of("Prod deploys only from CI; staging deploys need the VPN"),
                        Concepts.of("Staging deploys need the VPN; prod deploys only from CI")),
                "clauses in another order");
    }
}
