package io.stillwater.testkit;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;

/**
 * Thread dumps in the jstack layout, complete: every frame (unlike {@link ThreadInfo#toString()},
 * which stops after 8), the monitors each frame holds, the lock a thread waits for and who
 * owns it, and the ownable synchronizers (ReentrantLock, ReadWriteLock) it holds. Platform
 * threads only, as {@link ThreadMXBean} sees them.
 */
final class ThreadDump {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ThreadDump() {}

    /** Every live thread, ordered by name, plus the JVM's deadlock report if there is one. */
    static String allThreads() {
        ThreadInfo[] infos = THREADS.dumpAllThreads(
                THREADS.isObjectMonitorUsageSupported(), THREADS.isSynchronizerUsageSupported());
        StringBuilder out = new StringBuilder();
        out.append(infos.length).append(" threads\n\n");
        Arrays.stream(infos).filter(Objects::nonNull)
                .sorted(Comparator.comparing(ThreadInfo::getThreadName))
                .forEach(info -> append(out, info));
        long[] deadlocked = THREADS.findDeadlockedThreads();
        if (deadlocked != null) {
            out.append("DEADLOCK among threads ").append(Arrays.toString(deadlocked)).append('\n');
        }
        return out.toString();
    }

    /** The given threads, each in full, in the given order (for a leak report). */
    static String of(Collection<Thread> threads) {
        StringBuilder out = new StringBuilder();
        for (Thread t : threads) {
            ThreadInfo[] info = THREADS.getThreadInfo(new long[] {t.threadId()},
                    THREADS.isObjectMonitorUsageSupported(), THREADS.isSynchronizerUsageSupported());
            if (info.length == 1 && info[0] != null) {
                append(out, info[0]);
            } else { // ended between the check and the dump
                out.append('"').append(t.getName()).append("\" (ended meanwhile)\n\n");
            }
        }
        return out.toString();
    }

    static void append(StringBuilder out, ThreadInfo t) {
        out.append('"').append(t.getThreadName()).append('"')
                .append(t.isDaemon() ? " daemon" : "")
                .append(" prio=").append(t.getPriority())
                .append(" id=").append(t.getThreadId())
                .append(' ').append(t.getThreadState());
        if (t.getLockName() != null) out.append(" on ").append(t.getLockName());
        if (t.getLockOwnerName() != null) {
            out.append(" owned by \"").append(t.getLockOwnerName()).append("\" id=").append(t.getLockOwnerId());
        }
        if (t.isInNative()) out.append(" (in native)");
        if (t.isSuspended()) out.append(" (suspended)");
        out.append('\n');
        StackTraceElement[] frames = t.getStackTrace();
        MonitorInfo[] monitors = t.getLockedMonitors();
        for (int i = 0; i < frames.length; i++) {
            out.append("\tat ").append(frames[i]).append('\n');
            if (i == 0 && t.getLockInfo() != null) {
                String verb = switch (t.getThreadState()) {
                    case BLOCKED -> "blocked on ";
                    case WAITING, TIMED_WAITING -> "waiting on ";
                    default -> "lock ";
                };
                out.append("\t-  ").append(verb).append(t.getLockInfo()).append('\n');
            }
            for (MonitorInfo m : monitors) {
                if (m.getLockedStackDepth() == i) out.append("\t-  locked ").append(m).append('\n');
            }
        }
        LockInfo[] synchronizers = t.getLockedSynchronizers();
        if (synchronizers.length > 0) {
            out.append("\n\tLocked ownable synchronizers:\n");
            for (LockInfo s : synchronizers) out.append("\t-  ").append(s).append('\n');
        }
        out.append('\n');
    }
}
