package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToDoubleFunction;
import steward.StewardError;
import steward.Work;
import steward.config.StewardPaths;
import steward.json.Json;
import steward.memory.MemoryDocument;
import steward.recall.gate.CooldownGate;
import steward.recall.gate.Gate;
import steward.recall.gate.Gates;
import steward.recall.gate.OwnSessionGate;
import steward.state.AtomicFiles;
import steward.text.CodePoints;

/**
 * recall_inject: decides, without an explicit query, whether anything from memory deserves a place in the
 * agent's context now, what, and within what budget. Pipeline: retrieve → hard gates → lane → echo veto →
 * calibrated threshold with hysteresis → budget packing. Every call is logged with a decision id in
 * {@code <state dir>/recall/injections.json} (bounded), which also holds the per-session cooldown and
 * hysteresis state.
 */
public final class InjectEngine {
    public static final double TAU_HI = 0.45, TAU_LO = 0.35;
    /** Extra calibrated score the proactive lane needs over the explicit one. */
    public static final double PROACTIVE_EXTRA = 0.15;
    /** Explicit lane: the top candidate must lead the field (median of the next candidates) by this much. */
    public static final double MARGIN = 0.05;
    /** Evidence this far above the lane's threshold needs no margin (several items may match fully). */
    public static final double STRONG = 0.2;
    /**
     * Proactive lane (the message does not ask): the lead item must share at least this much information with the message,
     * in units of one rare term (see {@link RecallEngine.Confidence}). Acknowledgements and small talk ("thanks, that's
     * all", "ok cool", "good morning") match chatty history in full on common words but stay near one unit; a message that
     * really touches a stored fact shares several rare terms. No LoCoMo question is in this lane (they all ask).
     */
    public static final double PROACTIVE_INFORMATION = 2.0;
    /**
     * When dense retrieval took part and nothing in memory reaches this cosine with the message, nothing is about it:
     * skip. Below the lowest best-cosine of the LoCoMo questions the gate injected for (0.535; 1 % below 0.58), well below
     * the semantic floor; bge-small puts unrelated English texts around 0.5–0.6.
     */
    public static final double SEMANTIC_VETO = 0.55;

    /**
     * Once the lead item clears its threshold (the gate has decided that memory is relevant), the block also takes the
     * next items in ranking order that come within this much of their threshold: the hysteresis gap, so a block holds
     * what a session already open would inject (in an open session, no more). The evidence often sits in an item next to
     * the lead; whether to inject at all is unchanged. LoCoMo, one command, with and without: blocks holding an evidence
     * turn 74.9 → 80.7 % (with name prefixes), 69.8 → 77.2 % (without); see README for the blocks' size.
     */
    public static final double COMPANION_GAP = TAU_HI - TAU_LO;

    public static final int DEFAULT_BUDGET = 2400, CANDIDATES = 20, MAX_ITEMS = 5;
    public static final int MAX_LOGGED_DECISIONS = 500, MAX_SESSIONS = 200;
    public static final String HEADER =
            "[Recalled by Steward from memory and past sessions; may be outdated — verify before relying on it]";

    public record Request(
            String context, List<String> recentTurns, String sessionId, Integer budgetChars, String mode) {}

    public record Candidate(
            String uri,
            String source,
            String date,
            String snippet,
            double calibrated,
            RecallEngine.Components components,
            String drop_reason) {}

    public record Result(
            String decision_id,
            String decision,
            String reason,
            String mode,
            String lane,
            double top_score,
            double threshold,
            boolean hysteresis_open,
            String block,
            int block_chars,
            int budget_chars,
            List<Candidate> items,
            List<Candidate> dropped,
            int dropped_omitted,
            List<String> warnings) {}

    /** Persistent log and per-session state. */
    public record SessionState(List<List<String>> recent, boolean open, String at) {}

    public record LoggedDecision(
            String decision_id,
            String at,
            String session_id,
            String mode,
            String lane,
            String decision,
            List<String> uris,
            double top_score) {}

    public record Log(Map<String, SessionState> sessions, List<LoggedDecision> decisions) {}

    private final RecallEngine engine;
    private final Path logFile;

