package steward.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditResult;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;

/**
 * The six findings of issue 11, each reproduced on a copy of fixtures/hermes-home with sessions inserted as
 * Hermes writes them: housekeeping a user can trust.
 */
class TrustFindingsTest extends FixtureHomeRuns {
    /** Lines of the report that ask the user something: the questions listed by name, plus each grouped question line. */
    static int questions(AuditResult r) {
        return r.questions().asked();
    }

    /** Promotes B/long to HIGH: one approved long untitled chat in each of two runs. */
    void promoteBLong() {
        for (int run = 0; run < 2; run++) {
            Plan p = audit().plan();
            apply(p, Map.of(items(p, "B/long").get(0).item_id(), "approve"), Map.of());
        }
    }

    // 1. A kept child deleted with its parent.
    @Test
    void keptRunningSubagentIsNeverDeletedWithItsParent() throws Exception {
        String p = "20260810_091500_c11a01", k = "20260810_092000_c11a02";
        HermesRows.into(db)
                .chat(p, "cli", null, false, 6, epoch() - 600)
                .subagent(k, p, null, false, 3, epoch() - 300)
                .write();
        Plan p1 = audit().plan();
        Plan.PlanItem ki = item(p1, k);
        assertEquals("C/untitled", ki.condition());
        apply(p1, Map.of(ki.item_id(), "reject"), Map.of(), Map.of(), Map.of(ki.item_id(), "in_use"));
        assertTrue(prefs().session_level.retain.stream().anyMatch(m -> m.id.equals(k)), "K is in kept_ids");

        later(2);
        HermesRows.end(db, k, epoch() - DAY, "completed");
        HermesRows.end(db, p, epoch() - DAY, "cli_close");
        AuditEngine.Outcome o2 = audit();
        assertFalse(auto(o2.result()).contains(k), "a kept session never runs automatically");
        assertFalse(auto(o2.result()).contains(p), "the parent's deletion would take the kept child: it is a question");
        Plan.PlanItem pi = item(o2.plan(), p);
        assertNotNull(pi);
        assertTrue(pi.reason().contains(k), "the question names the child: " + pi.reason());
        apply(o2.plan(), Map.of(), Map.of());
        assertTrue(HermesRows.exists(db, k), "the kept child is still there");
        assertTrue(HermesRows.exists(db, p), "nothing was asked, so the parent stays too");
    }

    // 2. A promotion widens what runs automatically.
    @Test
    void promotionNeverTakesATitledSubagentAlong() throws Exception {
        promoteBLong();
        later(1);
        String p = "20260811_080000_b20001", t = "20260811_081000_b20002";
        HermesRows.into(db)
                .chat(p, "cli", null, true, 16, epoch() - 3 * 3600)
                .subagent(t, p, "Review notes", true, 6, epoch() - 4 * 3600)
                .write();
        AuditEngine.Outcome o = audit();
        assertFalse(auto(o.result()).contains(t), "no rule deletes a titled 6-message subagent on its own");
        assertFalse(auto(o.result()).contains(p), "so its parent's deletion is asked");
        assertTrue(item(o.plan(), p).reason().contains(t), item(o.plan(), p).reason());
        apply(o.plan(), Map.of(), Map.of());
        assertTrue(HermesRows.exists(db, t));
        assertTrue(HermesRows.exists(db, p));
    }

    // 3a. A group approval turns a report-only item into a future automatic delete.
    @Test
    void groupApprovalNeverTurnsAReportOnlyItemIntoADeletion() throws Exception {
        String titled = "20260807_095200_bbab27"; // C/titled: an active titled subagent, reported only
        // idle for 2 days it would be ended by rule M; with M off for subagents, rule C reports it
        Files.writeString(paths.configYaml(), "steward:\n  machine_idle_hours:\n    subagent: 0\n");
        AuditEngine.Outcome o = audit();
        assertEquals("review", item(o.plan(), titled).action());
        apply(o.plan(), Map.of(), Map.of("C", "approve"));
        assertTrue(prefs().session_level.delete.stream().noneMatch(m -> m.id.equals(titled)), "not 'delete asked for'");
        AuditEngine.Outcome o2 = audit();
        assertFalse(auto(o2.result()).contains(titled));
        assertEquals("C", item(o2.plan(), titled).rule());
    }

