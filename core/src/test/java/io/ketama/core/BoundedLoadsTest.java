package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link BoundedLoads}: the owner while it has room, else the next node in the key's failover order
 * with room; weights; the bound held under Zipf load on 10, 30 and 100 real v1 rings (the figures
 * printed: {@link BoundedLoadSimulation}); nothing allocated.
 */
class BoundedLoadsTest {

    private static final List<Node<String>> TEN = BoundedLoadSimulation.members(10, i -> 1);
    private static final KetamaRing<String> RING = KetamaRing.build(RingVersion.V1, TEN);
    private static final byte[][] KEYS = BoundedLoadSimulation.keys(2_000);

    @Test
    void withEveryNodeUnderItsBoundTheAnswerIsTheOwner() {
        BoundedLoads<String> bounded = BoundedLoads.of(RING, 1.25);
        long[] loads = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
        for (byte[] key : KEYS) {
            assertThat(bounded.chooseNode(key, n -> loads[n], 1_000)).isSameAs(RING.locate(key));
        }
    }

    @Test
    void aFullOwnerSendsTheKeyToItsNextCandidateWithRoomInFailoverOrder() {
        BoundedLoads<String> bounded = BoundedLoads.of(RING, 1.25);
        // total 1,000 over 10 nodes of weight 1: bound ⌈1.25 × 1,001 / 10⌉ = 126
        assertThat(bounded.bound(0, 1_000)).isEqualTo(126);
        for (byte[] key : KEYS) {
            List<Node<String>> order = RING.candidates(key, 10);
            int owner = RING.nodes().indexOf(order.get(0));
            int second = RING.nodes().indexOf(order.get(1));
            int third = RING.nodes().indexOf(order.get(2));
            long[] loads = new long[10];
            java.util.Arrays.fill(loads, 80);
            loads[owner] = 126; // full: 126 + 1 > 126
            assertThat(bounded.choose(key, n -> loads[n], 1_000)).as("owner full").isEqualTo(second);
            loads[owner] = 125; // room for exactly one more
            assertThat(bounded.choose(key, n -> loads[n], 1_000)).as("owner with room for one").isEqualTo(owner);
            loads[owner] = 300;
            loads[second] = 300;
            // total 1,240: bound ⌈1.25 × 1,241 / 10⌉ = 156
            assertThat(sum(loads)).isEqualTo(1_240);
            assertThat(bounded.choose(key, n -> loads[n], sum(loads))).as("owner and next full").isEqualTo(third);
        }
    }

