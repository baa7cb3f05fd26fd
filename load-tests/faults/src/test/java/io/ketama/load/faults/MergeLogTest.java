package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeLogTest {

    // as Hazelcast 5.7 logs them through Quarkus's console format (cut short after the part that matters)
    private static final String TCP = "2026-12-02 00:20:51,917 WARNING [com.hazelcast.internal.cluster.impl.TcpIpJoiner] "
            + "(hz.hungry_ramanujan.cached.thread-2) [10.77.0.11]:5701 [ketama-faults-kf26028] [5.7.0] [10.77.0.11]:5701 is merging [tcp/ip] to [10.77.0.12]:5701";
    private static final String OP = "2026-12-02 00:20:51,934 WARNING [com.hazelcast.internal.cluster.impl.operations.MergeClustersOp] "
            + "(hz.hungry_ramanujan.cached.thread-2) [10.77.0.11]:5701 [ketama-faults-kf26028] [5.7.0] [10.77.0.11]:5701 is merging to [10.77.0.12]:5701, because: instructed by master";
    private static final String OTHER = "2026-12-02 00:20:52,722 WARN  [io.ketama.quarkus.runtime.ClusterMigration] (ketama-migration) ketama: the cluster's migration state went from generation 2 back to 2";

    @Test
    void mergeLinesGiveTheirTimes() {
        ZoneId utc = ZoneId.of("UTC");
        long expected = ZonedDateTime.of(2026, 12, 2, 0, 20, 51, 934_000_000, utc).toInstant().toEpochMilli();
        assertThat(MergeLog.mergeTimes(List.of(TCP, OTHER, OP), utc)).containsExactly(expected - 17, expected);
    }

    @Test
    void theLastMergeInTheWindowCounts() {
        assertThat(MergeLog.lastBetween(List.of(5L, 10L, 30L), 6, 20)).isEqualTo(10);
        assertThat(MergeLog.lastBetween(List.of(5L, 30L), 6, 20)).isNull();
    }

    @Test
    void everyMemberLogInADirectoryIsRead(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("member-1.log"), OTHER + "\n" + TCP + "\n");
        Files.writeString(dir.resolve("member-2.log"), OP + "\n");
        Files.writeString(dir.resolve("checker.log"), OP + "\n");
        assertThat(MergeLog.mergeTimes(dir)).hasSize(2);
        assertThat(MergeLog.mergeTimes(dir.resolve("absent"))).isEmpty();
    }
}
