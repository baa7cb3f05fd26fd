package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ZipfKeysTest {

    @Test
    void probabilitiesFollowZipfsLaw() {
        ZipfKeys keys = new ZipfKeys(1000, 1.0, 1);
        double harmonic = 0;
        for (int r = 1; r <= 1000; r++) {
            harmonic += 1.0 / r;
        }
        assertThat(keys.probability(1)).isCloseTo(1 / harmonic, within(1e-12));
        assertThat(keys.probability(10)).isCloseTo(0.1 / harmonic, within(1e-12));
        double sum = 0;
        for (int r = 1; r <= 1000; r++) {
            sum += keys.probability(r);
            if (r > 1) {
                assertThat(keys.probability(r)).isLessThan(keys.probability(r - 1));
            }
        }
        assertThat(sum).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void drawsMatchTheDistributionAndStayInRange() {
        ZipfKeys keys = new ZipfKeys(100, 1.0, 7);
        int draws = 200_000;
        int[] seen = new int[101];
        for (int i = 0; i < draws; i++) {
            int rank = keys.nextRank();
            assertThat(rank).isBetween(1, 100);
            seen[rank]++;
        }
        // With a fixed seed the counts are fixed; the bounds say the sampler is Zipf, not uniform.
        assertThat(seen[1] / (double) draws).isCloseTo(keys.probability(1), within(0.01));
        assertThat(seen[2] / (double) draws).isCloseTo(keys.probability(2), within(0.01));
        assertThat(seen[100] / (double) draws).isCloseTo(keys.probability(100), within(0.002));
    }

    @Test
    void aSeedGivesTheSameSequence() {
        List<Object> a = new ArrayList<>();
        List<Object> b = new ArrayList<>();
        ZipfKeys first = new ZipfKeys(5000, 1.1, 42);
        ZipfKeys second = new ZipfKeys(5000, 1.1, 42);
        for (int i = 0; i < 1000; i++) {
            a.add(first.next().get("key"));
            b.add(second.next().get("key"));
        }
        assertThat(a).isEqualTo(b);
        assertThat(new ZipfKeys(5000, 1.1, 43).next()).isNotNull();
    }

    @Test
    void feederRecordsCarryKeyTextAndRank() {
        var record = new ZipfKeys(1, 1.0, 3).next();
        assertThat(record).containsEntry("key", "item-1").containsEntry("rank", 1);
    }

    @Test
    void idealHitRatioMatchesASimulatedCache() {
        ZipfKeys theory = new ZipfKeys(500, 1.0, 1);
        ZipfKeys draws = new ZipfKeys(500, 1.0, 99);
        java.util.Set<Integer> cache = new java.util.HashSet<>();
        int hits = 0;
        int requests = 20_000;
        for (int i = 0; i < requests; i++) {
            if (!cache.add(draws.nextRank())) {
                hits++;
            }
        }
        assertThat(hits / (double) requests).isCloseTo(theory.idealHitRatio(1, requests + 1), within(0.01));
        assertThat(theory.idealHitRatio(1, 2)).isCloseTo(0.0, within(1e-12));   // the first request always misses
        assertThat(theory.idealHitRatio(1_000_000, 1_000_100)).isCloseTo(1.0, within(1e-6));
        assertThatThrownBy(() -> theory.idealHitRatio(0, 5)).hasMessageContaining("1 <= from < to");
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new ZipfKeys(0, 1.0, 1)).hasMessageContaining("key count must be >= 1, was 0");
        assertThatThrownBy(() -> new ZipfKeys(10, 0, 1)).hasMessageContaining("Zipf exponent must be a finite number above 0");
        assertThatThrownBy(() -> new ZipfKeys(10, Double.NaN, 1)).hasMessageContaining("was NaN");
    }
}
