package steward.sessions.inspect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.StewardError;
import steward.sessions.audit.Times;
import steward.text.CodePoints;
import steward.text.TitleAnalyzer;
import tools.jackson.databind.JsonNode;

/**
 * {@code session_inspect}: what happened in one session (or a few), from any {@link SessionSource}. One pass over the
 * session's messages collects the timeline, messages by role, tool calls paired with their results, files and
 * commands; subagents are read from their own sessions; lineage from the parent and children. Read-only.
 */
public final class InspectEngine {
    public static final int MAX_SESSIONS = 5;
    public static final int DEFAULT_ITEMS = 8;
    public static final int MAX_ITEMS = 50;
    public static final int DEFAULT_GAP_MINUTES = 30;
    public static final int MAX_GAP_MINUTES = 7 * 1440;
    static final int EXCERPT = 160;
    static final int PROMPT_CHARS = 400;
    static final int MAX_CHAIN = 50;

    /** The sessions to inspect, the pause that separates phases, and how many entries each list keeps. */
    public record Request(List<String> sessionIds, double gapMinutes, int maxItems) {
        public Request {
            if (sessionIds == null || sessionIds.isEmpty())
                throw new StewardError("session_inspect", "give session_id or session_ids");
            LinkedHashSet<String> ids = new LinkedHashSet<>();
            for (String s : sessionIds) {
                if (s == null || s.isBlank()) throw new StewardError("session_inspect", "a session id is empty");
                ids.add(s.strip());
            }
            if (ids.size() > MAX_SESSIONS)
                throw new StewardError(
                        "session_inspect", "at most " + MAX_SESSIONS + " sessions per call, not " + ids.size());
            sessionIds = List.copyOf(ids);
            if (!(gapMinutes >= 1) || gapMinutes > MAX_GAP_MINUTES)
                throw new StewardError("session_inspect", "gap_minutes must be between 1 and " + MAX_GAP_MINUTES);
            if (maxItems < 1 || maxItems > MAX_ITEMS)
                throw new StewardError("session_inspect", "max_items must be between 1 and " + MAX_ITEMS);
        }

        public static Request of(String id) {
            return new Request(List.of(id), DEFAULT_GAP_MINUTES, DEFAULT_ITEMS);
        }
    }

    public record Outcome(InspectResult result, String text) {}

    private InspectEngine() {}

