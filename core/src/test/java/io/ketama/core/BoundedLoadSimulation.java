package io.ketama.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Zipf-distributed requests placed on a real v1 ring (160 points per weight unit), once by the ring
 * alone and once through {@link BoundedLoads}, counting each node's requests as they arrive (the
 * paper's model: a request is placed for good, loads only grow). Prints peak ÷ mean member load,
 * with and without bounded loads, and the share of requests that went past their owner.
 *
 * <pre>java -cp core/target/classes:core/target/test-classes io.ketama.core.BoundedLoadSimulation</pre>
 */
public final class BoundedLoadSimulation {

    /** One simulated cluster's figures. */
    public record Result(int members, double zipf, double factor, double plainPeakOverMean, double boundedPeakOverMean,
                         double spilledShare, long boundedPeak, long boundedLastBound, int nodesServingHottestKey) {
        @Override
        public String toString() {
            return String.format("| %d | %.1f | %.2f | %.2f | %.2f | %.1f %% | %d |", members, zipf, plainPeakOverMean, factor,
                    boundedPeakOverMean, 100 * spilledShare, nodesServingHottestKey);
        }
    }

    private BoundedLoadSimulation() {
    }

    /** {@code n} members {@code 10.0.x.y:11211}, weight {@code weight(i)}. */
    static List<Node<String>> members(int n, java.util.function.IntUnaryOperator weight) {
        List<Node<String>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String a = "10.0." + (i / 200) + "." + (i % 200 + 1) + ":11211";
            out.add(Node.of(HashIdentity.nginx(a), weight.applyAsInt(i), a));
        }
        return out;
    }

    /** The keys' bytes, {@code key-0} the most popular. */
    static byte[][] keys(int count) {
        byte[][] keys = new byte[count][];
        for (int i = 0; i < count; i++) {
            keys[i] = ("/objects/" + i + ".bin").getBytes(StandardCharsets.UTF_8);
        }
        return keys;
    }

    /** Cumulative Zipf probabilities of ranks 1..{@code count} with exponent {@code s}. */
    static double[] zipfCdf(int count, double s) {
        double[] cdf = new double[count];
        double sum = 0;
        for (int k = 1; k <= count; k++) {
            sum += Math.pow(k, -s);
            cdf[k - 1] = sum;
        }
        for (int k = 0; k < count; k++) {
            cdf[k] /= sum;
        }
        return cdf;
    }

    static int sample(double[] cdf, Random random) {
        double u = random.nextDouble();
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Runs one simulation: {@code requests} Zipf({@code s}) requests over {@code keyCount} keys. */
    static Result run(List<Node<String>> members, double s, double factor, int keyCount, int requests, long seed) {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, members);
        BoundedLoads<String> bounded = BoundedLoads.of(ring, factor);
        byte[][] keys = keys(keyCount);
        int[] hashes = new int[keyCount];
        for (int i = 0; i < keyCount; i++) {
            hashes[i] = ring.hashKey(keys[i]);
        }
        double[] cdf = zipfCdf(keyCount, s);
        Random random = new Random(seed);
        long[] plain = new long[members.size()];
        long[] loads = new long[members.size()];
        boolean[] servedHottest = new boolean[members.size()];
        long spilled = 0;
        for (int r = 0; r < requests; r++) {
            int key = sample(cdf, random);
            int owner = ring.points().nodeIndexForHash(hashes[key]);
            plain[owner]++;
            int chosen = bounded.choose(hashes[key], node -> loads[node], r);
            loads[chosen]++;
            if (chosen != owner) {
                spilled++;
            }
            if (key == 0) {
                servedHottest[chosen] = true;
            }
        }
        long totalWeight = members.stream().mapToLong(Node::weight).sum();
        int hottest = 0;
        for (boolean b : servedHottest) {
            hottest += b ? 1 : 0;
        }
        int peakNode = peakPerWeight(loads, members);
        return new Result(members.size(), s, factor, peakOverMean(plain, members, totalWeight, requests),
                peakOverMean(loads, members, totalWeight, requests), (double) spilled / requests, loads[peakNode],
                bounded.bound(peakNode, requests - 1L), hottest);
    }

    private static int peakPerWeight(long[] loads, List<Node<String>> members) {
        int peak = 0;
        for (int i = 1; i < loads.length; i++) {
            if ((double) loads[i] / members.get(i).weight() > (double) loads[peak] / members.get(peak).weight()) {
                peak = i;
            }
        }
        return peak;
    }

    /** The largest load per unit of weight over the mean load per unit of weight. */
    private static double peakOverMean(long[] loads, List<Node<String>> members, long totalWeight, long total) {
        int peak = peakPerWeight(loads, members);
        return ((double) loads[peak] / members.get(peak).weight()) / ((double) total / totalWeight);
    }

    public static void main(String[] args) {
        System.out.println("| members | Zipf s | ketama peak/mean | factor | bounded peak/mean | requests spilled | members serving the hottest key |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (int n : new int[] {10, 30, 100}) {
            for (double s : new double[] {0.9, 1.1, 1.3}) {
                System.out.println(run(members(n, i -> 1), s, 1.25, 100_000, 400_000, 42));
            }
        }
    }
}
