package io.ketama.load.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * When Hazelcast merged split clusters, as the members' own logs say: a member of the side that
 * merges into the other logs {@code [a]:5701 is merging to [b]:5701} (or {@code is merging
 * [tcp/ip] to}) at WARN level, with the time. The members' rings only show a merge once the merged
 * member says it serves again; this is the moment Hazelcast itself acted, which the "within
 * 10 s of Hazelcast's merge" counts from.
 */
final class MergeLog {

    private static final Pattern MERGING = Pattern.compile(
            "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) .* is merging (?:\\[tcp/ip\\] )?to \\[");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

    private MergeLog() {
    }

    /** The times (epoch milliseconds) of the merge lines among {@code lines}, logged in {@code zone}. */
    static List<Long> mergeTimes(List<String> lines, ZoneId zone) {
        List<Long> times = new ArrayList<>();
        for (String line : lines) {
            Matcher m = MERGING.matcher(line);
            if (m.find()) {
                times.add(LocalDateTime.parse(m.group(1), TIME).atZone(zone).toInstant().toEpochMilli());
            }
        }
        return times;
    }

    /** The merge lines of every {@code member-*.log} in {@code dir}, logged in this machine's zone, as epoch milliseconds. */
    static List<Long> mergeTimes(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        List<Long> times = new ArrayList<>();
        try (Stream<Path> logs = Files.list(dir)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().matches("member-\\d+\\.log")).toList()) {
                try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
                    times.addAll(mergeTimes(lines.filter(l -> l.contains(" is merging ")).toList(), ZoneId.systemDefault()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the member logs in " + dir, e);
        }
        return times;
    }

    /** The last of {@code times} in {@code [from, to]}, or null. */
    static Long lastBetween(List<Long> times, long from, long to) {
        return times.stream().filter(t -> t >= from && t <= to).max(Long::compare).orElse(null);
    }
}