    public InjectEngine(RecallEngine engine, Path recallDir) {
        this.engine = engine;
        this.logFile = recallDir.resolve("injections.json");
    }

    /**
     * The normalised texts of the entries of Hermes' MEMORY.md and USER.md as they are now (the "gone" gate drops an
     * indexed entry no longer among them); null when there is no Hermes home or a file cannot be read (nothing is
     * dropped for it then).
     */
    private Set<String> memoryNow() {
        StewardPaths p = engine.paths();
        if (!p.hermesPresent()) return null;
        Set<String> out = new HashSet<>();
        try {
            for (String f : List.of("MEMORY.md", "USER.md"))
                for (String e : MemoryDocument.read(p.memoriesDir().resolve(f)).entries())
                    out.add(Identity.normalise(e));
        } catch (RuntimeException e) {
            return null;
        }
        return out;
    }

    /** One decision at a time per engine (the log's read-modify-write and the per-session state). */
    public Result inject(Request req) {
        return inject(req, Work.NONE);
    }

    public Result inject(Request req, Work work) {
        synchronized (engine) {
            return decide(req, work);
        }
    }

    private Result decide(Request req, Work work) {
        String context = req.context() == null ? "" : req.context().strip();
        if (CodePoints.blank(context)) throw new StewardError("recall_inject", "context is empty");
        String mode = req.mode() == null ? "shadow" : req.mode();
        if (!List.of("shadow", "canary", "active").contains(mode)) {
            throw new StewardError("recall_inject", "mode must be shadow, canary or active, got '" + mode + "'");
        }
        int budget = req.budgetChars() == null ? DEFAULT_BUDGET : req.budgetChars();
        if (budget < 100 || budget > 20000)
            throw new StewardError("recall_inject", "budget_chars must be 100–20000, got " + budget);
        // a blank id would share one cooldown and one echo check among every caller that sends it
        if (req.sessionId() != null && CodePoints.blank(req.sessionId()))
            throw new StewardError("recall_inject", "session_id is blank: leave it out, or pass the conversation's id");
        List<String> warnings = new ArrayList<>();
        // a damaged log or feedback file never blocks the decision, and is never written over: this call decides as
        // if it were empty, keeps no cooldown or log, and says so
        LogRead read = read(logFile);
        Log log = read.log();
        if (read.problem() != null) warnings.add(FeedbackStore.unreadable(logFile, read.problem(), NOT_LOGGED));
        FeedbackStore.Read fb = engine.feedback().read();
        if (fb.problem() != null) warnings.add(FeedbackStore.unreadable(feedbackFile(), fb.problem(), NO_FEEDBACK));
        SessionState st = req.sessionId() == null ? null : log.sessions().get(req.sessionId());
        boolean open = st != null && st.open();

        // the sync's report names a source that could not be read (its items were not searched): the result says so
        SyncReport sync = engine.syncForCall(work);
        RecallEngine.Result found = engine.rank(new RecallEngine.Query(context, CANDIDATES, null, null, null, null));
        Set<String> cooldown = new HashSet<>();
        if (st != null) for (List<String> call : st.recent()) cooldown.addAll(call);
        Set<String> harmful = new HashSet<>();
        for (var e : fb.state().items().entrySet()) if (e.getValue().harmful() > 0) harmful.add(e.getKey());
        // the same text anywhere else is gated too: the hash kept with the mark, or (a mark given before hashes were
        // kept) the text of the item as it is now
        Set<Long> harmfulTexts = new HashSet<>();
        for (String u : harmful) {
            Long h = fb.state().harmful_texts().get(u);
            if (h == null) h = harmfulTextNow(u);
            if (h != null) harmfulTexts.add(h);
        }
        Set<String> recentTexts = new HashSet<>();
        if (req.recentTurns() != null) for (String t : req.recentTurns()) if (t != null) recentTexts.add(t.strip());
        recentTexts.add(context);
        Gate.Context gctx = new Gate.Context(
                req.sessionId(),
                engine.recentMessageUris(req.sessionId(), OwnSessionGate.RECENT_MESSAGES),
                recentTexts,
                cooldown,
                harmful,
                harmfulTexts,
                memoryNow(),
                engine.goneSessions(
                        found.hits().stream().map(RecallEngine.Hit::item).toList()));
        work.checkpoint("recall_inject");

        String lane = Lanes.lane(context);
        List<Candidate> kept = new ArrayList<>();
        List<Candidate> dropped = new ArrayList<>();
        for (RecallEngine.Hit h : found.hits()) {
            String reason = null;
            for (Gate g : Gates.ALL) {
                String r = g.drop(h.item(), gctx);
                if (r != null) {
                    reason = g.id() + ": " + r;
                    break;
                }
            }
            if (reason == null) reason = EchoVeto.veto(context, h.item().text());
            Candidate c = candidate(h, reason);
            if (reason == null) kept.add(c);
            else dropped.add(c);
        }
        kept.sort((a, b) -> Double.compare(b.calibrated(), a.calibrated()) != 0
                ? Double.compare(b.calibrated(), a.calibrated())
                : Double.compare(b.components().score(), a.components().score()));
        // the lane's threshold, moved for each source by what feedback on this lane's injections said (bounded)
        double base = (open ? TAU_LO : TAU_HI) + (lane.equals(Lanes.PROACTIVE) ? PROACTIVE_EXTRA : 0);
        Map<String, Double> offsets = new LinkedHashMap<>();
        for (Candidate c : kept)
            offsets.computeIfAbsent(c.source(), src -> FeedbackStore.offset(fb.state(), lane, src));
        ToDoubleFunction<Candidate> thr = c -> base + offsets.getOrDefault(c.source(), 0.0);
        double margin = lane.equals(Lanes.PROACTIVE) ? 2 * MARGIN : MARGIN;
        Candidate lead = null;
        for (Candidate c : kept)
            if (c.calibrated() >= thr.applyAsDouble(c)) {
                lead = c;
                break;
            }
        double top = kept.isEmpty() ? 0 : kept.get(0).calibrated();
        double threshold =
                lead != null ? thr.applyAsDouble(lead) : kept.isEmpty() ? base : thr.applyAsDouble(kept.get(0));
        final Candidate leader = lead;
        List<Candidate> field = kept.stream().filter(c -> c != leader).limit(9).toList();
        double fieldScore = median(field);
        String reason;
        List<Candidate> chosen = new ArrayList<>();
        if (kept.isEmpty()) {
            reason = found.hits().isEmpty() ? "nothing in memory matches" : "every candidate was gated or vetoed";
        } else if (found.confidence().bestCosine() != null && found.confidence().bestCosine() < SEMANTIC_VETO) {
            reason = String.format(
                    "nothing in memory is close in meaning: best cosine %.2f < %.2f",
                    found.confidence().bestCosine(), SEMANTIC_VETO);
        } else if (!open && !found.confidence().good()) { // (a session already open keeps its lower bar, tauLo)
            RecallEngine.Confidence c = found.confidence();
            reason = "no good match: nothing clears the lexical or semantic floor (best coverage "
                    + c.bestCoverage()
                    + (c.bestCoverage() >= c.lexicalFloor() && c.bestInformation() < c.informationFloor()
                            ? ", but its matched words are worth " + c.bestInformation() + " rare terms < "
                                    + c.informationFloor()
                            : "")
                    + (found.confidence().bestCosine() == null
                            ? ""
                            : ", best cosine " + found.confidence().bestCosine())
                    + ")";
        } else if (top < TAU_LO) {
            reason = String.format("best calibrated score %.2f is below tauLo %.2f", top, TAU_LO);
        } else if (lead == null) {
            reason = String.format(
                            "best calibrated score %.2f is below the %s lane's threshold %.2f%s",
                            top, lane, threshold, open ? " (hysteresis open)" : "")
                    + calibrationNote(offsets.getOrDefault(kept.get(0).source(), 0.0));
        } else if (lane.equals(Lanes.PROACTIVE)
                && found.confidence().information(lead.components().coverage()) < PROACTIVE_INFORMATION) {
            reason = String.format(
                    "proactive lane: the best item shares %.1f rare terms' worth with the message (%.1f needed)",
                    found.confidence().information(lead.components().coverage()), PROACTIVE_INFORMATION);
        } else if (lead.calibrated() < threshold + STRONG && lead.calibrated() - fieldScore < margin) {
            reason = String.format(
                    "no clear winner: best %.2f vs field %.2f (margin %.2f needed)",
                    lead.calibrated(), fieldScore, margin);
        } else {
            reason = null;
            top = lead.calibrated();
        }
        StringBuilder block = new StringBuilder();
        int companionsPacked = 0;
        if (reason == null) {
            Packer packer = new Packer(block, budget, found, chosen, dropped);
            // whole items in the ranker's order (relevance with dense, speaker, recency, …) among those that pass: the
            // calibrated score decides whether to inject at all, the ranking which items go first; then, in the room
            // left, the companions within COMPANION_GAP of their threshold (after every item that clears it)
            List<Candidate> byRank = new ArrayList<>(kept);
            byRank.sort((x, y) ->
                    Double.compare(y.components().score(), x.components().score()));
            double companionGap = open ? 0 : COMPANION_GAP;
            List<Candidate> companions = new ArrayList<>();
            for (Candidate c : byRank) {
                double bar = thr.applyAsDouble(c);
                if (c.calibrated() >= bar) packer.offer(c);
                else if (c.calibrated() >= bar - companionGap) companions.add(c);
                else dropped.add(withReason(c, "below_threshold"));
            }
            // companions only beside an item that clears the bar: never a block of companions alone
            int clearing = chosen.size();
            for (Candidate c : companions)
                if (clearing > 0) packer.offer(c);
                else dropped.add(withReason(c, "below_threshold"));
            companionsPacked = chosen.size() - clearing;
            if (chosen.isEmpty()) {
                reason = "no candidate fits in budget_chars " + budget;
                block.setLength(0);
            }
        } else {
            for (Candidate c : kept) dropped.add(withReason(c, "below_threshold"));
        }
        String decision;
        if (chosen.isEmpty()) decision = "skip";
        else if (mode.equals("active") || mode.equals("canary") && lane.equals(Lanes.EXPLICIT)) decision = "inject";
        else decision = "shadow";
        if (reason == null) {
            reason = String.format(
                            "%s lane: best calibrated score %.2f ≥ %.2f, %d item(s) packed%s",
                            lane,
                            top,
                            threshold,
                            chosen.size(),
                            companionsPacked == 0
                                    ? ""
                                    : String.format(" (%d within %.2f below it)", companionsPacked, COMPANION_GAP))
                    + (decision.equals("shadow") ? " (" + mode + " mode: shown, not injected)" : "");
        }
        String id = "d_" + Long.toHexString(Instant.now(engine.clock()).toEpochMilli()) + "_"
                + String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24));
        if (read.problem() == null) {
            String unlogged = writeLog(id, req.sessionId(), mode, lane, decision, chosen, top);
            if (unlogged != null) warnings.add(FeedbackStore.unreadable(logFile, unlogged, NOT_LOGGED));
        }
        List<String> all = new ArrayList<>(sync.warnings());
        all.addAll(warnings);
        int shown = Math.min(dropped.size(), 20);
        String blockText = block.toString();
        return new Result(
                id,
                decision,
                reason,
                mode,
                lane,
                round(top),
                round(threshold),
                open,
                chosen.isEmpty() ? "" : blockText,
                chosen.isEmpty() ? 0 : CodePoints.length(blockText),
                budget,
                chosen,
                List.copyOf(dropped.subList(0, shown)),
                dropped.size() - shown,
                all);
    }

    private static String calibrationNote(double offset) {
        return Math.abs(offset) < 0.0005 ? "" : String.format(" (%+.2f from feedback on this lane and source)", offset);
    }

    /** Packs whole items into the block, in the order offered, while they fit the budget and {@link #MAX_ITEMS}. */
    private static final class Packer {
        private final StringBuilder block;
        private final int budget;
        private final RecallEngine.Result found;
        private final List<Candidate> chosen, dropped;
        private final Set<String> packedTexts = new HashSet<>();
        private int used;

        Packer(
                StringBuilder block,
                int budget,
                RecallEngine.Result found,
                List<Candidate> chosen,
                List<Candidate> dropped) {
            this.block = block.append(HEADER);
            this.budget = budget;
            this.found = found;
            this.chosen = chosen;
            this.dropped = dropped;
            this.used = CodePoints.length(HEADER);
        }

        void offer(Candidate c) {
            if (chosen.size() >= MAX_ITEMS) {
                dropped.add(withReason(c, "max_items"));
                return;
            }
            String text = fullText(c, found);
            if (!packedTexts.add(text)) {
                dropped.add(withReason(c, "duplicate: same text as an item already packed"));
                return;
            }
            String line = "\n- " + c.uri() + (c.date() == null ? "" : " (" + c.date() + ")") + ": " + text;
            int len = CodePoints.length(line);
            if (used + len > budget) {
                dropped.add(withReason(c, "budget: " + len + " chars do not fit in the " + (budget - used) + " left"));
                return;
            }
            block.append(line);
            used += len;
            chosen.add(c);
        }
    }

    private static String fullText(Candidate c, RecallEngine.Result found) {
        for (RecallEngine.Hit h : found.hits())
            if (h.item().uri().equals(c.uri()))
                return h.item().text().replaceAll("\\s*\\n\\s*", " ").strip();
        return c.snippet();
    }

    private static double median(List<Candidate> cs) {
        if (cs.isEmpty()) return 0;
        double[] v = cs.stream().mapToDouble(Candidate::calibrated).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private Candidate candidate(RecallEngine.Hit h, String reason) {
        RecallItem it = h.item();
        double cal = Math.min(1.0, h.components().coverage() * h.components().importance());
        String date = it.timestamp() > 0
                ? Instant.ofEpochMilli((long) (it.timestamp() * 1000))
                        .atZone(ZoneOffset.UTC)
                        .toLocalDate()
                        .toString()
                : null;
        return new Candidate(
                it.uri(), it.source(), date, RecallEngine.snippet(it.text(), 200), round(cal), h.components(), reason);
    }

    private static Candidate withReason(Candidate c, String reason) {
        return new Candidate(c.uri(), c.source(), c.date(), c.snippet(), c.calibrated(), c.components(), reason);
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** What a warning adds to an unreadable log's name: what this call did without it. */
    static final String NOT_LOGGED =
            "this call kept no cooldown or hysteresis and its decision is not logged (recall_feedback cannot refer to it)";
    /** What a warning adds to an unreadable feedback file's name. */
    static final String NO_FEEDBACK =
            "this call used no feedback (no item reported harmful was gated, no threshold calibrated)";

    /** The normalised hash of a harmful item's text as it is now, or null when it is gone or cannot be read. */
    private Long harmfulTextNow(String uri) {
        try {
            RecallItem it = engine.resolve(uri);
            return it == null ? null : Identity.normalHash(it.text());
        } catch (StewardError e) {
            return null;
        }
    }

    private Path feedbackFile() {
        return logFile.resolveSibling("feedback.json");
    }

    /** The log as read, or (empty) with why it cannot be read: {@code problem} is null when it was read. */
    public record LogRead(Log log, String problem) {}

    /** The log at {@code logFile}, or an empty one with why it cannot be read (never throws, never writes). */
    public static LogRead read(Path logFile) {
        if (!Files.exists(logFile)) return new LogRead(emptyLog(), null);
        Log log;
        try {
            log = Json.MAPPER.readValue(Files.readAllBytes(logFile), Log.class);
        } catch (IOException | RuntimeException e) {
            return new LogRead(emptyLog(), Json.problem(e));
        }
        if (log == null) return new LogRead(emptyLog(), "not the JSON Steward writes there (null)");
        log = new Log(
                log.sessions() == null ? new LinkedHashMap<>() : log.sessions(),
                log.decisions() == null ? new ArrayList<>() : log.decisions());
        String why = damage(log);
        return why == null ? new LogRead(log, null) : new LogRead(emptyLog(), why);
    }

    private static Log emptyLog() {
        return new Log(new LinkedHashMap<>(), new ArrayList<>());
    }

    /** The injection log at {@code logFile} (read-only; steward_status checks it with this); a damaged one throws. */
    public static Log readLog(Path logFile) {
        LogRead r = read(logFile);
        if (r.problem() != null)
            throw new StewardError("recall_inject", FeedbackStore.unreadable(logFile, r.problem()));
        return r.log();
    }

    /** What makes a log that is JSON not whole (a null where a record belongs), or null. */
    private static String damage(Log log) {
        for (SessionState st : log.sessions().values())
            if (st == null || st.recent() == null || st.recent().contains(null)) return "a session without its calls";
        for (LoggedDecision d : log.decisions())
            if (d == null || d.decision_id() == null || d.uris() == null) return "a decision without its id or items";
        return null;
    }

    /** The text with every lone surrogate (which no UTF-8 file can hold) replaced by U+FFFD. */
    static String wellFormed(String s) {
        if (s == null) return null;
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                sb.append(c).append(s.charAt(++i));
            } else {
                sb.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return sb.toString();
    }

    /**
     * Logs the decision; returns why the log could not be read under the lock (another process damaged it since: then it
     * is left as it is and nothing is logged), or null.
     */
    @SuppressWarnings("try") // the lock is held for the try body, never referenced
    private String writeLog(
            String id,
            String sessionId,
            String mode,
            String lane,
            String decision,
            List<Candidate> chosen,
            double top) {
        String at = Instant.now(engine.clock()).toString();
        sessionId = wellFormed(
                sessionId); // a lone surrogate written into the log would make it unreadable for every later call
        id = wellFormed(id);
        // another process (a server and a steward call) may have logged since this call read the log: read it again
        // under the lock every writer holds, and add to what is there now
        try (steward.memory.Flock ignored = steward.memory.Flock.exclusive(lockFile())) {
            LogRead now = read(logFile);
            if (now.problem() != null) return now.problem();
            writeLog(now.log(), id, sessionId, mode, lane, decision, chosen, top, at);
            return null;
        } catch (IOException e) {
            throw new StewardError("recall_inject", "cannot lock " + lockFile() + ": " + e.getMessage());
        }
    }

    private Path lockFile() {
        return logFile.resolveSibling(logFile.getFileName() + ".lock");
    }

    private void writeLog(
            Log log,
            String id,
            String sessionId,
            String mode,
            String lane,
            String decision,
            List<Candidate> chosen,
            double top,
            String at) {
        Map<String, SessionState> sessions = new LinkedHashMap<>(log.sessions());
        List<String> uris = chosen.stream().map(Candidate::uri).toList();
        if (sessionId != null) {
            SessionState old = sessions.remove(sessionId);
            List<List<String>> recent = new ArrayList<>(old == null ? List.of() : old.recent());
            recent.add(uris);
            while (recent.size() > CooldownGate.DEFAULT_CALLS) recent.remove(0);
            sessions.put(sessionId, new SessionState(recent, !chosen.isEmpty(), at));
            while (sessions.size() > MAX_SESSIONS)
                sessions.remove(sessions.keySet().iterator().next());
        }
        List<LoggedDecision> decisions = new ArrayList<>(log.decisions());
        decisions.add(new LoggedDecision(id, at, sessionId, mode, lane, decision, uris, round(top)));
        while (decisions.size() > MAX_LOGGED_DECISIONS) decisions.remove(0);
        try {
            AtomicFiles.write(logFile, Json.MAPPER.writeValueAsBytes(new Log(sessions, decisions)));
        } catch (IOException e) {
            throw new StewardError("recall_inject", "cannot write " + logFile + ": " + e.getMessage());
        }
    }

    /** The logged decision with this id, or null when unknown or rotated out. */
    public LoggedDecision decision(String id) {
        LogRead r = read(logFile);
        if (r.problem() != null)
            throw new StewardError("recall_feedback", FeedbackStore.unreadable(logFile, r.problem()));
        for (LoggedDecision d : r.log().decisions()) if (d.decision_id().equals(id)) return d;
        return null;
    }
}