    // 3b. A group rejection covers only the questions the report showed (counted in its line).
    @Test
    void groupRejectionCoversOnlyTheQuestionsShown() throws Exception {
        AuditEngine.Outcome o = audit(2);
        List<String> shortIds = items(o.plan(), "B/short").stream()
                .map(Plan.PlanItem::session_id)
                .toList();
        assertFalse(shortIds.isEmpty());
        // four long chats, more than a group lists (2): asked in one counted line, not two by name and two over the cap
        AuditResult.DecisionGroup line = o.result().decision_groups().stream()
                .filter(g -> "B/long".equals(g.condition()) && g.section().equals("ask"))
                .findFirst()
                .orElseThrow();
        Set<String> shownLong = new HashSet<>(line.item_ids());
        assertEquals(4, line.count());
        assertTrue(o.text().contains(line.group_id() + " B/long") && o.text().contains("· 4 ("), o.text());
        ApplyResult r = apply(o.plan(), Map.of(), Map.of("B", "reject"));
        for (String s : shortIds)
            assertFalse(HermesRows.exists(db, s), "an automatic B/short item is not covered by B=reject: " + s);
        Set<String> kept = prefs().session_level.retain.stream().map(m -> m.id).collect(Collectors.toSet());
        assertEquals(shownLong, kept, "only the long chats the report showed were rejected");
        assertTrue(r.skipped().stream()
                .noneMatch(s -> s.reason().equals("rejected") && shortIds.contains(s.session_id())));
    }

    // 4. No way back after a promotion unless the user reads the automatic list.
    @Test
    void restoringAnAutomaticDeletionIsAVetoOfItsCondition() throws Exception {
        promoteBLong();
        later(1);
        // two long chats ended since: never asked about (those asked and left unanswered stay questions)
        HermesRows.into(db)
                .chat("20260811_090000_f30001", "cli", null, true, 18, epoch() - 7200)
                .chat("20260811_091000_f30002", "cli", null, true, 19, epoch() - 7000)
                .write();
        AuditEngine.Outcome o3 = audit();
        List<String> autoLong = items(o3.plan(), "B/long").stream()
                .filter(i -> i.confidence().equals("HIGH"))
                .map(Plan.PlanItem::session_id)
                .toList();
        assertEquals(
                List.of("20260811_090000_f30001", "20260811_091000_f30002"),
                autoLong.stream().sorted().toList(),
                "B/long runs automatically now, on what was never asked");
        ApplyResult r3 = apply(o3.plan(), Map.of(), Map.of());
        for (String s : autoLong) assertFalse(HermesRows.exists(db, s));
        // every automatic action is listed with its condition and its one-line undo
        for (String s : autoLong) {
            ApplyResult.Auto a = r3.automatic().stream()
                    .filter(x -> x.session_id().equals(s))
                    .findFirst()
                    .orElseThrow();
            assertEquals("B/long", a.condition());
            assertTrue(a.undo().contains(r3.backup().backup_id()) && a.undo().contains(s), a.undo());
        }
        RestoreEngine.Result rr =
                new RestoreEngine(paths, clock()).restore(r3.backup().backup_id(), autoLong);
        String said = String.join(" ", rr.learning().summary());
        assertTrue(
                said.contains("B/long") && said.contains("contradiction"),
                "restoring a promoted condition's items is a contradiction: " + said);
        assertTrue(said.contains("B/long demoted to MEDIUM"), "two restores demote it: " + said);
        later(1);
        String fresh = "20260812_090000_f40001";
        HermesRows.into(db).chat(fresh, "cli", null, true, 18, epoch() - 7200).write();
        AuditEngine.Outcome o4 = audit();
        Plan.PlanItem fi = item(o4.plan(), fresh);
        assertEquals("B/long", fi.condition());
        assertEquals(
                "MEDIUM", fi.confidence(), "restoring what B/long deleted automatically stops it from running unasked");
        for (String s : autoLong) assertFalse(auto(o4.result()).contains(s), "restored sessions are kept");
    }

    // 5a. An apply that demoted a rule says so.
    @Test
    void aVetoThatStopsAutomaticRunsIsReported() {
        Plan p = audit().plan();
        Plan.PlanItem shell = items(p, "A/shell").get(0);
        ApplyResult r = apply(p, Map.of(shell.item_id(), "reject"), Map.of());
        String learned = r.learning().summary().get(0);
        assertFalse(learned.contains("nothing new"), learned);
        assertTrue(learned.contains("A/shell"), learned);
    }

    // 5b. A rename is a rename, and is counted.
    @Test
    void aRenameIsRecordedAsARename() {
        Plan p = audit().plan();
        Plan.PlanItem b = items(p, "B/long").get(0);
        ApplyResult r = apply(p, Map.of(), Map.of(), Map.of(b.session_id(), "Postgres notes"), Map.of());
        String all = String.join(" ", r.learning().summary());
        assertTrue(all.contains("renamed"), all);
        assertFalse(all.contains("kept"), all);
        assertEquals(1, prefs().session_level.rename.size());
    }

