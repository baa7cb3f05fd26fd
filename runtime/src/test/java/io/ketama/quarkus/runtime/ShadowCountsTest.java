package io.ketama.quarkus.runtime;

import io.ketama.quarkus.ForwardOutcomes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ShadowCounts} and the ramp's signals made from them. */
class ShadowCountsTest {

    @Test
    void countsEverySelectionAndTheDisagreementsAmongThemAcrossThreads() throws InterruptedException {
        ShadowCounts counts = new ShadowCounts();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    counts.count(i % 10 == 0);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(counts.selections()).isEqualTo(40_000);
        assertThat(counts.disagreements()).isEqualTo(4_000);
    }

    @Test
    void theRampsSignalsTakeTheShadowCountsAndTheForwardsWhereThereAreAny() {
        ShadowCounts counts = new ShadowCounts();
        counts.count(true);
        counts.count(false);
        counts.count(false);
        ForwardOutcomes forwards = new ForwardOutcomes() {
            @Override
            public long forwards() {
                return 9;
            }

            @Override
            public long failedForwards() {
                return 2;
            }
        };
        assertThat(MigrationRamp.Signals.of(counts, forwards)).isEqualTo(new MigrationRamp.Signals(3, 1, 9, 2));
        assertThat(MigrationRamp.Signals.of(counts, null)).isEqualTo(new MigrationRamp.Signals(3, 1, 0, 0));
    }
}
