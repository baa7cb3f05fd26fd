package io.ketama.load.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class ProcCpuTest {

    @Test
    void utimeAndStimeEvenWhenTheNameHoldsSpacesAndParentheses() {
        String line = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 12345 0 0 0 1500 230 7 8 20 0 42 0 100 0 0";
        assertThat(ProcCpu.utimePlusStime(line)).isEqualTo(1730);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void thisJvmUsesCpuAndAGoneProcessCountsNothing() {
        long spin = System.nanoTime() + 300_000_000L;
        long x = 0;
        ProcCpu self = new ProcCpu(List.of(0L), 100);
        long before = self.nanos();
        while (System.nanoTime() < spin) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        assertThat(self.nanos()).as("after 300 ms of spinning (%d)", x).isGreaterThan(before);
        assertThat(new ProcCpu(List.of((long) Integer.MAX_VALUE), 100).nanos()).isZero();
    }
}
