package steward.sessions.audit;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import steward.StewardError;
import steward.claude.ClaudeSessionFile;
import steward.claude.FirstPrompt;
import steward.sessions.grouping.GroupingEngine;
import steward.sessions.grouping.HermesProjects;
import steward.sessions.grouping.TopicClusterer;
import steward.sessions.store.ClaudeSessions;
import steward.sessions.store.MessageContent;
import steward.sessions.store.SessionRow;
import steward.sessions.store.SessionStore;
import steward.sessions.store.Sqlite;
import steward.text.CodePoints;

/**
 * The audit's topic grouping: the sessions a user sees in each home's list (not subagents, not compression continuations,
 * not archived, not machine sessions as rule M classifies them; the newest {@value #MAX_SESSIONS} of each), clustered by {@link GroupingEngine} per home (Hermes {@code g1…},
 * Claude Code {@code c1…}); rule G rename items for the listed Hermes clusters whose advice is a title prefix; and which
 * cluster each session belongs to (rule E links to it).
 */
final class TopicGroups {
    /** Grouping looks at the newest this many sessions (the ones a sidebar shows), so a large store audits fast. */
    static final int MAX_SESSIONS = 500;

    static final int PROMPT_CHARS = 300;

    /** A cluster and the home its sessions live in. */
    record Found(String store, GroupingEngine.Cluster cluster) {}

    private final List<Found> clusters;
    private final Map<String, String> clusterOf = new HashMap<>();
    private final HermesProjects projects;
    private final int considered;

    /** No grouping: the audit covers no home with sessions to group. */
    static final TopicGroups NONE = new TopicGroups(List.of(), HermesProjects.NONE, 0);

    private TopicGroups(List<Found> clusters, HermesProjects projects, int considered) {
        List<Found> sorted = new ArrayList<>(clusters);
        // one list over both homes, newest activity first (a stable sort: each home's own order is kept)
        sorted.sort((a, b) ->
                Double.compare(b.cluster().newest_activity(), a.cluster().newest_activity()));
        this.clusters = List.copyOf(sorted);
        this.projects = projects;
        this.considered = considered;
        for (Found f : this.clusters)
            for (String id : f.cluster().session_ids())
                clusterOf.put(f.store() + ":" + id, f.cluster().cluster_id());
    }

    /** The groups of both homes in one list ({@code null}: that home was not grouped). */
    static TopicGroups merge(TopicGroups hermes, TopicGroups claude) {
        if (hermes == null) return claude == null ? NONE : claude;
        if (claude == null) return hermes;
        List<Found> all = new ArrayList<>(hermes.clusters);
        all.addAll(claude.clusters);
        String warning = hermes.projects.warning() == null
                ? claude.projects.warning()
                : claude.projects.warning() == null
                        ? hermes.projects.warning()
                        : hermes.projects.warning() + "; " + claude.projects.warning();
        HermesProjects p = new HermesProjects(hermes.projects.projects(), hermes.projects.source(), warning);
        return new TopicGroups(all, p, hermes.considered + claude.considered);
    }

    /** Claude Code's sessions as grouping sees them: title, first prompt (the transcript's head), working directory, project. */
    static List<GroupingEngine.Candidate> readClaude(ClaudeSessions src, List<SessionRow> rows) {
        List<SessionRow> cands = visible(rows);
        List<GroupingEngine.Candidate> out = new ArrayList<>(cands.size());
        for (SessionRow r : cands) {
            ClaudeSessionFile f = src.file(r.id());
            if (f == null) continue;
            String prompt = f.escapes() ? null : FirstPrompt.read(f.file(), PROMPT_CHARS);
            out.add(new GroupingEngine.Candidate(
                    r.id(), r.untitled() ? null : r.title(), prompt, f.facts().cwd(), r.lastActivity(), r.group()));
        }
        return out;
    }

    static TopicGroups buildClaude(List<GroupingEngine.Candidate> cands) {
        List<Found> found = GroupingEngine.groupClaude(cands, TopicClusterer.DEFAULT_THRESHOLD).stream()
                .map(c -> new Found(ClaudeSessions.STORE, c))
                .toList();
        return new TopicGroups(found, HermesProjects.NONE, cands.size());
    }

    /**
     * The sessions a user sees in the list (not subagents, not compression continuations, not archived, not machine
     * sessions: cron, gateway, API), newest {@value #MAX_SESSIONS}.
     */
    private static List<SessionRow> visible(List<SessionRow> rows) {
        // the sessions Hermes ended for compression, by id (the last row of an id decides, as in a map of every row)
        Map<String, SessionRow> compressed = new HashMap<>();
        for (SessionRow r : rows) {
            if ("compression".equals(r.endReason())) compressed.put(r.id(), r);
            else if (!compressed.isEmpty()) compressed.remove(r.id());
        }
        List<SessionRow> cands = new ArrayList<>();
        for (SessionRow r : rows) {
            if (r.subagent() || r.archived() || r.hidden()) continue;
            // cron runs, gateway threads and API requests are not the user's conversations (rule M's classification):
            // their titles ("cron: inbox digest run 41") would make a topic group per job
            if (steward.sessions.rules.MachineSessions.machine(r)) continue;
            if (r.parentSessionId() != null && compressed.containsKey(r.parentSessionId()))
                continue; // a continuation is the same conversation
            cands.add(r);
        }
        cands.sort(
                Comparator.comparingDouble(SessionRow::lastActivity).reversed().thenComparing(SessionRow::id));
        return cands.size() > MAX_SESSIONS ? cands.subList(0, MAX_SESSIONS) : cands;
    }

