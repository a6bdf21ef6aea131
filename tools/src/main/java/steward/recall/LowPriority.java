package steward.recall;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * Lowers the calling thread's CPU priority to nice 19 on Linux (a thread is its own task there), so background
 * embedding yields to everything else on the machine, tool calls of this process included. Java's own thread priorities
 * are ignored on Linux. Elsewhere, or when the call fails, nothing changes.
 */
final class LowPriority {
    private LowPriority() {}

    interface CLib extends Library {
        long syscall(long number, Object... args);

        int setpriority(int which, int who, int prio);
    }

    /** True when the thread now runs at nice 19. */
    static boolean lowerThisThread() {
        if (!Platform.isLinux()) return false;
        try {
            CLib c = Native.load("c", CLib.class);
            long gettid = Platform.isARM() ? 178 : Platform.is64Bit() ? 186 : 224;
            int tid = (int) c.syscall(gettid);
            return tid > 0 && c.setpriority(0 /* PRIO_PROCESS */, tid, 19) == 0;
        } catch (Throwable t) { // no libc binding here: stay at normal priority
            return false;
        }
    }
}
