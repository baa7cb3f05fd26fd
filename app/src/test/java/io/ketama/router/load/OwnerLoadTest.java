package io.ketama.router.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The owner's admission (bounded loads): under the bound everything is served and counted; past
 * the soft bound a hot key spills; past the hard bound any key spills, and a spilled request is not
 * counted; a final request is counted whatever the load; a window's roll starts the count again.
 * And the bound itself, per window, from the cluster's rate and weights.
 */
class OwnerLoadTest {

    private static final LoadSettings ON = new LoadSettings(true, 1.25, Duration.ofMillis(500), 0);

    @Test
    void underTheBoundEverythingIsServedAndPastItEverythingSpills() {
        OwnerLoad load = new OwnerLoad(ON, null);
        load.bound(new OwnerLoad.Bound(10, 8));
        for (int i = 0; i < 10; i++) {
            assertThat(load.admit("cold-" + i)).as("request %d of a bound of 10", i + 1).isTrue();
        }
        assertThat(load.admit("cold-10")).as("the 11th").isFalse();
        assertThat(load.admit("cold-11")).isFalse();
        assertThat(load.inWindow()).as("spilled requests are not counted").isEqualTo(10);
        assertThat(load.spilled()).isEqualTo(2);
        load.serve(); // a final request, past the bound
        assertThat(load.inWindow()).isEqualTo(11);
        assertThat(load.roll()).isEqualTo(11);
        assertThat(load.inWindow()).isZero();
        assertThat(load.served()).isEqualTo(11);
        assertThat(load.admit("cold-12")).as("a new window").isTrue();
    }

    @Test
    void hotKeysSpillFromTheSoftBoundAndColdKeysOnlyFromTheHardOne() {
        Set<String> hot = Set.of("hot");
        OwnerLoad load = new OwnerLoad(ON, hot::contains);
        load.bound(new OwnerLoad.Bound(10, 6));
        for (int i = 0; i < 6; i++) {
            assertThat(load.admit(i % 2 == 0 ? "hot" : "cold")).isTrue();
        }
        assertThat(load.admit("hot")).as("a hot key past the soft bound").isFalse();
        for (int i = 0; i < 4; i++) {
            assertThat(load.admit("cold-" + i)).as("a cold key up to the hard bound").isTrue();
        }
        assertThat(load.admit("cold-x")).as("a cold key past the hard bound").isFalse();
        assertThat(load.inWindow()).isEqualTo(10);
        assertThat(load.spilled()).isEqualTo(2);
    }

    @Test
    void withoutABoundNothingSpillsAndEverythingCounts() {
        OwnerLoad load = OwnerLoad.unbounded();
        for (int i = 0; i < 100_000; i++) {
            assertThat(load.admit("k")).isTrue();
        }
        assertThat(load.inWindow()).isEqualTo(100_000);
        assertThat(load.hardBound()).isEqualTo(Long.MAX_VALUE);
        load.bound(new OwnerLoad.Bound(1, 1));
        load.unbound();
        assertThat(load.admit("k")).isTrue();
    }

    @Test
    void theBoundIsTheFactorOverTheMeanPerUnitOfWeightPerWindow() {
        // the class javadoc's figures: 8 members of weight 1, 4,000 a second, windows of 0.5 s, c = 1.25
        OwnerLoad.Bound b = LoadBoard.bound(ON, 4_000, 1, 8);
        assertThat(b.hard()).as("ceil(1.25 x 2001 / 8)").isEqualTo(313);
        assertThat(b.soft()).as("ceil(250.125 x 2.25 / 2), the midpoint of the mean share and the bound").isEqualTo(282);
        OwnerLoad.Bound heavy = LoadBoard.bound(ON, 4_000, 2, 9);
        assertThat(heavy.hard()).as("weight 2 of 9: ceil(1.25 x 2001 x 2 / 9)").isEqualTo(556);
        LoadSettings floor = new LoadSettings(true, 1.25, Duration.ofMillis(500), 200);
        assertThat(LoadBoard.bound(floor, 80, 1, 8).hard()).as("a quiet cluster: min-rate x window").isEqualTo(100);
        assertThat(LoadBoard.bound(floor, 80, 1, 8).soft()).isEqualTo(100);
        assertThat(LoadBoard.bound(floor, 8_000, 1, 8).hard()).as("above min-rate the factor decides").isEqualTo(626);
    }

    @Test
    void settingsOutOfRangeAreRefusedNamingWhatIsAllowed() {
        assertThatThrownBy(() -> new LoadSettings(true, 1.0, Duration.ofMillis(500), 200))
                .hasMessageContaining("quarkus.ketama.bounded-load.factor").hasMessageContaining("above 1.0");
        assertThatThrownBy(() -> new LoadSettings(true, 1.25, Duration.ofMillis(5), 200))
                .hasMessage(".window: must be 10 ms to 10 s, e.g. 500ms; was PT0.005S");
        assertThatThrownBy(() -> new LoadSettings(true, 1.25, Duration.ofSeconds(11), 200))
                .hasMessage(".window: must be 10 ms to 10 s, e.g. 500ms; was PT11S");
        assertThatThrownBy(() -> new LoadSettings(true, 1.25, Duration.ofMillis(500), -1))
                .hasMessage(".min-rate: must be 0 to 10000000 requests a second, e.g. 200; was -1");
    }

    @Test
    void admittingAllocatesNothing() {
        OwnerLoad load = new OwnerLoad(ON, Set.of("hot")::contains);
        load.bound(new OwnerLoad.Bound(1_000, 500));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        String[] keys = {"hot", "a", "b", "c"};
        for (int i = 0; i < 200_000; i++) { // warm up (the adder grows its cells only under contention)
            load.admit(keys[i & 3]);
            if ((i & 1023) == 0) {
                load.roll();
            }
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        int admitted = 0;
        for (int i = 0; i < 100_000; i++) {
            admitted += load.admit(keys[i & 3]) ? 1 : 0;
            if ((i & 1023) == 0) {
                load.roll();
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(admitted).isGreaterThan(0);
        assertThat(allocated).as("bytes allocated by 100,000 admissions").isLessThan(1_000);
    }
}