    // 5c. No promotion is claimed that the safety cap holds back.
    @Test
    void aPromotionTheSafetyCapHoldsBackIsNotClaimed() {
        List<String> lines = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            Plan p = audit().plan();
            List<Plan.PlanItem> stale = items(p, "D/stale");
            if (stale.isEmpty()) break;
            lines.addAll(apply(p, Map.of(stale.get(0).item_id(), "approve"), Map.of())
                    .learning()
                    .summary());
        }
        String all = String.join(" | ", lines);
        assertTrue(all.contains("D/stale"), all);
        assertFalse(all.matches(".*D/stale promoted to HIGH(?! .*safety cap).*"), all);
        assertTrue(all.contains("stays asked: safety cap"), all);
        assertTrue(items(audit().plan(), "D/stale").stream()
                .noneMatch(i -> i.confidence().equals("HIGH")));
    }

    /** New sessions of several kinds, as they arrive between runs. */
    void arrivals(int run) throws Exception {
        String d = String.format("202608%02d", 10 + run);
        HermesRows rows = HermesRows.into(db);
        for (int i = 0; i < 2; i++)
            rows.chat(d + "_0" + i + "0000_6b" + run + "00" + i, "cli", null, true, 14 + i, epoch() - (3 + i) * 3600);
        rows.subagent(d + "_020000_6c" + run + "000", "20260702_112900_0becd7", null, false, 2, epoch() - 1800);
        for (int i = 0; i < 2; i++)
            rows.chat(
                    d + "_03" + i + "000_6d" + run + "00" + i,
                    "tui",
                    "Arrival topic " + run + "-" + i,
                    false,
                    8,
                    epoch() - 5 * DAY);
        rows.write();
    }

    // 6a. Silent users drown.
    @Test
    void aSilentUserIsNotAskedMoreEveryRun() throws Exception {
        List<Integer> asked = new ArrayList<>();
        for (int run = 1; run <= 6; run++) {
            if (run > 1) {
                later(1);
                arrivals(run);
            }
            AuditEngine.Outcome o = audit();
            asked.add(questions(o.result()));
            apply(o.plan(), Map.of(), Map.of());
        }
        assertTrue(asked.get(5) <= asked.get(0), "questions per run do not grow: " + asked);
        assertTrue(asked.stream().allMatch(n -> n <= 10), "at most 10 question lines per run: " + asked);
    }

    // 6b. Rule D's ignored warning collapses into one line; once that line is ignored too, a status line that asks
    // nothing.
    @Test
    void anIgnoredTooManyActiveWarningCollapsesIntoOneLine() throws Exception {
        List<Integer> dLines = new ArrayList<>();
        List<String> collapsedSummaries = new ArrayList<>();
        AuditResult last = null;
        for (int run = 1; run <= 6; run++) {
            if (run > 1) {
                later(1);
                arrivals(run);
            }
            AuditEngine.Outcome o = audit();
            last = o.result();
            dLines.add(dQuestions(o.result()));
            for (AuditResult.RuleGroup c : o.result().groups().collapsed()) collapsedSummaries.add(c.summary());
            Map<String, String> answers = new HashMap<>();
            for (AuditResult.RuleGroup g : o.result().groups().confirm()) {
                for (AuditResult.Item i : g.items())
                    if (!i.rule().equals("D") && question(i)) answers.put(i.item_id(), "approve");
            }
            for (AuditResult.Item i : o.result().groups().info().items())
                if (!i.rule().equals("D") && question(i)) answers.put(i.item_id(), "approve");
            apply(o.plan(), answers, Map.of());
        }
        assertEquals(6.0, prefs().active_threshold, "N rose to its cap");
        assertTrue(
                dLines.stream().allMatch(n -> n <= 1),
                "rule D asks in one line, never one question per stale session: " + dLines);
        final AuditResult r = last;
        assertTrue(
                r.groups().collapsed().stream().anyMatch(c -> c.rule().equals("D") && c.count() > 0),
                "ignored up to N's cap: collapsed");
        assertTrue(
                collapsedSummaries.stream().anyMatch(x -> x.contains("this warning went unanswered")),
                collapsedSummaries.toString());
        // that line went unanswered too: the warning is now a status line that asks nothing, and nothing was done
        assertTrue(
                r.groups().collapsed().get(0).summary().contains("(status, not asked)"),
                r.groups().collapsed().get(0).summary());
        assertTrue(r.groups().collapsed().get(0).items().stream().allMatch(i -> "status".equals(i.question())));
        assertEquals(0, dLines.get(5), "a status line is no question: " + dLines);
    }

    /** Asked in this report: by name, or in its rule's one line. */
    static boolean question(AuditResult.Item i) {
        return "new".equals(i.question()) || "grouped".equals(i.question());
    }

    /** Rule D's question lines: D items asked by name, one line for its grouped items, one per collapsed D line. */
    static int dQuestions(AuditResult r) {
        int n = 0;
        boolean grouped = false;
        List<AuditResult.Item> all = new ArrayList<>(r.groups().info().items());
        for (AuditResult.RuleGroup g : r.groups().confirm()) all.addAll(g.items());
        for (AuditResult.Item i : all) {
            if (!i.rule().equals("D")) continue;
            if ("new".equals(i.question())) n++;
            if ("grouped".equals(i.question())) grouped = true;
        }
        for (AuditResult.RuleGroup c : r.groups().collapsed()) {
            if (c.rule().equals("D") && c.items().stream().anyMatch(i -> "collapsed".equals(i.question()))) n++;
        }
        return n + (grouped ? 1 : 0);
    }
}
