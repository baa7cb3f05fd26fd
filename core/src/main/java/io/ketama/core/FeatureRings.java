package io.ketama.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Lookups restricted to the nodes that have every feature of a required set, answered from one
 * stored ring instead of one ring per feature combination.
 *
 * <h2>Contract</h2>
 * For a required set {@code S}, every answer (owner, failover order, candidates) is exactly what
 * {@code KetamaRing.build(ring.version(), ring.pointsPerWeight(), nodes having all of S, in the
 * ring's node order)} would answer, colliding points included: where a qualifying node lost a
 * collision to a node without {@code S}, its point still counts (see {@link FilteredWalk}). Node
 * indices are indices into {@code ring().nodes()}. For the memcached styles, whose clients share
 * points out by weight among all servers, the ring of {@code S} is the full ring's points of the
 * nodes having {@code S} (each node keeps its point count), as a feature ring is defined; keys
 * hash as the ring hashes them ({@link KetamaRing#hashKey}). An empty {@code S} is the full ring. A set no
 * node satisfies, naming a tag no node has, or whose nodes have no points (a memcached style gives
 * none to a server of a small enough weight share) answers "no node" ({@code null}, -1, nothing)
 * and never throws.
 *
 * <h2>How</h2>
 * By default a lookup walks the full ring from the key's position, skipping points of nodes
 * without {@code S}: one extra bit test per skipped point against a bitset of qualifying nodes.
 * When the qualifying nodes generate less than a quarter of the points (the walk would average
 * more than 4 points and have long gaps), a dedicated ring for {@code S} is built on first use
 * ("materialised"), provided it fits the memory budget; rings of the least recently used sets
 * are evicted to make room. An evicted set walks again, and may be materialised again after
 * {@value FeatureSetCache#READMIT_AFTER_WALKS} walks (as may a set planned anew once more than
 * {@value FeatureSetCache#MAX_PLANS} sets were planned and some plans dropped), so a working set
 * larger than the budget cannot make every lookup rebuild a ring. That policy is {@link FeatureSetCache}'s; this class
 * answers lookups.
 *
 * <h2>Memory</h2>
 * The budget bounds the bytes of materialised rings (their point storage, counted as
 * {@link KetamaRing#retainedBytes()} counts it, plus their node maps). The default is
 * {@value #DEFAULT_BUDGET_FRACTION} × the full ring's retained bytes less the feature masks and
 * plans, so the full ring and every feature set together stay within 1.5 × one ring however many
 * sets are used. A set whose ring alone exceeds the budget is always walked.
 *
 * <h2>Threads</h2>
 * Safe for concurrent use. A lookup of a known set (walked or materialised) takes no lock and
 * allocates nothing (for {@code byte[]} keys and hashes; at most {@value FeatureIndex#SINGLE_WORD_FEATURES}
 * distinct tags on the ring); the iterator and list methods allocate their results. The first
 * lookup of a set takes a lock to plan it, and builds its dedicated ring if it qualifies;
 * materialisation after an eviction is done by whichever lookup finds the lock free, the others
 * keep walking meanwhile.
 *
 * @param <T> the payload type of the nodes
 */
public final class FeatureRings<T> {

    /** Default memory budget for materialised rings, as a fraction of the full ring's retained bytes. */
    public static final double DEFAULT_BUDGET_FRACTION = 0.5;

    private final KetamaRing<T> ring;
    private final PointTable points;
    private final CollisionTable collisions;
    private final FeatureIndex features;
    private final FeatureSetCache<T> cache;
    private final FeaturePlan<T> fullRing = FeaturePlan.full(new long[0]);
    private final FeaturePlan<T> noNode = FeaturePlan.none(new long[0]);

    private FeatureRings(KetamaRing<T> ring, FeatureIndex features, long budget, int readmitAfterWalks) {
        this.ring = ring;
        this.points = ring.table();
        this.collisions = ring.collisions();
        this.features = features;
        this.cache = new FeatureSetCache<>(ring, features, budget, readmitAfterWalks);
    }

    /**
     * Feature rings over {@code ring} with the default budget: {@value #DEFAULT_BUDGET_FRACTION} ×
     * the ring's retained bytes, less what the feature masks and the most plans kept can take, so
     * that {@link #retainedBytes()} never exceeds 1.5 × {@code ring.retainedBytes()}.
     */
    public static <T> FeatureRings<T> of(KetamaRing<T> ring) {
        Objects.requireNonNull(ring, "ring");
        FeatureIndex index = new FeatureIndex(ring.nodes());
        return new FeatureRings<>(ring, index, defaultBudget(ring, index), FeatureSetCache.READMIT_AFTER_WALKS);
    }

    private static long defaultBudget(KetamaRing<?> ring, FeatureIndex index) {
        long perPlan = PointTable.arrayBytes(index.words(), 8) + PointTable.arrayBytes((ring.nodeCount() + 63) >>> 6, 8);
        long overhead = index.retainedBytes() + FeatureSetCache.MAX_PLANS * perPlan;
        return Math.max(0, (long) (ring.retainedBytes() * DEFAULT_BUDGET_FRACTION) - overhead);
    }

    /**
     * Feature rings over {@code ring}, materialising dedicated rings within {@code memoryBudgetBytes}
     * (0: always walk).
     *
     * @throws IllegalArgumentException when the budget is negative
     */
    public static <T> FeatureRings<T> of(KetamaRing<T> ring, long memoryBudgetBytes) {
        return of(ring, memoryBudgetBytes, FeatureSetCache.READMIT_AFTER_WALKS);
    }

    static <T> FeatureRings<T> of(KetamaRing<T> ring, long memoryBudgetBytes, int readmitAfterWalks) {
        Objects.requireNonNull(ring, "ring");
        if (memoryBudgetBytes < 0) {
            throw new IllegalArgumentException("memory budget must be >= 0 bytes (0 = never materialise), was " + memoryBudgetBytes);
        }
        return new FeatureRings<>(ring, new FeatureIndex(ring.nodes()), memoryBudgetBytes, readmitAfterWalks);
    }

    /** The full ring every answer is derived from. */
    public KetamaRing<T> ring() {
        return ring;
    }

    /** Every feature tag some node has, sorted. */
    public Set<String> knownFeatures() {
        return features.known();
    }

    /** The owner of {@code key} among the nodes having every feature of {@code required}, or null. */
    public Node<T> locate(byte[] key, Set<String> required) {
        return nodeOrNull(nodeIndexForHash(ring.hashKey(key), required));
    }

    /** {@link #locate(byte[], Set)} for the UTF-8 bytes of {@code key}. */
    public Node<T> locate(CharSequence key, Set<String> required) {
        return nodeOrNull(nodeIndexForHash(ring.hashKey(key), required));
    }

    /**
     * Index into {@code ring().nodes()} of the owner of a key whose CRC-32 is {@code hash}, among
     * the nodes having every feature of {@code required}; -1 when there is none.
     */
    public int nodeIndexForHash(int hash, Set<String> required) {
        FeaturePlan<T> p = plan(required);
        FeaturePlan.Kind kind = p.kind;
        if (kind == FeaturePlan.Kind.RING) {
            return p.toFull[p.dedicated.nodeIndexForHash(hash)];
        }
        if (kind == FeaturePlan.Kind.WALK) {
            cache.walked(p);
            return FilteredWalk.owner(points, collisions, p.qualifying, hash);
        }
        return kind == FeaturePlan.Kind.FULL ? ring.nodeIndexForHash(hash) : -1;
    }

    /**
     * Failover order of {@code key} among the nodes having every feature of {@code required}, as
     * {@link KetamaRing#failover(byte[])} orders it on the ring of those nodes (spymemcached's
     * probes for that style, a ring walk for the others).
     */
    public Iterator<Node<T>> failover(byte[] key, Set<String> required) {
        if (ring.placement().failover() != Placement.Failover.PROBES) {
            return failoverForHash(ring.hashKey(key), required);
        }
        Placement placement = ring.placement();
        int probe = ring.hashKey(key);
        List<Node<T>> out = new ArrayList<>();
        for (int t = 0; ; t++) {
            int node = nodeIndexForHash(probe, required);
            if (node >= 0 && !out.contains(ring.node(node))) {
                out.add(ring.node(node));
            }
            if (t == placement.probes(ring.nodeCount()) - 1) {
                return out.iterator();
            }
            probe = placement.nextProbe(probe, t, key, 0, key.length);
        }
    }

    /** {@link #failover(byte[], Set)} for the UTF-8 bytes of {@code key}. */
    public Iterator<Node<T>> failover(CharSequence key, Set<String> required) {
        if (ring.placement().failover() != Placement.Failover.PROBES) {
            return failoverForHash(ring.hashKey(key), required);
        }
        return failover(key.toString().getBytes(StandardCharsets.UTF_8), required);
    }

    /**
     * Failover order among the nodes having every feature of {@code required}: the owner, then each
     * further distinct qualifying node in ring order, each once, ending after one turn of the ring
     * (and, for {@link HashStyle#HASHRING}, every qualifying node of a point several nodes made).
     * A {@link HashStyle#SPYMEMCACHED} ring walks the ring here too: its probes need the key
     * ({@link #failover(byte[], Set)}).
     */
    public Iterator<Node<T>> failoverForHash(int hash, Set<String> required) {
        FeaturePlan<T> p = plan(required);
        switch (p.kind) {
            case FULL:
                return ring.failoverForHash(hash);
            case RING:
                return p.dedicated.failoverForHash(hash); // the same Node objects as the full ring's
            case WALK:
                return new DistinctNodeIterator<>(ring, new FilteredWalk(points, collisions, p.qualifying, hash,
                        ring.placement().failover() == Placement.Failover.RING_WALK_EQUAL_POINTS), countBits(p.qualifying));
            default:
                return Collections.emptyIterator();
        }
    }

    /** The first {@code max} nodes of {@link #failoverForHash(int, Set)} (none when {@code max <= 0}). */
    public List<Node<T>> candidatesForHash(int hash, Set<String> required, int max) {
        List<Node<T>> out = new ArrayList<>(Math.max(0, Math.min(max, ring.nodeCount())));
        for (Iterator<Node<T>> it = failoverForHash(hash, required); out.size() < max && it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    /**
     * The feature sets planned so far (each set a lookup asked for and this still keeps a plan of,
     * at most {@value FeatureSetCache#MAX_PLANS}), most recently used first: what a new
     * {@code FeatureRings} over the next ring of the same cluster can {@link #prepare} before it is
     * put in use.
     */
    public List<Set<String>> plannedSets() {
        List<FeaturePlan<T>> plans = cache.plans();
        plans.sort((a, b) -> Long.compare(b.stamp, a.stamp));
        List<Set<String>> out = new ArrayList<>(plans.size());
        for (FeaturePlan<T> p : plans) {
            out.add(features.names(p.key));
        }
        return out;
    }

    /**
     * Plans each of {@code sets} now and materialises the dedicated rings the budget admits: a
     * rebuild calls this before publishing a new ring so that lookups never plan or build on the
     * request path. Sets naming a tag no node has need no plan.
     *
     * <p>Give the sets most recently used first, as {@link #plannedSets()} lists them: where the
     * budget holds fewer rings than qualify, the most recently used get them, and the others walk
     * and earn a ring as evicted sets do (after {@value FeatureSetCache#READMIT_AFTER_WALKS} walks),
     * never on their first lookup. No ring is built only to be evicted, the rings are filtered out
     * of the full ring in one pass over its points, and {@link #plannedSets()} of this object then
     * lists the sets in the order given.
     */
    public void prepare(Collection<Set<String>> sets) {
        List<long[]> keys = new ArrayList<>(sets.size());
        for (Set<String> s : sets) {
            FeatureIndex.requireSet(s);
            if (s.isEmpty()) {
                continue;
            }
            if (features.singleWord()) {
                long mask = features.resolveSingle(s);
                if (mask != FeatureIndex.UNKNOWN) {
                    keys.add(new long[] {mask});
                }
            } else {
                long[] mask = features.resolve(s);
                if (mask != null) {
                    keys.add(mask);
                }
            }
        }
        cache.prepare(keys);
    }

    /**
     * Bytes retained: the full ring's point storage, the node feature masks, each planned set's
     * qualifying-node bitset and every materialised ring with its node map; arrays counted exactly
     * (16-byte headers, 8-byte alignment). Node objects are not included.
     */
    public long retainedBytes() {
        long total = ring.retainedBytes() + features.retainedBytes();
        for (FeaturePlan<T> p : cache.plans()) {
            total += p.planBytes() + p.materialisedBytes();
        }
        return total;
    }

    /** Bytes of the currently materialised rings; never above {@link #memoryBudgetBytes()}. */
    public long materialisedBytes() {
        return cache.materialisedBytes();
    }

    /** The budget for materialised rings. */
    public long memoryBudgetBytes() {
        return cache.budget();
    }

    /** Whether {@code required} is currently answered from a dedicated ring (for tests and metrics). */
    boolean isMaterialised(Set<String> required) {
        FeaturePlan<T> p = peek(required);
        return p != null && p.kind == FeaturePlan.Kind.RING;
    }

    /** Number of feature sets currently planned (for tests: bounded by {@link FeatureSetCache#MAX_PLANS}). */
    int planCount() {
        return cache.planCount();
    }

    /** Number of sets currently answered from a dedicated ring. */
    public int materialisedCount() {
        int n = 0;
        for (FeaturePlan<T> p : cache.plans()) {
            if (p.kind == FeaturePlan.Kind.RING) {
                n++;
            }
        }
        return n;
    }

    private Node<T> nodeOrNull(int index) {
        return index < 0 ? null : ring.node(index);
    }

    /** The plan of {@code required}, planning it on first use; marks it used. */
    private FeaturePlan<T> plan(Set<String> required) {
        FeatureIndex.requireSet(required);
        if (required.isEmpty()) {
            return fullRing;
        }
        if (features.singleWord()) {
            long mask = features.resolveSingle(required);
            return mask == FeatureIndex.UNKNOWN ? noNode : cache.plan(mask);
        }
        long[] mask = features.resolve(required);
        return mask == null ? noNode : cache.plan(mask);
    }

    /** The existing plan of {@code required} without planning or touching it; null when none. */
    private FeaturePlan<T> peek(Set<String> required) {
        if (required.isEmpty()) {
            return fullRing;
        }
        long[] mask = features.resolve(required);
        return mask == null ? noNode : cache.peek(mask);
    }

    static int countBits(long[] bits) {
        int c = 0;
        for (long w : bits) {
            c += Long.bitCount(w);
        }
        return c;
    }
}
