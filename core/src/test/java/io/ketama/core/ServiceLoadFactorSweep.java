package io.ketama.core;

/**
 * The service's balance factor against what it costs: {@link ServiceLoadSimulation} (the service's
 * bounded loads, two hops, hot keys first, near copies on or off, its other defaults) at factors 1.1,
 * 1.25, 1.5 and 2.0 for 8, 10 and 30 members at Zipf 1.1, 250 requests a second per member for 20 s.
 * The figures behind {@code quarkus.ketama.bounded-load.factor=1.25} in app/README ("The factor").
 *
 * <pre>java -cp core/target/classes:core/target/test-classes io.ketama.core.ServiceLoadFactorSweep</pre>
 */
public final class ServiceLoadFactorSweep {

    private ServiceLoadFactorSweep() {
    }

    public static void main(String[] args) {
        System.out.println("| members | Zipf s | near | factor | served peak/mean | candidate-served peak/mean | window peak/mean | spilled | near hits |");
        for (int n : new int[] {8, 10, 30}) {
            for (boolean near : new boolean[] {false, true}) {
                for (double c : new double[] {1.1, 1.25, 1.5, 2.0}) {
                    ServiceLoadSimulation.Settings d = ServiceLoadSimulation.Settings.defaults(near);
                    ServiceLoadSimulation.Settings set = new ServiceLoadSimulation.Settings(c, d.windowMillis(), d.minRate(), d.maxCandidates(),
                            d.heaviest(), near, d.nearMinRequests(), d.nearTtlMillis(), d.hotWindowMillis());
                    ServiceLoadSimulation.Result r = ServiceLoadSimulation.run(BoundedLoadSimulation.members(n, i -> 1), 1.1, set, 20_000, 250.0 * n, 20, 42);
                    System.out.printf("| %d | 1.1 | %s | %.2f | %.2f | %.2f | %.2f | %.1f %% | %.1f %% |%n", n, near ? "on" : "off", c,
                            r.servedPeakOverMean(), r.boundedPeakOverMean(), r.windowPeakOverMean(), 100 * r.spilledShare(), 100 * r.nearShare());
                }
            }
        }
    }
}
