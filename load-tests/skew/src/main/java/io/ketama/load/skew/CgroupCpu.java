package io.ketama.load.skew;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Each member's CPU time from the cgroup v1 {@code cpuacct} group it runs in: {@code cpuacct.usage},
 * the nanoseconds of CPU every task of the group used since the group was made (all threads of the
 * member's JVM, user and kernel time). Read at both edges of an interval, the difference is what the
 * member's work took in it, whatever the scheduler gave the others.
 */
final class CgroupCpu {

    private final Map<String, Path> usage;

    /** @param usage each member's name to its group's {@code cpuacct.usage} file, in report order */
    CgroupCpu(Map<String, Path> usage) {
        this.usage = new LinkedHashMap<>(usage);
    }

    boolean isEmpty() {
        return usage.isEmpty();
    }

    /** Every member's usage now, in nanoseconds. */
    Map<String, Long> read() {
        Map<String, Long> out = new LinkedHashMap<>();
        usage.forEach((name, file) -> out.put(name, readOne(name, file)));
        return out;
    }

    private static long readOne(String name, Path file) {
        try {
            String text = Files.readString(file).trim();
            return Long.parseLong(text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + "'s CPU from " + file, e);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + " does not hold a number of nanoseconds", e);
        }
    }

    /** {@code after - before}, member by member. */
    static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((name, value) -> out.put(name, value - before.getOrDefault(name, 0L)));
        return out;
    }
}
