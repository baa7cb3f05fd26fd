package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The service's two-hop bounded loads replayed over a real ring ({@link ServiceLoadSimulation}): what
 * the design holds and where it rests on the near copies. 250 requests a second per member, so the
 * bound (not min-rate) applies; fixed seeds, so the figures are the same on every run.
 */
class ServiceLoadSimulationTest {

    private static ServiceLoadSimulation.Result run(int members, double s, ServiceLoadSimulation.Settings settings) {
        return ServiceLoadSimulation.run(BoundedLoadSimulation.members(members, i -> 1), s, settings, 20_000, 250.0 * members, 20, 42);
    }

    @Test
    void belowMinRateNothingSpillsAndTheRingAloneDecides() {
        ServiceLoadSimulation.Settings never = new ServiceLoadSimulation.Settings(1.25, 500, 100_000, 3, 32, false, 4, 1_000, 1_000);
        ServiceLoadSimulation.Result r = run(10, 1.1, never);
        assertThat(r.spilledShare()).isZero();
        assertThat(r.servedPeakOverMean()).isEqualTo(r.plainPeakOverMean());
    }

    @Test
    void uniformKeysHardlySpill() {
        ServiceLoadSimulation.Result r = run(10, 0.0, ServiceLoadSimulation.Settings.defaults(false));
        System.out.println(r);
        assertThat(r.spilledShare()).isLessThan(0.01);
        assertThat(r.servedPeakOverMean()).isLessThanOrEqualTo(1.25);
    }

    /**
     * Without near copies two hops cannot hold a key that alone is more than two members' bound: at 30
     * members the hottest Zipf 1.1 key is 14.6 % of the requests, 4.4× a member's mean share.
     */
    @Test
    void withoutNearCopiesTwoHopsCannotHoldTheHottestKeyOfALargeCluster() {
        ServiceLoadSimulation.Result ten = run(10, 1.1, ServiceLoadSimulation.Settings.defaults(false));
        ServiceLoadSimulation.Result thirty = run(30, 1.1, ServiceLoadSimulation.Settings.defaults(false));
        System.out.println(ten);
        System.out.println(thirty);
        assertThat(ten.servedPeakOverMean()).isLessThan(ten.plainPeakOverMean());
        assertThat(thirty.servedPeakOverMean()).isGreaterThan(2.0);
        assertThat(thirty.servedPeakOverMean()).isLessThan(thirty.plainPeakOverMean());
    }

    /**
     * With near copies (the service's defaults: a key asked 16 times a second at one entry is kept
     * there for 1 s) the hottest keys are answered where they enter: the bound holds at 10 members, is
     * at its edge at 30, and fails at 100, where keys of 1-6 % of the requests are each several members'
     * bound but under 16 requests a second at any one entry (250 a second per entry), so they reach
     * two members only. Figures pinned: this is what the design does, not a target.
     */
    @Test
    void nearCopiesHoldTheBoundAtTenMembersAreAtItsEdgeAtThirtyAndFailAtAHundred() {
        ServiceLoadSimulation.Result ten = run(10, 1.1, ServiceLoadSimulation.Settings.defaults(true));
        ServiceLoadSimulation.Result thirty = run(30, 1.1, ServiceLoadSimulation.Settings.defaults(true));
        ServiceLoadSimulation.Result hundred = run(100, 1.1, ServiceLoadSimulation.Settings.defaults(true));
        ServiceLoadSimulation.Result hundredWithout = run(100, 1.1, ServiceLoadSimulation.Settings.defaults(false));
        System.out.println(ten);
        System.out.println(thirty);
        System.out.println(hundred);
        assertThat(ten.servedPeakOverMean()).isLessThanOrEqualTo(1.25);
        assertThat(ten.nearShare()).isGreaterThan(0.2);
        assertThat(thirty.servedPeakOverMean()).isCloseTo(1.25, org.assertj.core.api.Assertions.within(0.01));
        assertThat(hundred.servedPeakOverMean()).isGreaterThan(2.0).isLessThan(hundredWithout.servedPeakOverMean() / 4);
    }
}
