package io.ketama.core;

import java.util.List;
import java.util.Objects;
import java.util.function.IntToLongFunction;

/**
 * Consistent hashing with bounded loads (Mirrokni, Thorup, Zadimoghaddam, "Consistent Hashing with
 * Bounded Loads", SODA 2018) over one {@link KetamaRing}: given a key, the load each node carries
 * now and a balance factor {@code c > 1}, the node to use. Pure: the caller counts the loads however
 * it likes (requests under way, requests a second, connections) and passes them in.
 *
 * <h2>Contract</h2>
 * A node of weight {@code w} may carry at most
 * <pre>    bound(w) = ⌈ c · (L + 1) · w / W ⌉</pre>
 * where {@code L} is the load all nodes carry now, {@code L + 1} counts the one being placed, and
 * {@code W} is the total weight of the nodes that have points on the ring. {@link #choose} walks the
 * ring from the key's position in ring order (the key's failover order: owner first, then each
 * further distinct node) and answers the first node whose {@code load + 1 ≤ bound(w)}: the owner
 * whenever it has room, so with every node under its bound the answer is exactly the plain ring's.
 * Because the walk follows the key's own failover order, a key that spills always spills to the same
 * next node (its copies stay on a few nodes, where a cache keeps them), and a full node's keys spill
 * to the successors of its many points, which are spread over the other nodes (no single neighbour
 * takes all of its overflow).
 *
 * <h2>Why a node always has room</h2>
 * Summing the bounds over all nodes with points: {@code Σ bound(w_i) ≥ c · (L + 1) > L + 1 > L = Σ load_i}
 * for any {@code c > 1}, so at least one node has {@code load_i < bound(w_i)}, i.e. room for one
 * more. With {@code c = 1.25}, 10 nodes of weight 1 and {@code L = 1,000}: each bound is
 * {@code ⌈1.25 · 1,001 / 10⌉ = 126} against a mean of 100. So when the loads passed in sum to the
 * {@code L} passed in, no node is ever placed past {@code c ×} the mean (plus the rounding of one
 * unit), and a walk ends within one turn of the ring. When they do not (a caller's counts drift
 * apart), a walk that finds no node with room answers the owner, after at most one turn.
 *
 * <h2>Cost</h2>
 * The same as a lookup while the owner has room (its position, one load read, one multiply); each
 * further point visited costs one read of the point table and one load read. The expected length of
 * a walk is {@code O(1/ε²)} nodes for {@code c = 1 + ε} in the paper's model; with ketama's 160 (v1)
 * or 16 (v2) points per weight unit the next point almost always belongs to another node. Nothing is
 * allocated ({@link #choose(int, IntToLongFunction, long)} and {@link #chooseAmong} take primitive
 * arguments and answer an {@code int}); no lock; safe from any thread (the object is immutable; the
 * load function is called from the calling thread only).
 *
 * <p>Weights count: a node of weight 2 may carry twice the load of a node of weight 1. A node whose
 * every point lost a collision never owns a key, so its weight is left out of {@code W} (it could
 * not take its share).
 *
 * <p>For a key restricted to nodes with some features ({@link FeatureRings}), pass its candidates
 * (that ring's failover order, e.g. {@code FeatureRings.candidatesForHash}) to {@link #chooseAmong}:
 * the bounds are the same (the whole ring's load and weight), the candidates are the key's own. For
 * the memcached styles the walk is the ring's point order (for {@link HashStyle#HASHRING} without the
 * losers of equal points; for {@link HashStyle#SPYMEMCACHED} not its seven probes): pass those
 * failover orders to {@link #chooseAmong} where they matter.
 *
 * @param <T> the payload type of the ring's nodes
 */
public final class BoundedLoads<T> {

    /** The smallest factor is anything above this: at 1.0 the bounds no longer leave a node room. */
    public static final double MIN_FACTOR_EXCLUSIVE = 1.0;
    /**
     * The largest factor: past it a bound is as good as none (100 × the mean); a larger value is
     * almost certainly a percentage given where a ratio goes (125 for 1.25, as HAProxy's
     * {@code hash-balance-factor} is written).
     */
    public static final double MAX_FACTOR = 100.0;
    /** What a factor may be, for messages. */
    public static final String FACTOR_RULE = "a number above " + MIN_FACTOR_EXCLUSIVE + " and at most " + MAX_FACTOR
            + ", e.g. 1.25 (a node then carries at most 1.25 x the mean load per unit of weight)";

    private final KetamaRing<T> ring;
    private final RingPoints<T> points;
    private final double factor;
    /** Weight of each node, by node index; 0 for a node without points. */
    private final int[] weights;
    private final long totalWeight;