    @Test
    void aNodeOfWeightTwoCarriesTwiceTheLoad() {
        List<Node<String>> nodes = BoundedLoadSimulation.members(4, i -> i == 0 ? 2 : 1);
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, nodes);
        BoundedLoads<String> bounded = BoundedLoads.of(ring, 1.5);
        assertThat(bounded.totalWeight()).isEqualTo(5);
        // ⌈1.5 × 1,000 × 2 / 5⌉ = 600 against ⌈1.5 × 1,000 / 5⌉ = 300
        assertThat(bounded.bound(0, 999)).isEqualTo(600);
        assertThat(bounded.bound(1, 999)).isEqualTo(300);
        // every request of one hot key: the heavy node takes twice what each light one takes
        byte[] hot = KEYS[7];
        long[] loads = new long[4];
        for (int r = 0; r < 10_000; r++) {
            loads[bounded.choose(hot, n -> loads[n], r)]++;
        }
        double perWeightMean = 10_000 / 5.0;
        for (int i = 0; i < 4; i++) {
            assertThat(loads[i] / (double) nodes.get(i).weight()).as("node %d per weight", i).isLessThanOrEqualTo(1.5 * perWeightMean + 1);
        }
        assertThat(loads[0]).isGreaterThan(loads[1]);
    }

    /**
     * The model of the issue (100,000 keys, 400,000 requests, 160 points per member): peak ÷ mean
     * ≤ the factor (plus one request of rounding) at 10, 30 and 100 members for Zipf 0.9, 1.1 and
     * 1.3, where the ring alone is far past it; the hottest key's copies on a few members.
     */
    @Test
    void underZipfLoadNoMemberCarriesMoreThanTheFactorTimesTheMean() {
        for (int n : new int[] {10, 30, 100}) {
            for (double s : new double[] {0.9, 1.1, 1.3}) {
                BoundedLoadSimulation.Result r = BoundedLoadSimulation.run(BoundedLoadSimulation.members(n, i -> 1), s, 1.25,
                        100_000, 400_000, 42);
                System.out.println(r);
                assertThat(r.boundedPeak()).as("%s", r).isLessThanOrEqualTo(r.boundedLastBound());
                assertThat(r.boundedPeakOverMean()).as("%s", r).isLessThanOrEqualTo(1.25 + n / 400_000.0 + 1e-9);
                if (s >= 1.1) {
                    assertThat(r.plainPeakOverMean()).as("the ring alone, %s", r).isGreaterThan(1.5);
                }
            }
        }
        BoundedLoadSimulation.Result tenAt11 = BoundedLoadSimulation.run(TEN, 1.1, 1.25, 100_000, 400_000, 42);
        // the hottest key (15 % of all requests, 1.5 × a member's mean) fills its owner and spills on
        // along its own failover order: 2 members at least, not scattered over the cluster
        assertThat(tenAt11.nodesServingHottestKey()).isBetween(2, 3);
    }

    @Test
    void loadsThatDoNotAddUpEndAtTheOwnerAfterOneTurn() {
        BoundedLoads<String> bounded = BoundedLoads.of(RING, 1.25);
        for (byte[] key : KEYS) {
            assertThat(bounded.chooseNode(key, n -> 1_000_000, 10)).isSameAs(RING.locate(key));
        }
    }

    @Test
    void chooseAmongTakesTheCallersOrder() {
        BoundedLoads<String> bounded = BoundedLoads.of(RING, 1.25);
        int[] candidates = {4, 2, 9, 0};
        long[] loads = {0, 0, 500, 0, 500, 0, 0, 0, 0, 0};
        assertThat(bounded.chooseAmong(candidates, 4, n -> loads[n], 1_000)).isEqualTo(2); // node 9
        assertThat(bounded.chooseAmong(candidates, 2, n -> loads[n], 1_000)).isZero(); // none has room: the owner
        assertThat(bounded.chooseAmong(candidates, 0, n -> loads[n], 1_000)).isEqualTo(-1);
    }

    @Test
    void anEmptyRingAnswersNoNode() {
        BoundedLoads<String> bounded = BoundedLoads.of(KetamaRing.build(RingVersion.V1, List.<Node<String>>of()), 1.25);
        assertThat(bounded.choose(KEYS[0], n -> 0, 0)).isEqualTo(-1);
        assertThat(bounded.chooseNode(KEYS[0], n -> 0, 0)).isNull();
    }

    @Test
    void aFactorOfOneOrLessOrPastTheBoundIsRefused() {
        for (double bad : new double[] {1.0, 0.5, -2, Double.NaN, Double.POSITIVE_INFINITY, 125}) {
            assertThatThrownBy(() -> BoundedLoads.of(RING, bad)).as("%s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(String.valueOf(bad))
                    .hasMessageContaining("above 1.0");
        }
        assertThat(BoundedLoads.isFactor(1.0001)).isTrue();
        assertThat(BoundedLoads.isFactor(100)).isTrue();
    }

    @Test
    void choosingAllocatesNothing() {
        BoundedLoads<String> bounded = BoundedLoads.of(RING, 1.25);
        long[] loads = new long[10];
        java.util.function.IntToLongFunction loadOf = n -> loads[n];
        int[] hashes = new int[KEYS.length];
        for (int i = 0; i < KEYS.length; i++) {
            hashes[i] = RING.hashKey(KEYS[i]);
        }
        long total = 0;
        for (int round = 0; round < 40; round++) { // compiled by the last rounds
            long before = allocated();
            for (int i = 0; i < 100_000; i++) {
                int node = bounded.choose(hashes[i % hashes.length], loadOf, total);
                loads[node]++;
                total++;
            }
            long bytes = allocated() - before;
            if (round == 39) {
                assertThat(bytes).as("bytes allocated by 100,000 choices").isLessThan(1_000);
            }
        }
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long sum(long[] loads) {
        long s = 0;
        for (long l : loads) {
            s += l;
        }
        return s;
    }
}