    /** Inspects every requested session; unknown ids are listed in {@code not_found} (all unknown is an error). */
    public static Outcome inspect(SessionSource src, Request req) {
        List<InspectResult.Report> reports = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String id : req.sessionIds()) {
            var s = src.session(id);
            if (s.isEmpty()) missing.add(id);
            else reports.add(report(src, s.get(), req));
        }
        if (reports.isEmpty()) {
            throw new StewardError(
                    "session_inspect",
                    (missing.size() == 1 ? "no session " : "no sessions ") + String.join(", ", missing) + " in the "
                            + src.store() + " store");
        }
        InspectResult r = new InspectResult(src.store(), reports, missing);
        return new Outcome(r, InspectRenderer.render(r));
    }

    /** A call waiting for its result. */
    private record Pending(MessageEvent.ToolCall call, double at) {}

    /** Per-tool tallies. */
    private static final class ToolTally {
        int calls, failures;
        double recorded, elapsed;
        boolean anyRecorded, anyElapsed;
    }

    private static final class FileTally {
        int touches, reads, writes;
    }

    private static final class CommandTally {
        int runs, failures;
    }

    /** What a delegate call's result says about one task, keyed by its goal. */
    record DelegateOutcome(String status, String summary, String error, Double seconds) {}

    static InspectResult.Report report(SessionSource src, SessionInfo s, Request req) {
        double threshold = req.gapMinutes() * 60.0;
        List<Phases.Mark> marks = new ArrayList<>();
        Map<String, Integer> byRole = new LinkedHashMap<>();
        int[] states = new int[3];
        long[] tokens = {0, 0};
        Map<String, Pending> pending = new LinkedHashMap<>();
        Map<String, ToolTally> tools = new LinkedHashMap<>();
        Map<String, FileTally> files = new LinkedHashMap<>();
        Map<String, CommandTally> commands = new LinkedHashMap<>();
        Map<String, String> commandOfCall = new HashMap<>();
        Map<String, List<String>> delegateGoals = new HashMap<>();
        Map<String, DelegateOutcome> delegateOutcomes = new HashMap<>();
        int[] totals = {0, 0}; // calls, failures
        src.messages(s.id(), m -> {
            byRole.merge(m.role() == null ? "unknown" : m.role(), 1, Integer::sum);
            states[m.state().ordinal()]++;
            if (m.tokenCount() != null) {
                tokens[0] += m.tokenCount();
                tokens[1]++;
            }
            boolean user = "user".equals(m.role());
            if (!Double.isNaN(m.timestamp())) {
                String prompt = user ? CodePoints.prefix(m.text(), PROMPT_CHARS) : null;
                marks.add(new Phases.Mark(
                        m.timestamp(),
                        user,
                        m.toolCalls().size(),
                        user ? TitleAnalyzer.tokens(prompt) : List.of(),
                        prompt));
            }
            int anon = 0;
            for (MessageEvent.ToolCall c : m.toolCalls()) {
                String key = c.id() != null ? c.id() : "#" + m.id() + "/" + anon++;
                pending.put(key, new Pending(c, m.timestamp()));
                ToolTally t = tools.computeIfAbsent(c.name(), k -> new ToolTally());
                t.calls++;
                totals[0]++;
                for (ToolResults.FileUse f : ToolResults.files(c)) {
                    FileTally ft = files.computeIfAbsent(f.path(), k -> new FileTally());
                    ft.touches++;
                    if (f.write()) ft.writes++;
                    else ft.reads++;
                }
                String cmd = ToolResults.command(c);
                if (cmd != null) {
                    commands.computeIfAbsent(cmd, k -> new CommandTally()).runs++;
                    commandOfCall.put(key, cmd);
                }
                List<String> goals = goals(c.arguments());
                if (!goals.isEmpty()) delegateGoals.put(key, goals);
            }
            if ("tool".equals(m.role()) || m.toolCallId() != null && !"assistant".equals(m.role())) {
                String key = m.toolCallId();
                Pending p = key == null ? null : pending.remove(key);
                if (p == null) { // no id: the oldest open call of the same tool
                    for (Map.Entry<String, Pending> e : pending.entrySet()) {
                        if (m.toolName() == null || e.getValue().call().name().equals(m.toolName())) {
                            key = e.getKey();
                            p = e.getValue();
                            break;
                        }
                    }
                    if (p != null) pending.remove(key);
                }
                String name = p != null ? p.call().name() : m.toolName();
                if (name == null) return;
                JsonNode json = ToolResults.json(m.text());
                boolean failed = ToolResults.failed(m.text(), json, m.effect(), null);
                ToolTally t = tools.get(name);
                if (t == null) { // a result whose call is not stored (e.g. compacted away): count it as a call
                    t = tools.computeIfAbsent(name, k -> new ToolTally());
                    t.calls++;
                    totals[0]++;
                }
                if (failed) {
                    t.failures++;
                    totals[1]++;
                }
                Double rec = ToolResults.recordedSeconds(json);
                if (rec != null) {
                    t.recorded += rec;
                    t.anyRecorded = true;
                }
                if (p != null && !Double.isNaN(p.at()) && !Double.isNaN(m.timestamp()) && m.timestamp() >= p.at()) {
                    t.elapsed += m.timestamp() - p.at();
                    t.anyElapsed = true;
                }
                String cmd = key == null ? null : commandOfCall.remove(key);
                if (cmd != null && failed) commands.get(cmd).failures++;
                List<String> goals = key == null ? null : delegateGoals.remove(key);
                if (goals != null && json != null) delegateOutcomes.putAll(delegateResults(goals, json));
            }
        });

        // timeline
        double first = Double.NaN, last = Double.NaN;
        for (Phases.Mark mk : marks) {
            if (Double.isNaN(first) || mk.timestamp() < first) first = mk.timestamp();
            if (Double.isNaN(last) || mk.timestamp() > last) last = mk.timestamp();
        }
        marks.sort((a, b) -> Double.compare(a.timestamp(), b.timestamp()));
        List<Phases.Gap> gaps = Phases.gaps(marks, threshold);
        double gapSum = gaps.stream().mapToDouble(Phases.Gap::seconds).sum();
        double span = Double.isNaN(first) ? 0 : last - first;
        List<InspectResult.Gap> gapOut = gaps.stream()
                .sorted((a, b) -> Double.compare(b.seconds(), a.seconds()))
                .limit(req.maxItems())
                .sorted((a, b) -> Integer.compare(a.index(), b.index()))
                .map(g -> new InspectResult.Gap(
                        Times.iso(marks.get(g.index() - 1).timestamp()),
                        Times.iso(marks.get(g.index()).timestamp()),
                        round(g.seconds())))
                .toList();
        List<Phases.Span> spans = Phases.split(marks, threshold);
        List<InspectResult.Phase> phases = new ArrayList<>();
        for (int i = 0; i < spans.size() && i < req.maxItems(); i++) {
            Phases.Span sp = spans.get(i);
            int users = 0, calls = 0;
            String prompt = null;
            for (int k = sp.from(); k <= sp.to(); k++) {
                Phases.Mark mk = marks.get(k);
                calls += mk.toolCalls();
                if (mk.user()) {
                    users++;
                    if (prompt == null) prompt = excerpt(mk.prompt());
                }
            }
            phases.add(new InspectResult.Phase(
                    i + 1,
                    Times.iso(marks.get(sp.from()).timestamp()),
                    Times.iso(marks.get(sp.to()).timestamp()),
                    sp.startedBy(),
                    sp.to() - sp.from() + 1,
                    users,
                    calls,
                    Phases.keywords(marks, sp),
                    prompt));
        }
        InspectResult.Timeline timeline = new InspectResult.Timeline(
                Times.iso(s.startedAt()),
                s.startedAt(),
                Double.isNaN(first) ? null : Times.iso(first),
                Double.isNaN(first) ? null : first,
                Double.isNaN(last) ? null : Times.iso(last),
                Double.isNaN(last) ? null : last,
                Times.iso(s.endedAt()),
                s.endedAt(),
                round(span),
                round(span - gapSum),
                threshold,
                gaps.size(),
                gapOut,
                spans.size(),
                phases,
                Math.max(0, spans.size() - phases.size()));

        int total = byRole.values().stream().mapToInt(Integer::intValue).sum();
        Map<String, Integer> roles = new LinkedHashMap<>();
        byRole.entrySet().stream()
                .sorted((a, b) -> !a.getValue().equals(b.getValue())
                        ? Integer.compare(b.getValue(), a.getValue())
                        : a.getKey().compareTo(b.getKey()))
                .forEach(e -> roles.put(e.getKey(), e.getValue()));
        InspectResult.Messages messages = new InspectResult.Messages(
                total,
                roles,
                s.storedMessageCount(),
                states[0],
                states[1],
                states[2],
                tokens[1] > 0 ? tokens[0] : null,
                src.malformedLines(s.id()));

        List<InspectResult.ToolStat> toolStats = tools.entrySet().stream()
                .sorted((a, b) -> a.getValue().calls != b.getValue().calls
                        ? Integer.compare(b.getValue().calls, a.getValue().calls)
                        : 0)
                .map(e -> new InspectResult.ToolStat(
                        e.getKey(),
                        e.getValue().calls,
                        e.getValue().failures,
                        e.getValue().anyRecorded ? round(e.getValue().recorded) : null,
                        e.getValue().anyElapsed ? round(e.getValue().elapsed) : null))
                .toList();
        InspectResult.Tools toolsOut = new InspectResult.Tools(
                totals[0],
                totals[1],
                toolStats.size(),
                List.copyOf(toolStats.subList(0, Math.min(req.maxItems(), toolStats.size()))),
                Math.max(0, toolStats.size() - req.maxItems()));

        List<SessionInfo> children = src.children(s.id());
        List<SessionInfo> subagents =
                children.stream().filter(SessionInfo::subagent).toList();
        InspectResult.Subagents subOut = subagents(src, subagents, delegateOutcomes, req.maxItems());
        Usage usage = src.usage(s.id());
        InspectResult.UsageOut usageOut = usage(src, usage, subagents);

        List<InspectResult.FileOut> fileOut = files.entrySet().stream()
                .sorted((a, b) -> Integer.compare(b.getValue().touches, a.getValue().touches))
                .map(e -> new InspectResult.FileOut(
                        e.getKey(), e.getValue().touches, e.getValue().reads, e.getValue().writes))
                .toList();
        List<InspectResult.CommandOut> cmdOut = commands.entrySet().stream()
                .sorted((a, b) -> Integer.compare(b.getValue().runs, a.getValue().runs))
                .map(e -> new InspectResult.CommandOut(e.getKey(), e.getValue().runs, e.getValue().failures))
                .toList();

        InspectResult.Lineage lineage = lineage(src, s, children, states[1]);
        String status = s.archived() ? "archived" : s.active() ? "active" : "ended";
        return new InspectResult.Report(
                s.id(),
                s.title(),
                s.source(),
                status,
                s.endReason(),
                s.model(),
                s.cwd(),
                s.gitBranch(),
                s.gitRepoRoot(),
                timeline,
                messages,
                toolsOut,
                subOut,
                usageOut,
                new InspectResult.Files(
                        fileOut.size(),
                        List.copyOf(fileOut.subList(0, Math.min(req.maxItems(), fileOut.size()))),
                        Math.max(0, fileOut.size() - req.maxItems())),
                new InspectResult.Commands(
                        cmdOut.size(),
                        List.copyOf(cmdOut.subList(0, Math.min(req.maxItems(), cmdOut.size()))),
                        Math.max(0, cmdOut.size() - req.maxItems())),
                lineage);
    }

    /** The goals of a delegation call: {@code goal}, or each {@code tasks[].goal}. */
    static List<String> goals(JsonNode args) {
        List<String> out = new ArrayList<>();
        if (args == null || !args.isObject()) return out;
        JsonNode tasks = args.get("tasks");
        if (tasks != null && tasks.isArray()) {
            for (JsonNode t : tasks)
                if (t.path("goal").isString()) out.add(t.path("goal").asString().strip());
        } else if (args.path("goal").isString()) {
            out.add(args.path("goal").asString().strip());
        }
        return out;
    }

    /** Hermes' delegate_task result: {@code {"results": [{task_index, status, summary, error, duration_seconds}]}}. */
    static Map<String, DelegateOutcome> delegateResults(List<String> goals, JsonNode json) {
        Map<String, DelegateOutcome> out = new HashMap<>();
        JsonNode results = json.get("results");
        if (results == null || !results.isArray()) return out;
        int pos = 0;
        for (JsonNode r : results) {
            int idx = r.path("task_index").isIntegralNumber()
                    ? r.path("task_index").asInt()
                    : pos;
            pos++;
            if (idx < 0 || idx >= goals.size()) continue;
            JsonNode d = r.get("duration_seconds");
            out.put(
                    goals.get(idx),
                    new DelegateOutcome(
                            text(r, "status"),
                            text(r, "summary"),
                            text(r, "error"),
                            d != null && d.isNumber() ? d.asDouble() : null));
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isString() && !v.asString().isBlank() ? v.asString() : null;
    }

    private static InspectResult.Subagents subagents(
            SessionSource src, List<SessionInfo> subs, Map<String, DelegateOutcome> outcomes, int max) {
        List<InspectResult.Subagent> items = new ArrayList<>();
        for (SessionInfo c : subs) {
            if (items.size() >= max) break;
            int[] n = {0, 0, 0}; // messages, tool calls, failures
            String[] goalAndLast = {null, null};
            Set<String> open = new HashSet<>();
            src.messages(c.id(), m -> {
                n[0]++;
                n[1] += m.toolCalls().size();
                for (MessageEvent.ToolCall tc : m.toolCalls()) if (tc.id() != null) open.add(tc.id());
                if ("user".equals(m.role())
                        && goalAndLast[0] == null
                        && !m.text().isBlank()) goalAndLast[0] = m.text().strip();
                if ("assistant".equals(m.role()) && !m.text().isBlank())
                    goalAndLast[1] = m.text().strip();
                if ("tool".equals(m.role())
                        && ToolResults.failed(m.text(), ToolResults.json(m.text()), m.effect(), null)) n[2]++;
            });
            DelegateOutcome o = goalAndLast[0] == null ? null : outcomes.get(goalAndLast[0]);
            String status = o != null && o.status() != null
                    ? o.status()
                    : c.active() ? "active" : c.endReason() != null ? c.endReason() : "ended";
            String outcome = o != null && o.summary() != null
                    ? o.summary()
                    : o != null && o.error() != null ? o.error() : goalAndLast[1];
            Usage u = src.usage(c.id());
            Long tok = u == null ? null : sum(u.inputTokens(), u.outputTokens());
            Double secs = null;
            String source = null;
            if (o != null && o.seconds() != null) {
                secs = o.seconds();
                source = "recorded";
            } else if (c.startedAt() != null && c.endedAt() != null) {
                secs = round(c.endedAt() - c.startedAt());
                source = "timestamps";
            }
            items.add(new InspectResult.Subagent(
                    c.id(),
                    excerpt(goalAndLast[0]),
                    status,
                    excerpt(outcome),
                    n[0],
                    n[1],
                    n[2],
                    tok,
                    u == null ? null : u.estimatedCostUsd(),
                    secs,
                    source));
        }
        return new InspectResult.Subagents(subs.size(), items, subs.size() - items.size());
    }

    private static InspectResult.UsageOut usage(SessionSource src, Usage u, List<SessionInfo> subs) {
        Long subTokens = null;
        Double subCost = null;
        int withUsage = 0;
        for (SessionInfo c : subs) {
            Usage cu = src.usage(c.id());
            if (cu == null) continue;
            withUsage++;
            Long t = sum(cu.inputTokens(), cu.outputTokens());
            if (t != null) subTokens = (subTokens == null ? 0 : subTokens) + t;
            if (cu.estimatedCostUsd() != null) subCost = (subCost == null ? 0 : subCost) + cu.estimatedCostUsd();
        }
        Long own = u == null ? null : sum(u.inputTokens(), u.outputTokens());
        InspectResult.WithSubagents with = withUsage == 0
                ? null
                : new InspectResult.WithSubagents(
                        subs.size(),
                        own == null && subTokens == null
                                ? null
                                : (own == null ? 0 : own) + (subTokens == null ? 0 : subTokens),
                        u == null || u.estimatedCostUsd() == null
                                ? subCost == null ? null : (Double) round6(subCost)
                                : (Double) round6(u.estimatedCostUsd() + (subCost == null ? 0 : subCost)));
        if (u == null)
            return new InspectResult.UsageOut(
                    false, null, null, null, null, null, null, null, null, null, List.of(), with);
        List<InspectResult.ModelOut> models = u.byModel().stream()
                .map(m -> new InspectResult.ModelOut(
                        m.model(),
                        m.provider(),
                        m.apiCalls(),
                        m.inputTokens(),
                        m.outputTokens(),
                        round6(m.estimatedCostUsd())))
                .toList();
        return new InspectResult.UsageOut(
                true,
                u.inputTokens(),
                u.outputTokens(),
                u.cacheReadTokens(),
                u.cacheWriteTokens(),
                u.reasoningTokens(),
                u.apiCalls(),
                u.estimatedCostUsd() == null ? null : round6(u.estimatedCostUsd()),
                u.actualCostUsd() == null ? null : round6(u.actualCostUsd()),
                u.costStatus(),
                models,
                with);
    }

    private static InspectResult.Lineage lineage(
            SessionSource src, SessionInfo s, List<SessionInfo> children, int compacted) {
        InspectResult.Link parent = null;
        if (s.parentId() != null) {
            SessionInfo p = src.session(s.parentId()).orElse(null);
            parent = new InspectResult.Link(
                    s.parentId(),
                    p == null ? null : p.title(),
                    s.relation().name(),
                    p == null ? "missing" : p.archived() ? "archived" : p.active() ? "active" : "ended");
        }
        List<InspectResult.Link> cont = new ArrayList<>(), branches = new ArrayList<>();
        int subs = 0;
        for (SessionInfo c : children) {
            InspectResult.Link l = new InspectResult.Link(
                    c.id(),
                    c.title(),
                    c.relation().name(),
                    c.archived() ? "archived" : c.active() ? "active" : "ended");
            switch (c.relation()) {
                case continued -> cont.add(l);
                case branched -> branches.add(l);
                case delegated -> subs++;
                default -> {}
            }
        }
        // the compression chain: up to its root, then down to its newest tip
        List<String> up = new ArrayList<>();
        SessionInfo cur = s;
        Set<String> seen = new HashSet<>(List.of(s.id()));
        while (cur.relation() == SessionInfo.Relation.continued && cur.parentId() != null && up.size() < MAX_CHAIN) {
            SessionInfo p = src.session(cur.parentId()).orElse(null);
            if (p == null || !seen.add(p.id())) break;
            up.add(0, p.id());
            cur = p;
        }
        List<String> chain = new ArrayList<>(up);
        chain.add(s.id());
        cur = s;
        List<SessionInfo> next = children;
        while (chain.size() < MAX_CHAIN) {
            SessionInfo tip = null;
            for (SessionInfo c : next) {
                if (c.relation() != SessionInfo.Relation.continued) continue;
                if (tip == null
                        || (c.startedAt() != null && (tip.startedAt() == null || c.startedAt() >= tip.startedAt())))
                    tip = c;
            }
            if (tip == null || !seen.add(tip.id())) break;
            chain.add(tip.id());
            cur = tip;
            next = src.children(cur.id());
        }
        String compressedInto = "compression".equals(s.endReason()) && !cont.isEmpty()
                ? cont.get(cont.size() - 1).session_id()
                : null;
        return new InspectResult.Lineage(
                parent, cont, branches, chain.size() > 1 ? chain : List.of(), compacted, compressedInto, subs);
    }

    private static Long sum(Long a, Long b) {
        if (a == null && b == null) return null;
        return (a == null ? 0 : a) + (b == null ? 0 : b);
    }

    static String excerpt(String s) {
        if (s == null) return null;
        String t = s.strip().replaceAll("\\s+", " ");
        return CodePoints.length(t) > EXCERPT ? CodePoints.prefix(t, EXCERPT - 1) + "…" : t;
    }

    static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    static double round6(double v) {
        return Math.round(v * 1_000_000.0) / 1_000_000.0;
    }
}
