package steward.status;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import steward.StewardError;
import steward.config.StewardPaths;
import steward.learning.PreferenceStore;
import steward.memory.MemoryRules;
import steward.memory.MemoryStaging;
import steward.memory.lifecycle.EvidenceStore;
import steward.memory.lifecycle.Journal;
import steward.recall.FeedbackStore;
import steward.recall.InjectEngine;
import steward.recall.RecallEngine;
import steward.sessions.apply.ApplyJournal;

/**
 * Steward's own files that are there but cannot be read, each read as the tool that uses it reads it, and what that
 * means (learning paused, recall without feedback or cooldown, writes refused): reported by steward_status, never reset or rewritten here
 * (read-only, as status is). Each warning names the file; the tools that use it refuse it in the same words.
 */
final class StateFiles {
    private StateFiles() {}

    static List<String> problems(StewardPaths paths, Clock clock) {
        List<String> out = new ArrayList<>();
        Path state = paths.stateDir();
        PreferenceStore.Snapshot prefs = new PreferenceStore(state, clock).read();
        if (!prefs.usable()) out.add(prefs.problem());
        Path recall = RecallEngine.recallDir(paths);
        check(
                out,
                "recall",
                "search and injection use no feedback while it is, and recall_feedback refuses it",
                () -> new FeedbackStore(recall).state());
        check(
                out,
                "recall",
                "injection keeps no cooldown and logs no decision while it is, and feedback on a decision refuses it",
                () -> InjectEngine.readLog(recall.resolve("injections.json")));
        check(out, "memory", "consolidation and memory_health refuse it", () -> new EvidenceStore(state).read());
        check(out, "settings", "memory writes are refused", () -> MemoryRules.settingsWriteApproval(state));
        for (Path j : Journal.unreadable(paths))
            out.add("memory: the journal of an interrupted change, " + j
                    + ", cannot be read (its manifest is damaged); "
                    + "it was neither completed nor discarded: compare its staged files and backups/consolidate/ with "
                    + "the memory files, then remove it");
        for (Path j : new ApplyJournal(paths, clock).pending())
            out.add("session_apply: an apply or restore was interrupted (its journal " + j
                    + " is left); the next session_apply or session_restore settles it and says what it did");
        if (paths.hermesPresent()) {
            try {
                for (Path w : new MemoryStaging(paths, clock).listing().unreadable())
                    out.add("memory_pending: a staged write Steward cannot use, " + w + ", is left as it is");
            } catch (StewardError e) {
                out.add(e.getMessage());
            }
        }
        return out;
    }

    private static void check(List<String> out, String what, String effect, Runnable read) {
        try {
            read.run();
        } catch (StewardError e) {
            String m = e.getMessage().replaceFirst("^[a-z_]+: ", "").replace("; nothing was written. ", "; ");
            out.add(what + ": " + m + "; " + effect);
        }
    }
}