    /** Reads what grouping needs of the candidate sessions: working directory and first user prompt. */
    static List<GroupingEngine.Candidate> read(SessionStore store, List<SessionRow> rows) {
        List<SessionRow> cands = visible(rows);
        String cwd = store.hasSessionColumn("cwd") ? "cwd" : "NULL";
        List<GroupingEngine.Candidate> out = new ArrayList<>(cands.size());
        try (PreparedStatement ps = store.connection()
                .prepareStatement(
                        "SELECT " + cwd + ", (SELECT content FROM messages "
                                + "WHERE session_id = s.id AND role = 'user' ORDER BY timestamp, id LIMIT 1) FROM sessions s WHERE s.id = ?")) {
            for (SessionRow r : cands) {
                ps.setString(1, r.id());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) continue;
                    String prompt = rs.getString(2) == null
                            ? null
                            : CodePoints.prefix(MessageContent.text(rs.getString(2)), PROMPT_CHARS);
                    out.add(new GroupingEngine.Candidate(
                            r.id(), r.untitled() ? null : r.title(), prompt, rs.getString(1), r.lastActivity()));
                }
            }
        } catch (SQLException e) {
            throw new StewardError(
                    "session_audit", "cannot read sessions for topic grouping: " + Sqlite.describe(e), e);
        }
        return out;
    }

    static TopicGroups build(List<GroupingEngine.Candidate> cands, List<SessionRow> rows, HermesProjects projects) {
        Set<String> titles = new HashSet<>();
        for (SessionRow r : rows) if (!r.untitled()) titles.add(r.title());
        return new TopicGroups(
                GroupingEngine.group(cands, projects, titles, TopicClusterer.DEFAULT_THRESHOLD).stream()
                        .map(c -> new Found(SessionRow.HERMES, c))
                        .toList(),
                projects,
                cands.size());
    }

    /** The result of an asynchronous {@link #build}. Grouping is advice: its failure is reported, never the audit's failure. */
    static TopicGroups join(CompletableFuture<TopicGroups> f) {
        if (f == null) return null;
        try {
            return f.join();
        } catch (CompletionException | CancellationException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            String m = c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
            return new TopicGroups(List.of(), new HermesProjects(List.of(), null, "topic grouping skipped: " + m), 0);
        }
    }

    /** The listed cluster holding a session of that home, or null. */
    String clusterOf(String store, String sessionId) {
        return clusterOf.get(store + ":" + sessionId);
    }

    /**
     * Rule G: one rename item per Hermes session of the first {@code cap} clusters advised a title prefix (LOW: only when
     * approved). Claude Code clusters have suggestions only: Steward does not write Claude Code titles.
     */
    List<Plan.PlanItem> planItems(java.util.function.Function<String, SessionRow> byId, int cap, boolean headless) {
        List<Plan.PlanItem> out = new ArrayList<>();
        for (Found f : clusters.subList(0, Math.min(cap, clusters.size()))) {
            if (!f.store().equals(SessionRow.HERMES)) continue;
            GroupingEngine.Cluster c = f.cluster();
            for (GroupingEngine.Rename r : c.advice().renames()) {
                SessionRow s = byId.apply(r.session_id());
                if (s == null) continue;
                out.add(new Plan.PlanItem(
                        c.cluster_id() + ":" + s.id(),
                        s.id(),
                        "G",
                        "G/title_prefix",
                        "rename",
                        "LOW",
                        !headless,
                        null,
                        null,
                        c.cluster_id(),
                        AuditEngine.fingerprint(s),
                        "LOW",
                        null,
                        null,
                        false,
                        null,
                        null,
                        r.to(),
                        null,
                        null));
            }
        }
        return out;
    }

    AuditResult.TopicGroups out(int cap, String locale) {
        List<AuditResult.TopicGroup> items = new ArrayList<>();
        for (Found f : clusters.subList(0, Math.min(cap, clusters.size()))) {
            GroupingEngine.Cluster c = f.cluster();
            GroupingEngine.Advice a = c.advice();
            boolean hermes = f.store().equals(SessionRow.HERMES);
            List<AuditResult.Rename> renames = a.renames().stream()
                    .map(r -> new AuditResult.Rename(
                            hermes ? c.cluster_id() + ":" + r.session_id() : null, r.session_id(), r.from(), r.to()))
                    .toList();
            items.add(new AuditResult.TopicGroup(
                    c.cluster_id(),
                    f.store(),
                    c.label(),
                    c.session_ids().size(),
                    List.copyOf(c.session_ids()
                            .subList(0, Math.min(cap, c.session_ids().size()))),
                    Times.iso(c.newest_activity()),
                    new AuditResult.GroupAdvice(
                            a.kind(),
                            a.why().in(locale),
                            a.prefix(),
                            a.project_path(),
                            a.project_name(),
                            a.gathers(),
                            a.gathers_others(),
                            renames)));
        }
        List<String> names =
                projects.projects().stream().map(HermesProjects.Project::name).toList();
        return new AuditResult.TopicGroups(
                clusters.size(),
                items,
                Math.max(0, clusters.size() - items.size()),
                considered,
                projects.source(),
                names.subList(0, Math.min(cap, names.size())),
                projects.warning());
    }
}
