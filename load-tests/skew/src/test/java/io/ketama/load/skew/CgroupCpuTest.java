package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupCpuTest {

    @Test
    void readsEachGroupsUsageAndTheirDifference(@TempDir Path dir) throws Exception {
        Path a = Files.writeString(dir.resolve("a"), "1000000000\n");
        Path b = Files.writeString(dir.resolve("b"), "5\n");
        Map<String, Path> files = new LinkedHashMap<>();
        files.put("m0", a);
        files.put("m1", b);
        CgroupCpu cpu = new CgroupCpu(files);
        Map<String, Long> before = cpu.read();
        Files.writeString(a, "3500000000\n");
        Files.writeString(b, "5\n");
        Map<String, Long> after = cpu.read();
        assertThat(CgroupCpu.difference(before, after)).containsExactly(Map.entry("m0", 2_500_000_000L), Map.entry("m1", 0L));
    }

    @Test
    void aMissingOrGarbledFileNamesItself(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> new CgroupCpu(Map.of("m0", dir.resolve("none"))).read()).hasMessageContaining("m0's CPU");
        Path bad = Files.writeString(dir.resolve("bad"), "lots\n");
        assertThatThrownBy(() -> new CgroupCpu(Map.of("m0", bad)).read()).hasMessageContaining("does not hold a number");
    }

    @Test
    void originFetchesAreTheLinesOfItsLog(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("access.log");
        assertThat(LineCount.of(log)).isZero();
        Files.writeString(log, "GET /o/s/1\nGET /o/s/2\n");
        assertThat(LineCount.of(log)).isEqualTo(2);
        assertThat(LineCount.of(null)).isZero();
    }
}
