package steward.recall;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import steward.StewardError;
import steward.Work;
import steward.json.Json;
import steward.state.AtomicFiles;
import tools.jackson.core.type.TypeReference;

/**
 * Keeps the index in step with its sources. A sync first compares each source's cheap token with the one committed;
 * when none moved it returns at once (no source is read). Otherwise each moved source streams its changes into one
 * index writer, committed as a whole with the new tokens; the sources' bookkeeping is saved after the commit (a crash in
 * between only makes the next sync write the same changes again). A cancelled sync rolls back: nothing half-written.
 * <p>One sync at a time per process. A caller that finds one running (the background indexer's first build, say) waits
 * for it, is sent its progress, and can cancel its own wait. A source that fails (an unreadable {@code state.db}) keeps
 * what was indexed from it and is reported, and its items are left out of searches until it can be read again
 * ({@link #unreadable()}): nothing it cannot vouch for now is presented as a result; the others are synced as usual.
 */
final class Indexer implements AutoCloseable {
    private final RecallIndex index;
    private final List<RecallSource> sources;
    private final Path stateDir;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Map<String, String>> states = new HashMap<>();
    /** Tokens seen equal to what is indexed, in this process (a token can move without the content moving). */
    private final Map<String, String> verified = new ConcurrentHashMap<>();

    private volatile double[] progress = {0, 0};
    private volatile String progressMessage = "";
    private volatile Map<String, String> errors = Map.of();
    private volatile Set<String> unreadable = Set.of();
    private volatile Set<String> locked = Set.of();

    Indexer(RecallIndex index, List<RecallSource> sources, Path recallDir) {
        this.index = index;
        this.sources = sources;
        this.stateDir = recallDir.resolve("sources");
    }

    List<RecallSource> sources() {
        return sources;
    }

    /** What the last sync could not read, by source id ("hermes-sessions" → "state.db: …"). */
    Map<String, String> errors() {
        return errors;
    }

    /**
     * The sources whose last sync failed as a whole (an unreadable {@code state.db}, say; not one file a source left out):
     * what the index holds of them is not searched until a sync reads them again.
     */
    Set<String> unreadable() {
        return unreadable;
    }

    /**
     * Brings the index up to date. {@code thorough}: compare every group, not only what the tokens say moved (a first
     * build, or the background indexer's periodic reconciliation).
     */
    SyncReport sync(Work work, boolean thorough) {
        return sync(work, thorough, null);
    }

    /**
     * Brings the sources with these ids up to date (null: every source), e.g. only those a call's scopes search: a
     * call about memory does not read state.db. The report speaks of those sources only.
     */
    SyncReport sync(Work work, boolean thorough, Set<String> only) {
        long t0 = System.nanoTime();
        acquire(work);
        try {
            return syncLocked(work, thorough, only, t0);
        } finally {
            progress = new double[] {0, 0};
            lock.unlock();
        }
    }

    /**
     * What a tool call does when a background indexer keeps the index: no lock, no write, no wait. It compares the
     * sources' cheap tokens with the last commit and reports a running sync's progress; the caller searches the index as
     * it is (during a first build: what has been written so far). Of the sources with these ids only (null: all).
     */
    SyncReport peek(Set<String> only) {
        long t0 = System.nanoTime();
        String building = null;
        double[] p = progress;
        if (running() && p[1] > 0) {
            building = String.format(
                    "index building: %d of %d (%s); results are from what is indexed so far",
                    (long) p[0], (long) p[1], progressMessage);
        }
        boolean exists = index.exists();
        Map<String, String> committed = exists ? index.committed() : Map.of();
        boolean stale = !exists || !RecallIndex.FORMAT.equals(committed.get("format"));
        for (RecallSource s : sources) {
            if (stale) break;
            if (only != null && !only.contains(s.id())) continue;
            String t = s.token();
            stale = !t.equals(committed.get("token." + s.id())) && !t.equals(verified.get(s.id()));
        }
        if (building == null && stale && !exists)
            building = "index building: starting; results are from what is indexed so far";
        return new SyncReport(true, false, 0, 0, ms(t0), false, of(errors, only), building, stale, locked);
    }

    /** Whether a sync would build the index from nothing: there is none, or it is of another format. */
    boolean fresh() {
        return !index.exists() || !RecallIndex.FORMAT.equals(index.committed().get("format"));
    }

