package io.ketama.load.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time of a set of processes from {@code /proc/<pid>/stat} (utime + stime, every thread of the
 * process, in clock ticks). Linux only; a process that is gone counts as zero from then on, so a
 * delta across a {@code kill -9} undercounts the dead process's last moments, never overcounts.
 */
final class ProcCpu {

    private final List<Long> pids;
    private final long ticksPerSecond;

    /**
     * @param pids           the processes; {@code 0} stands for this JVM itself
     * @param ticksPerSecond {@code getconf CLK_TCK}, 100 on every Linux this runs on
     */
    ProcCpu(List<Long> pids, long ticksPerSecond) {
        if (ticksPerSecond <= 0) {
            throw new IllegalArgumentException("clock ticks per second must be > 0, was " + ticksPerSecond);
        }
        this.pids = List.copyOf(pids);
        this.ticksPerSecond = ticksPerSecond;
    }

    /** The summed CPU time of the processes so far, in nanoseconds. */
    long nanos() {
        long ticks = 0;
        for (long pid : pids) {
            ticks += ticks(pid == 0 ? ProcessHandle.current().pid() : pid);
        }
        return ticks * (1_000_000_000L / ticksPerSecond);
    }

    private static long ticks(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return 0;
        }
        return utimePlusStime(stat);
    }

    /** utime + stime (fields 14 and 15) of one {@code /proc/<pid>/stat} line, whose name field may hold spaces. */
    static long utimePlusStime(String statLine) {
        int close = statLine.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + statLine);
        }
        String[] fields = statLine.substring(close + 2).trim().split(" ");
        // fields[0] is field 3 (state), so field n is fields[n - 3]
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
