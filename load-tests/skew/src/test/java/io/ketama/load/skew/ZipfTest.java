package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfTest {

    @Test
    void probabilitiesFollowTheLawAndSumToOne() {
        Zipf z = Zipf.of(20_000, 1.1);
        double sum = 0;
        for (int k = 0; k < z.ranks(); k++) {
            sum += z.probability(k);
        }
        assertThat(sum).isCloseTo(1.0, within(1e-9));
        // p(k) ∝ (k+1)^-s: rank 0 over rank 1 is 2^1.1, rank 0 over rank 9 is 10^1.1
        assertThat(z.probability(0) / z.probability(1)).isCloseTo(Math.pow(2, 1.1), within(1e-9));
        assertThat(z.probability(0) / z.probability(9)).isCloseTo(Math.pow(10, 1.1), within(1e-9));
        // the javadoc's figures
        assertThat(z.probability(0)).isCloseTo(0.146, within(0.001));
        assertThat(Zipf.of(20_000, 0.9).probability(0)).isCloseTo(0.057, within(0.001));
        assertThat(Zipf.of(20_000, 1.3).probability(0)).isCloseTo(0.266, within(0.001));
    }

    @Test
    void exponentZeroIsUniform() {
        Zipf z = Zipf.of(1_000, 0);
        for (int k = 0; k < 1_000; k++) {
            assertThat(z.probability(k)).isCloseTo(0.001, within(1e-12));
        }
    }

    @Test
    void drawsMatchTheProbabilities() {
        Zipf z = Zipf.of(20_000, 1.1);
        SplittableRandom random = new SplittableRandom(7);
        int n = 400_000;
        int[] counts = new int[z.ranks()];
        for (int i = 0; i < n; i++) {
            counts[z.next(random)]++;
        }
        for (int k : new int[] {0, 1, 2, 9, 99}) {
            double expected = n * z.probability(k);
            // five standard deviations of a binomial count
            double sd = Math.sqrt(expected * (1 - z.probability(k)));
            assertThat((double) counts[k]).as("rank %d", k).isCloseTo(expected, within(5 * sd));
        }
        // the tail is drawn too: ranks past 10,000, together, as often as their probabilities say
        long tail = 0;
        double tailP = 0;
        for (int k = 10_000; k < z.ranks(); k++) {
            tail += counts[k];
            tailP += z.probability(k);
        }
        assertThat((double) tail).isCloseTo(n * tailP, within(5 * Math.sqrt(n * tailP)));
    }

    @Test
    void theSameSeedDrawsTheSameRanks() {
        Zipf z = Zipf.of(500, 0.9);
        SplittableRandom a = new SplittableRandom(42);
        SplittableRandom b = new SplittableRandom(42);
        for (int i = 0; i < 1_000; i++) {
            assertThat(z.next(a)).isEqualTo(z.next(b));
        }
    }

    @Test
    void everyUniformValueMapsToARank() {
        Zipf z = Zipf.of(3, 1.0);
        // cdf = 6/11, 9/11, 1
        assertThat(z.rankOf(0.0)).isZero();
        assertThat(z.rankOf(6.0 / 11 - 1e-12)).isZero();
        assertThat(z.rankOf(6.0 / 11 + 1e-12)).isEqualTo(1);
        assertThat(z.rankOf(Math.nextDown(1.0))).isEqualTo(2);
        assertThat(Zipf.of(1, 1.3).rankOf(0.5)).isZero();
    }

    @Test
    void badArgumentsAreRefusedWithTheRule() {
        assertThatThrownBy(() -> Zipf.of(0, 1)).hasMessageContaining("ranks must be from 1");
        assertThatThrownBy(() -> Zipf.of(10, -0.1)).hasMessageContaining("from 0 (uniform)");
        assertThatThrownBy(() -> Zipf.of(10, Double.NaN)).hasMessageContaining("was NaN");
    }
}