    /** The entries of these sources (null: all). */
    private static Map<String, String> of(Map<String, String> errors, Set<String> only) {
        if (only == null) return errors;
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : errors.entrySet())
            if (only.contains(e.getKey())) out.put(e.getKey(), e.getValue());
        return Map.copyOf(out);
    }

    private SyncReport report(boolean built, int written, int deleted, long t0, boolean busy, Set<String> only) {
        return new SyncReport(true, built, written, deleted, ms(t0), busy, of(errors, only), null, false, locked);
    }

    /** Waits for the lock, relaying the running sync's progress, stopping when the caller cancels. */
    private void acquire(Work work) {
        try {
            while (!lock.tryLock(200, TimeUnit.MILLISECONDS)) {
                work.checkpoint("recall index");
                double[] p = progress;
                work.progress(p[0], p[1], "waiting for the index build: " + progressMessage);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Work.Cancelled("recall index");
        }
    }

    private SyncReport syncLocked(Work work, boolean thorough, Set<String> only, long t0) {
        index.open();
        boolean exists = index.exists();
        Map<String, String> committed = exists ? index.committed() : Map.of();
        boolean fresh = !exists || !RecallIndex.FORMAT.equals(committed.get("format"));
        Map<String, String> tokens = new LinkedHashMap<>();
        List<RecallSource> moved = new ArrayList<>();
        for (RecallSource s : sources) {
            if (only != null && !only.contains(s.id())) continue;
            String t = s.token();
            tokens.put(s.id(), t);
            String key = "token." + s.id();
            if (fresh
                    || thorough
                    || !t.equals(committed.get(key)) && !t.equals(verified.get(s.id()))
                    || errors.containsKey(s.id())) moved.add(s);
        }
        if (moved.isEmpty()) return report(false, 0, 0, t0, false, only);
        Work relay = relay(work);
        // what is known of the sources this sync does not read stays as it was
        Map<String, String> errs = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : errors.entrySet())
            if (!moved(moved, e.getKey())) errs.put(e.getKey(), e.getValue());
        Set<String> unread = new LinkedHashSet<>(), held = new LinkedHashSet<>();
        for (String id : unreadable) if (!moved(moved, id)) unread.add(id);
        for (String id : locked) if (!moved(moved, id)) held.add(id);
        Map<String, Map<String, String>> next = new HashMap<>();
        RecallIndex.Writer w = index.writer(fresh);
        try {
            for (RecallSource s : moved) {
                Map<String, String> before = fresh ? Map.of() : state(s);
                try {
                    Map<String, String> after = s.sync(before, thorough || fresh, w, relay);
                    if (after != before) next.put(s.id(), after);
                    if (s.problem() != null) {
                        errs.put(s.id(), s.problem());
                        tokens.remove(s.id());
                    }
                } catch (Work.Cancelled | RecallIndex.Busy e) {
                    throw e;
                } catch (RecallSource.Locked e) { // what is indexed of it stays searchable, said to be maybe stale
                    errs.put(s.id(), e.getMessage());
                    held.add(s.id());
                    tokens.remove(s.id());
                } catch (StewardError e) {
                    errs.put(s.id(), e.getMessage());
                    unread.add(s.id());
                    tokens.remove(s.id());
                }
            }
            if (!w.opened()) { // nothing to write: remember the tokens so they are not checked again here
                for (RecallSource s : moved) if (tokens.containsKey(s.id())) verified.put(s.id(), tokens.get(s.id()));
                settle(errs, unread, held);
                return report(false, 0, 0, t0, false, only);
            }
            work.checkpoint("recall index"); // the last safe point: after it the commit happens whole
            Map<String, String> data = new LinkedHashMap<>();
            data.put("format", RecallIndex.FORMAT);
            for (RecallSource s : sources) { // a source this sync did not read keeps its committed token
                String keep = tokens.containsKey(s.id())
                        ? tokens.get(s.id())
                        : fresh ? null : committed.get("token." + s.id());
                if (keep != null) data.put("token." + s.id(), keep);
            }
            w.commit(data);
            for (Map.Entry<String, Map<String, String>> e : next.entrySet()) saveState(e.getKey(), e.getValue());
            if (fresh) for (RecallSource s : sources) if (!next.containsKey(s.id())) saveState(s.id(), Map.of());
            verified.clear();
            settle(errs, unread, held);
            progress = new double[] {0, 0};
            return report(fresh, w.written, w.deleted, t0, false, only);
        } catch (RecallIndex.Busy e) {
            w.rollback();
            return report(false, 0, 0, t0, true, only);
        } catch (RuntimeException e) {
            w.rollback();
            if (fresh) states.clear();
            throw e;
        }
    }

    private static boolean moved(List<RecallSource> moved, String id) {
        for (RecallSource s : moved) if (s.id().equals(id)) return true;
        return false;
    }

    private void settle(Map<String, String> errs, Set<String> unread, Set<String> held) {
        errors = Map.copyOf(errs);
        unreadable = Set.copyOf(unread);
        locked = Set.copyOf(held);
    }

    private Work relay(Work caller) {
        return new Work() {
            @Override
            public void progress(double done, double total, String message) {
                progress = new double[] {done, total};
                progressMessage = message;
                caller.progress(done, total, message);
            }

            @Override
            public boolean cancelled() {
                return caller.cancelled();
            }
        };
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private Path stateFile(String id) {
        return stateDir.resolve(id + ".json");
    }

    private Map<String, String> state(RecallSource s) {
        Map<String, String> st = states.get(s.id());
        if (st != null) return st;
        Path f = stateFile(s.id());
        try {
            st = Files.isRegularFile(f)
                    ? Json.MAPPER.readValue(Files.readAllBytes(f), new TypeReference<HashMap<String, String>>() {})
                    : new HashMap<>();
        } catch (IOException | RuntimeException e) {
            st = new HashMap<>(); // unreadable bookkeeping: the source is compared in full against nothing, i.e.
            // rewritten
        }
        states.put(s.id(), st);
        return st;
    }

    private void saveState(String id, Map<String, String> st) {
        try {
            AtomicFiles.write(stateFile(id), Json.MAPPER.writeValueAsBytes(st));
            states.put(id, st);
        } catch (IOException e) {
            states.remove(id);
            throw new StewardError("recall", "cannot write " + stateFile(id) + ": " + e.getMessage());
        }
    }

    /** The progress of the sync running now (done, total) and what it does; total 0 when none runs. */
    double[] progress() {
        return progress;
    }

    String progressMessage() {
        return progressMessage;
    }

    boolean running() {
        return lock.isLocked();
    }

    @Override
    public void close() {
        for (RecallSource s : sources) s.close();
    }
}
