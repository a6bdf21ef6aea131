package steward.learning.rules;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import steward.learning.DecisionEvent;
import steward.learning.LearningEngine;
import steward.learning.LearningRule;
import steward.learning.LearningRun;
import steward.learning.Listing;
import steward.learning.Outcome;
import steward.learning.PreferenceData;
import steward.learning.Preferences;
import steward.sessions.rules.RuleMeta;

/**
 * Remembers, per session, what the user kept (rejected, or restored), renamed, and asked to delete (rule F reads it),
 * and keeps every rejection, restore and rename of the kept window: such a session is never deleted without being
 * asked about by name. An approved deletion that ran needs no memory (the session is gone); one that could not run
 * (its children were kept) comes back as "you asked to delete it" — for the session as the user saw it (rule F).
 */
@RuleMeta(
        id = "session-memory",
        summary =
                "a session the user kept, restored or renamed is not proposed again; one they asked to delete comes back HIGH "
                        + "while it is as they saw it (a rejection withdraws it); a delete request whose session is gone or "
                        + "changed is marked stale and dropped after " + PreferenceData.STALE_RUNS + " such runs",
        rationale = "the user's explicit word on one session outranks any rule about sessions like it")
public final class SessionMemoryRule implements LearningRule {
    @Override
    public void apply(LearningRun run) {
        var level = run.data.session_level;
        // each list keyed by session id in its order (one mark per session in each): a restore of tens of thousands of
        // sessions is one pass, not a scan of every list per event; removing and adding again moves a mark to the end,
        // as it did in the lists
        Marks delete = new Marks(level.delete), retain = new Marks(level.retain), rename = new Marks(level.rename);
        Marks rejected = new Marks(level.rejected);
        for (DecisionEvent e : run.events) {
            if (e.along())
                continue; // about the kind of subagent taken along; the parent's own event is about the session
            String id = e.sessionId();
            if (e.outcome() == Outcome.VETOED || e.outcome() == Outcome.RESTORED || e.outcome() == Outcome.WITHDRAWN) {
                delete.remove(id);
                remember(run, rejected, e);
                if (!retain.has(id)) {
                    retain.add(new PreferenceData.SessionMark(id, e.title(), run.date, e.rule()));
                    run.record(e.outcome() == Outcome.VETOED ? "kept" : "restored", id, label(e));
                }
            } else if (e.outcome() == Outcome.RENAMED) {
                delete.remove(id);
                rename.remove(id);
                rename.add(new PreferenceData.SessionMark(id, e.newTitle(), run.date, e.rule()));
                remember(run, rejected, e);
                run.record("renamed", id, id + " → \"" + e.newTitle() + "\"");
            } else if (e.outcome() == Outcome.APPROVED && "delete".equals(e.action())) {
                retain.remove(id);
                if (!e.ran()) {
                    // the request is for the session as the user saw it now (an earlier one is replaced)
                    boolean known = delete.remove(id);
                    PreferenceData.SessionMark m = new PreferenceData.SessionMark(id, e.title(), run.date, e.rule());
                    if (e.seen() != null) {
                        m.messages = e.seen().messages();
                        m.last_activity = e.seen().lastActivity();
                        m.ended = e.seen().ended();
                    }
                    delete.add(m);
                    if (!known) run.record("delete_asked", id, label(e));
                }
            }
        }
        delete.writeBack();
        retain.writeBack();
        rename.writeBack();
        rejected.writeBack();
        if (run.listing != null && !run.restore) stale(run);
        LocalDate cut = LocalDate.parse(run.date).minusDays(PreferenceData.KEPT_WINDOW_DAYS);
        level.rejected.removeIf(m -> m.date == null || LocalDate.parse(m.date).isBefore(cut));
    }

    /**
     * The user's delete requests checked against the sessions this run found. One whose session is gone (in no home, and
     * every home was listed) or changed since they saw it can no longer act (rule F acts only on the session as seen):
     * it is marked stale, and dropped with a record once stale in {@link PreferenceData#STALE_RUNS} runs in a row. One
     * found as seen again holds again. A session out of this run's sight (a home not listed) leaves its request as it
     * is; so does a request this build cannot judge (properties it does not know) while its session exists. Only delete
     * requests: what the user kept or renamed protects the session and is never dropped here.
     */
    private static void stale(LearningRun run) {
        var it = run.data.session_level.delete.iterator();
        while (it.hasNext()) {
            PreferenceData.SessionMark m = it.next();
            Listing.Now now = run.listing.sessions().get(m.id);
            String reason;
            if (now == null) {
                if (!run.listing.complete()) continue; // out of sight, not gone
                reason = "gone";
            } else if (Preferences.asSeen(m, now)) {
                m.stale_since = null;
                m.stale_reason = null;
                m.stale_runs = 0;
                continue;
            } else if (!m.unknown.isEmpty()) {
                continue; // a newer Steward's request: not judged by this one
            } else {
                reason = "changed";
            }
            if (m.stale_since == null) m.stale_since = run.date;
            m.stale_reason = reason;
            m.stale_runs++;
            if (m.stale_runs >= PreferenceData.STALE_RUNS) {
                it.remove();
                String label = m.title == null || m.title.isBlank() ? m.id : m.id + " \"" + m.title + "\"";
                run.record(
                        LearningEngine.STALE_DROPPED,
                        m.id,
                        label + " (" + (reason.equals("gone") ? "gone" : "changed since you asked") + ", stale since "
                                + m.stale_since + ")");
            }
        }
    }

    private static void remember(LearningRun run, Marks rejected, DecisionEvent e) {
        rejected.remove(e.sessionId());
        rejected.add(new PreferenceData.SessionMark(e.sessionId(), e.title(), run.date, e.rule()));
    }

    /**
     * One of the session lists keyed by id, in its order; {@link #writeBack} puts the result into the list. A touched
     * list that (written by hand) held a session twice keeps its first mark.
     */
    private static final class Marks {
        private final List<PreferenceData.SessionMark> list;
        private final LinkedHashMap<String, PreferenceData.SessionMark> byId = new LinkedHashMap<>();
        private boolean changed;

        Marks(List<PreferenceData.SessionMark> list) {
            this.list = list;
            for (PreferenceData.SessionMark m : list) byId.putIfAbsent(m.id, m);
        }

        boolean has(String id) {
            return byId.containsKey(id);
        }

        boolean remove(String id) {
            boolean removed = byId.remove(id) != null;
            changed |= removed;
            return removed;
        }

        void add(PreferenceData.SessionMark m) {
            byId.put(m.id, m);
            changed = true;
        }

        void writeBack() {
            if (!changed) return; // a list this run did not touch stays exactly as it was
            list.clear();
            list.addAll(byId.values());
        }
    }

    static String label(DecisionEvent e) {
        return e.title() == null || e.title().isBlank() ? e.sessionId() : "\"" + e.title() + "\"";
    }
}
