package steward.sessions;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import steward.config.StewardPaths;
import steward.sessions.apply.ApplyEngine;
import steward.sessions.apply.ApplyRequest;
import steward.sessions.apply.ApplyResult;
import steward.sessions.audit.AuditEngine;
import steward.sessions.audit.AuditRequest;
import steward.sessions.audit.AuditResult;
import steward.sessions.audit.Plan;
import steward.sessions.backup.RestoreEngine;
import steward.sessions.store.Sqlite;
import steward.testing.TestHomes;

/**
 * The learning loop's trust rules on random homes that change between runs (seeded: new chats, subagents of every kind,
 * compaction chains, sessions resumed, named, removed by Hermes, and changed between audit and apply) and seven simulated
 * users (approve once then silence, answer half, contradict, silent, restore, answer by report group, picky): every
 * session changed is one the user approved (or its rule runs on its own, and learning may only widen that on approvals in
 * two runs of a condition never vetoed), a child goes only with a parent whose question named it, rule F deletes only
 * the session the user approved as it was, and every restore brings the session back. Slow (about a minute), so it runs
 * only on request: {@code mvn -pl tools test -Dtest=LearningFuzzTest -Dsteward.fuzz=true [-Dsteward.fuzz.seeds=8]}.
 */
@EnabledIfSystemProperty(named = "steward.fuzz", matches = "true")
class LearningFuzzTest {
    static final String CURRENT = "20260810_071500_a6a3a4";
    static final double DAY = 86400.0;

    @TempDir
    Path tmp;

    static List<Object[]> cases() {
        List<Object[]> out = new ArrayList<>();
        for (String u : List.of("approveOnce", "partial", "contradict", "silent", "restorer", "group", "picky"))
            for (long seed = 1; seed <= Long.getLong("steward.fuzz.seeds", 4); seed++) out.add(new Object[] {u, seed});
        return out;
    }

    // --- simulated user memory
    static final class Mem {
        Map<String, Set<Integer>> approvedRuns = new HashMap<>(); // key -> runs with an explicit approval
        Set<String> vetoedKeys = new HashSet<>();
        Set<String> kept = new HashSet<>(); // sessions rejected/restored
        Map<String, Integer> approvedSession = new HashMap<>(); // session -> message count at approval
    }

    StewardPaths paths;
    Path db;
    Instant now = TestHomes.NOW;
    Random r;
    int seq = 0;
    List<String> violations = new ArrayList<>();

    double epoch() {
        return now.getEpochSecond();
    }

    Clock clock() {
        return Clock.fixed(now, ZoneOffset.UTC);
    }

    String id() {
        seq++;
        return String.format(
                "%s_%06d_%06x",
                java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd")
                        .withZone(ZoneOffset.UTC)
                        .format(now),
                seq,
                r.nextInt(0xffffff));
    }

    List<String> ids(String where) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = Sqlite.openReadOnly(db);
                var st = c.createStatement();
                var rs = st.executeQuery("SELECT id FROM sessions " + where)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    Map<String, Integer> counts() throws Exception {
        Map<String, Integer> out = new HashMap<>();
        try (Connection c = Sqlite.openReadOnly(db);
                var st = c.createStatement();
                var rs = st.executeQuery("SELECT id, message_count FROM sessions")) {
            while (rs.next()) out.put(rs.getString(1), rs.getInt(2));
        }
        return out;
    }