    private BoundedLoads(KetamaRing<T> ring, double factor) {
        this.ring = ring;
        this.points = ring.points();
        this.factor = factor;
        List<Node<T>> nodes = ring.nodes();
        boolean[] placed = new boolean[nodes.size()];
        for (int pos = 0, n = points.count(); pos < n; pos++) {
            placed[points.nodeIndexAt(pos)] = true;
        }
        this.weights = new int[nodes.size()];
        long total = 0;
        for (int i = 0; i < weights.length; i++) {
            weights[i] = placed[i] ? nodes.get(i).weight() : 0;
            total += weights[i];
        }
        this.totalWeight = total;
    }

    /**
     * The chooser of {@code ring} with balance factor {@code factor}. Building it reads every point
     * once (to leave nodes without points out of the total weight): make one per ring, not per key.
     *
     * @throws IllegalArgumentException when {@code factor} is not {@link #isFactor a factor}
     */
    public static <T> BoundedLoads<T> of(KetamaRing<T> ring, double factor) {
        Objects.requireNonNull(ring, "ring");
        if (!isFactor(factor)) {
            throw new IllegalArgumentException("balance factor must be " + FACTOR_RULE + "; was " + factor);
        }
        return new BoundedLoads<>(ring, factor);
    }

    /** Whether {@code factor} is one a chooser takes: above 1.0, at most {@value #MAX_FACTOR}, finite. */
    public static boolean isFactor(double factor) {
        return factor > MIN_FACTOR_EXCLUSIVE && factor <= MAX_FACTOR;
    }

    public KetamaRing<T> ring() {
        return ring;
    }

    public double factor() {
        return factor;
    }

    /** The total weight of the nodes that have points ({@code W}). */
    public long totalWeight() {
        return totalWeight;
    }

    /**
     * The most load node {@code nodeIndex} may carry, counting the one about to be placed, while all
     * nodes carry {@code totalLoad}: {@code ⌈c · (totalLoad + 1) · w / W⌉}; 0 for a node without points.
     */
    public long bound(int nodeIndex, long totalLoad) {
        return boundOfWeight(weights[nodeIndex], totalLoad);
    }

    /**
     * The most load a node of {@code weight} may carry, counting the one about to be placed, while
     * all nodes carry {@code totalLoad}: {@code ⌈c · (totalLoad + 1) · weight / W⌉}. For callers that
     * walk candidates as {@link Node}s (a feature ring's failover order) rather than by index.
     */
    public long boundOfWeight(int weight, long totalLoad) {
        if (weight == 0) {
            return 0;
        }
        double b = Math.ceil(factor * ((double) Math.max(0, totalLoad) + 1) * weight / totalWeight);
        return b >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) b;
    }

    /**
     * The node to use for a key whose {@link KetamaRing#hashKey ring hash} is {@code hash}: the
     * first node in the key's failover order with {@code loads(node) + 1 ≤ bound(node)}; the owner
     * when none has room (loads that do not sum to {@code totalLoad}); -1 on an empty ring.
     * Allocates nothing.
     *
     * @param loads     the load of a node, by node index (of {@link KetamaRing#nodes()})
     * @param totalLoad the load of all nodes together ({@code L})
     */
    public int choose(int hash, IntToLongFunction loads, long totalLoad) {
        int start = points.position(hash);
        if (start < 0) {
            return -1;
        }
        int count = points.count();
        int pos = start;
        for (int step = 0; step < count; step++) {
            int node = points.nodeIndexAt(pos);
            if (loads.applyAsLong(node) < boundOfWeight(weights[node], totalLoad)) {
                return node;
            }
            if (++pos == count) {
                pos = 0;
            }
        }
        return points.nodeIndexAt(start);
    }

    /** {@link #choose(int, IntToLongFunction, long)} for the bytes of {@code key}. */
    public int choose(byte[] key, IntToLongFunction loads, long totalLoad) {
        return choose(ring.hashKey(key), loads, totalLoad);
    }

    /** The node {@link #choose(int, IntToLongFunction, long)} answers, or null on an empty ring. */
    public Node<T> chooseNode(byte[] key, IntToLongFunction loads, long totalLoad) {
        int node = choose(key, loads, totalLoad);
        return node < 0 ? null : points.node(node);
    }

    /**
     * Among a key's candidates as the caller walked them (node indices in its failover order, owner
     * first: a feature ring's, a memcached style's probes), the position in {@code candidates} of the
     * first whose {@code loads(node) + 1 ≤ bound(node)}; 0 (the owner) when none has room; -1 when
     * {@code count} is 0. Allocates nothing.
     */
    public int chooseAmong(int[] candidates, int count, IntToLongFunction loads, long totalLoad) {
        Objects.checkFromToIndex(0, count, candidates.length);
        for (int i = 0; i < count; i++) {
            int node = candidates[i];
            if (loads.applyAsLong(node) < boundOfWeight(weights[node], totalLoad)) {
                return i;
            }
        }
        return count == 0 ? -1 : 0;
    }

    @Override
    public String toString() {
        return "BoundedLoads[factor " + factor + ", " + ring + "]";
    }
}