    void evolve() throws Exception {
        HermesRows h = HermesRows.into(db);
        List<String> ended = ids("WHERE ended_at IS NOT NULL AND source != 'subagent'");
        int n = 3 + r.nextInt(5);
        List<String> chainFix = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = id();
            double last = epoch() - (1 + r.nextInt(200)) * 3600.0;
            switch (r.nextInt(10)) {
                case 0 -> h.chat(id, pick("cli", "tui", "telegram"), null, true, r.nextInt(10) + 1, last);
                case 1 -> h.chat(id, pick("cli", "tui", "discord"), null, true, 11 + r.nextInt(30), last);
                case 2 -> h.chat(id, pick("cli", "tui"), "Topic " + id.substring(9), true, 5 + r.nextInt(20), last);
                case 3 ->
                    h.chat(
                            id,
                            "cron",
                            r.nextBoolean() ? "Job " + id.substring(9) : null,
                            true,
                            3,
                            epoch() - (15 + r.nextInt(10)) * DAY);
                case 4 -> { // parent with subagent children of mixed kinds
                    h.chat(id, "cli", null, true, r.nextInt(20) + 1, last);
                    int k = 1 + r.nextInt(3);
                    for (int j = 0; j < k; j++) {
                        String c = id();
                        int kind = r.nextInt(4);
                        h.subagent(
                                c,
                                id,
                                kind == 0 ? "Sub " + c.substring(9) : null,
                                kind != 1,
                                kind == 2 ? 12 : 2,
                                kind == 3 ? epoch() - 3600 : last - 600);
                    }
                }
                case 5 -> { // compression chain
                    String c = id();
                    h.chat(id, "cli", null, true, 8, last - 7200);
                    h.chat(c, "cli", null, r.nextBoolean(), 6, last);
                    chainFix.add(id + "|" + c);
                }
                case 6 -> {
                    if (!ended.isEmpty()) { // add a child to an existing session
                        String p = ended.get(r.nextInt(ended.size()));
                        h.subagent(
                                id,
                                p,
                                r.nextBoolean() ? null : "Late sub " + id.substring(9),
                                r.nextBoolean(),
                                1 + r.nextInt(8),
                                epoch() - r.nextInt(100) * 3600.0);
                    }
                }
                case 7 -> h.chat(id, pick("cli", "tui"), null, false, 1 + r.nextInt(20), last);
                default ->
                    h.subagent(
                            id,
                            ended.isEmpty() ? CURRENT : ended.get(r.nextInt(ended.size())),
                            null,
                            true,
                            r.nextInt(5),
                            epoch() - (4 + r.nextInt(5)) * DAY);
            }
        }
        h.write();
        for (String cf : chainFix) {
            String[] pc = cf.split("\\|");
            HermesRows.sql(db, "UPDATE sessions SET end_reason = 'compression' WHERE id = '" + pc[0] + "'");
            HermesRows.sql(db, "UPDATE sessions SET parent_session_id = '" + pc[0] + "' WHERE id = '" + pc[1] + "'");
        }
        // the user resumes an ended untitled session, or names one
        List<String> untitled = ids("WHERE ended_at IS NOT NULL AND (title IS NULL) AND source IN ('cli','tui')");
        if (!untitled.isEmpty() && r.nextInt(3) == 0) {
            String s = untitled.get(r.nextInt(untitled.size()));
            HermesRows.sql(
                    db,
                    "UPDATE sessions SET ended_at = NULL, end_reason = NULL, message_count = message_count + 5 WHERE id = '"
                            + s + "'");
            HermesRows.sql(
                    db,
                    "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('" + s
                            + "', 'user', 'resumed', " + (epoch() - 300) + ")");
        }
        if (!untitled.isEmpty() && r.nextInt(3) == 0) {
            String s = untitled.get(r.nextInt(untitled.size()));
            HermesRows.sql(db, "UPDATE sessions SET title = 'Named " + s + "' WHERE id = '" + s + "'");
        }
        // Hermes deletes something old on its own now and then
        if (r.nextInt(4) == 0) {
            List<String> subs = ids("WHERE source = 'subagent' AND ended_at IS NOT NULL");
            if (!subs.isEmpty()) {
                String s = subs.get(r.nextInt(subs.size()));
                HermesRows.sql(
                        db, "UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = '" + s + "'");
                HermesRows.sql(db, "DELETE FROM messages WHERE session_id = '" + s + "'");
                HermesRows.sql(db, "DELETE FROM sessions WHERE id = '" + s + "'");
            }
        }
    }

    String pick(String... o) {
        return o[r.nextInt(o.length)];
    }

    /** Hidden preference: what the user wants done with this session. */
    boolean wants(String user, AuditResult.Item it, int run) {
        var ev = it.evidence();
        boolean titled = ev.title() != null;
        return switch (user) {
            case "picky" -> !titled && ev.message_count() < 15 && !"telegram".equals(ev.source());
            case "contradict" -> run % 2 == 0;
            default -> !titled;
        };
    }

    @ParameterizedTest
    @MethodSource("cases")
    void runs(String user, long seed) throws Exception {
        paths = StewardPaths.of(TestHomes.copyFixture(tmp));
        db = paths.stateDb();
        r = new Random(seed * 31 + user.hashCode());
        Mem m = new Mem();
        List<Integer> asked = new ArrayList<>();
        for (int run = 1; run <= 8; run++) {
            if (run > 1) {
                now = now.plus(Duration.ofDays(1));
                evolve();
            }
            AuditEngine.Outcome o =
                    new AuditEngine(paths, clock()).audit(new AuditRequest(CURRENT, now, "interactive", "en", 5));
            AuditResult res = o.result();
            Plan plan = o.plan();
            asked.add(res.questions().asked());
            Map<String, AuditResult.Item> shown = new LinkedHashMap<>();
            for (AuditResult.RuleGroup g : res.groups().confirm())
                for (AuditResult.Item i : g.items()) shown.put(i.item_id(), i);
            for (AuditResult.Item i : res.groups().info().items()) shown.put(i.item_id(), i);
            for (AuditResult.Item i : res.groups().waiting().items()) shown.put(i.item_id(), i);
            for (AuditResult.Item i : res.groups().auto().items()) shown.put(i.item_id(), i);
            Map<String, String> dec = new HashMap<>();
            boolean answers = !user.equals("silent") && !(user.equals("approveOnce") && run > 1);
            if (answers) {
                if (user.equals("group")) {
                    for (AuditResult.DecisionGroup g : res.decision_groups()) {
                        if (!g.section().equals("ask") || g.action().equals("review")) continue;
                        if (!g.action().equals("delete")) continue;
                        boolean allUntitled = g.examples().stream().allMatch(e -> e.title() == null);
                        dec.put(g.group_id(), allUntitled ? "approve" : "reject");
                    }
                } else {
                    int k = 0;
                    for (AuditResult.Item i : shown.values()) {
                        String q = i.question();
                        if (!"new".equals(q) && !"waiting".equals(q)) continue;
                        if (!i.action().equals("delete") && !i.action().equals("mark_ended")) continue;
                        if (user.equals("partial") && k++ % 2 == 1) continue;
                        boolean y = wants(user, i, run);
                        if (i.takes_along() != null && !i.takes_along().isEmpty() && !user.equals("contradict"))
                            y = false;
                        dec.put(i.item_id(), y ? "approve" : "reject");
                    }
                    if (user.equals("picky")) // rejects automatic deletions it would not want
                    for (AuditResult.Item i : res.groups().auto().items())
                            if (!wants(user, i, run)) dec.put(i.item_id(), "reject");
                }
            }
            // which plan items the user approved / rejected, as the user sees it
            Map<String, Plan.PlanItem> byItem = new HashMap<>();
            for (Plan.PlanItem pi : plan.items()) byItem.put(pi.item_id(), pi);
            Set<String> approved = new HashSet<>(), rejected = new HashSet<>();
            for (var e : dec.entrySet()) {
                Set<String> target = e.getValue().equals("approve") ? approved : rejected;
                AuditResult.DecisionGroup g = res.decision_groups().stream()
                        .filter(x -> e.getKey().equals(x.group_id()))
                        .findFirst()
                        .orElse(null);
                if (g != null) target.addAll(g.item_ids());
                else target.add(e.getKey());
            }
            Map<String, Integer> before = counts();
            Set<String> beforeActive = new HashSet<>(ids("WHERE ended_at IS NULL"));
            // the home changes between audit and apply now and then
            if (r.nextInt(3) == 0) {
                List<Plan.PlanItem> del = plan.items().stream()
                        .filter(pi -> pi.action().equals("delete"))
                        .toList();
                if (!del.isEmpty()) {
                    Plan.PlanItem t = del.get(r.nextInt(del.size()));
                    if (r.nextBoolean())
                        HermesRows.sql(
                                db,
                                "UPDATE sessions SET title = 'Late name " + t.session_id() + "' WHERE id = '"
                                        + t.session_id() + "'");
                    else
                        HermesRows.into(db)
                                .subagent(id(), t.session_id(), null, false, 2, epoch() - 60)
                                .write();
                }
            }
            ApplyResult ar = new ApplyEngine(paths, clock())
                    .apply(new ApplyRequest(plan.plan_id(), dec, Map.of(), Map.of(), false, CURRENT, Map.of()));
            Map<String, Integer> after = counts();
            Set<String> autoIds = new HashSet<>();
            for (ApplyResult.Auto a : ar.automatic()) autoIds.add(a.item_id());
            // invariants on every executed item
            for (ApplyResult.Done d : ar.executed()) {
                Plan.PlanItem pi = byItem.get(d.item_id());
                String tag = user + "/" + seed + " run " + run + " " + d.action() + " " + d.session_id() + " ["
                        + pi.key() + " " + pi.confidence() + " base " + pi.base() + " q=" + pi.question() + " casc="
                        + pi.cascade_of() + "]";
                boolean explicit =
                        approved.contains(pi.item_id()) || (pi.chain() != null && approved.contains(pi.chain()));
                if (pi.cascade_of() != null) {
                    Plan.PlanItem parent = byItem.get(pi.cascade_of());
                    while (parent != null && parent.cascade_of() != null) parent = byItem.get(parent.cascade_of());
                    boolean parentExplicit = parent != null
                            && (approved.contains(parent.item_id())
                                    || (parent.chain() != null && approved.contains(parent.chain())));
                    if (!parentExplicit && !explicit)
                        violations.add(tag + ": cascade child deleted without its parent being approved; parent "
                                + parent + " dec=" + dec + " groups="
                                + res.decision_groups().stream()
                                        .filter(g -> g.item_ids().contains(pi.cascade_of()))
                                        .toList());
                    if (parent != null
                            && (parent.held_by() == null || !parent.held_by().contains(pi.session_id())))
                        violations.add(tag + ": cascade child not named by its parent's question");
                    continue;
                }
                if (rejected.contains(pi.item_id())) violations.add(tag + ": executed though rejected");
                if (explicit) continue;
                if (!autoIds.contains(pi.item_id())) violations.add(tag + ": ran unasked but not listed as automatic");
                if (!pi.automatic()) violations.add(tag + ": ran without approval and not HIGH");
                if (m.kept.contains(pi.session_id())) violations.add(tag + ": automatic on a session the user kept");
                if (pi.rule().equals("F")) {
                    Integer at = m.approvedSession.get(pi.session_id());
                    if (at == null) violations.add(tag + ": F delete of a session the user never approved");
                    else if (!at.equals(before.get(pi.session_id())))
                        violations.add(tag + ": F delete of a session changed since approval (" + at + " -> "
                                + before.get(pi.session_id()) + ")");
                    if (beforeActive.contains(pi.session_id())) violations.add(tag + ": F delete of an active session");
                } else if (!"HIGH".equals(pi.base())) {
                    int runsApproved =
                            m.approvedRuns.getOrDefault(pi.key(), Set.of()).size();
                    if (runsApproved < 2)
                        violations.add(tag + ": promoted condition approved in " + runsApproved + " runs only");
                    if (m.vetoedKeys.contains(pi.key()))
                        violations.add(tag + ": promoted condition the user vetoed before");
                } else if (m.vetoedKeys.contains(pi.key()))
                    violations.add(tag + ": HIGH condition vetoed before still automatic");
            }
            // learn what the user said (the simulated user's own memory)
            for (String iid : approved) {
                Plan.PlanItem pi = byItem.get(iid);
                if (pi == null
                        || pi.cascade_of() != null
                        || !pi.executable()
                        || pi.action().equals("review")) continue;
                if (!"HIGH".equals(pi.confidence()) && !pi.rule().equals("F"))
                    m.approvedRuns
                            .computeIfAbsent(pi.key(), k -> new HashSet<>())
                            .add(run);
                m.approvedSession.putIfAbsent(pi.session_id(), before.get(pi.session_id()));
                m.kept.remove(pi.session_id());
            }
            for (String iid : rejected) {
                Plan.PlanItem pi = byItem.get(iid);
                if (pi == null || pi.action().equals("review")) continue;
                if (!pi.rule().equals("F")
                        && (pi.held_by() == null || pi.held_by().isEmpty())
                        && pi.cascade_of() == null) m.vetoedKeys.add(pi.key());
                m.kept.add(pi.session_id());
                m.approvedSession.remove(pi.session_id());
            }
            // restorer: takes back one automatic action and one approved deletion, checks it is back
            if (user.equals("restorer") && ar.backup() != null) {
                List<ApplyResult.Auto> autos = ar.automatic().stream()
                        .filter(a -> a.action().equals("delete"))
                        .toList();
                List<String> back = new ArrayList<>();
                if (!autos.isEmpty()) {
                    ApplyResult.Auto a = autos.get(r.nextInt(autos.size()));
                    back.add(a.session_id());
                    m.vetoedKeys.add(a.condition());
                    m.kept.add(a.session_id());
                }
                for (ApplyResult.Done d : ar.executed()) {
                    Plan.PlanItem pi = byItem.get(d.item_id());
                    if (d.action().equals("delete")
                            && approved.contains(d.item_id())
                            && pi.cascade_of() == null
                            && pi.held_by() == null
                            && back.size() < 2) {
                        back.add(d.session_id());
                        m.kept.add(d.session_id());
                        // restoring an approved item: the approval is taken back
                        Set<Integer> rs = m.approvedRuns.get(pi.key());
                        if (rs != null) rs.remove(run);
                        break;
                    }
                }
                if (!back.isEmpty()) {
                    new RestoreEngine(paths, clock()).restore(ar.backup().backup_id(), back);
                    for (String b : back)
                        if (!HermesRows.exists(db, b))
                            violations.add(user + "/" + seed + " run " + run + ": restore did not bring back " + b);
                }
            }
        }
        // questions asked per run, for whoever runs it
        System.err.println("learning fuzz " + user + "/" + seed + ": questions asked per run " + asked);
        assertTrue(violations.isEmpty(), String.join("\n", violations));
    }
}
