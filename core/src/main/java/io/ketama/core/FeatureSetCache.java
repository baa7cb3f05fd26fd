package io.ketama.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The cache policy of {@link FeatureRings}: which feature sets have a {@link FeaturePlan}, and
 * which of them are answered from a materialised dedicated ring, within a memory budget.
 *
 * <ul>
 *   <li><b>Admission.</b> A set is worth a dedicated ring when its nodes generate fewer than
 *       1 / {@value #MATERIALISE_BELOW_ONE_IN} of the ring's points: a filtered walk would
 *       average more than that many points per lookup and meet long gaps. It is built on the
 *       set's first lookup.</li>
 *   <li><b>Budget.</b> Materialised rings (point storage plus node map) never exceed the budget
 *       together; a ring that alone exceeds it is never built, its set always walks.</li>
 *   <li><b>Eviction.</b> To make room, the rings of the least recently used sets go first. An
 *       evicted set walks, and earns another materialisation after {@code readmitAfterWalks}
 *       walks, so a working set larger than the budget cannot make every lookup build a ring.</li>
 *   <li><b>Plans.</b> At most {@value #MAX_PLANS} plans are kept; past that, the least recently
 *       used walked plans are dropped (and planned again when used). Once any plan was dropped, a
 *       set planned anew may be one whose ring was evicted, so it too earns its ring by walking
 *       {@code readmitAfterWalks} times instead of on its first lookup.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Finding a plan and marking it used take no lock and allocate nothing: the plans live in an
 * immutable {@link FeaturePlanTable} published through a volatile field, and recency is a racy
 * clock (a lost update only makes a hint a little stale). Planning a new set and materialising
 * take one lock; a materialisation earned by walking is done by whichever lookup finds the lock
 * free, the others keep walking meanwhile.
 */
final class FeatureSetCache<T> {

    /** A set is materialised when its nodes generate fewer than 1 / this of the ring's points. */
    static final int MATERIALISE_BELOW_ONE_IN = 4;
    /** Walks an evicted set makes before it may be materialised again. */
    static final int READMIT_AFTER_WALKS = 4096;
    /** Plans kept; past this the least recently used walked ones are dropped (and re-planned when used). */
    static final int MAX_PLANS = 256;

    private final KetamaRing<T> ring;
    private final FeatureIndex features;
    private final long budget;
    private final int readmitAfterWalks;
    private final ReentrantLock lock = new ReentrantLock();
    /** Recency clock, written racily by lookups; in its own object so the writes stay off this object's cache line. */
    private final long[] clock = new long[1];
    private volatile FeaturePlanTable<T> plans = FeaturePlanTable.empty();
    /** Whether plans were ever dropped (under the lock): a new plan may then be one whose ring was evicted. */
    private boolean plansDropped;
    private volatile long materialisedBytes;

    FeatureSetCache(KetamaRing<T> ring, FeatureIndex features, long budget, int readmitAfterWalks) {
        this.ring = ring;
        this.features = features;
        this.budget = budget;
        this.readmitAfterWalks = readmitAfterWalks;
    }

    /** The plan of a single-word mask, planning it on first use; marks it used. */
    FeaturePlan<T> plan(long mask) {
        FeaturePlan<T> p = plans.find(mask);
        return touch(p != null ? p : create(new long[] {mask}));
    }

    /** The plan of a multi-word mask, planning it on first use; marks it used. */
    FeaturePlan<T> plan(long[] mask) {
        FeaturePlan<T> p = plans.find(mask);
        return touch(p != null ? p : create(mask));
    }

    /** The existing plan of {@code mask} without planning or touching it; null when none. */
    FeaturePlan<T> peek(long[] mask) {
        return plans.find(mask);
    }

    /** Counts one walk of {@code p}; a set whose credit runs out is materialised again (if the lock is free). */
    void walked(FeaturePlan<T> p) {
        if (p.admissible && --p.credit < 0) {
            tryMaterialise(p);
        }
    }

    long budget() {
        return budget;
    }

    /** Bytes of the currently materialised rings; never above {@link #budget()}. */
    long materialisedBytes() {
        return materialisedBytes;
    }

    /** Every plan (a new list). */
    List<FeaturePlan<T>> plans() {
        return plans.plans();
    }

    int planCount() {
        return plans.size();
    }

    private FeaturePlan<T> touch(FeaturePlan<T> p) {
        long now = clock[0];
        if (p.stamp != now) {
            // written only when the set differs from the last one used: repeated lookups of one set write nothing
            p.stamp = ++now;
            clock[0] = now;
        }
        return p;
    }

    private FeaturePlan<T> create(long[] key) {
        lock.lock();
        try {
            FeaturePlan<T> existing = plans.find(key);
            if (existing != null) {
                return existing;
            }
            FeaturePlan<T> p = planLocked(key);
            return p.kind == FeaturePlan.Kind.WALK && p.admissible && p.credit == 0 ? materialiseLocked(p) : p;
        } finally {
            lock.unlock();
        }
    }

    /** Plans {@code key} (not planned yet) and publishes the plan, without materialising it. */
    private FeaturePlan<T> planLocked(long[] key) {
        List<Node<T>> nodes = ring.nodes();
        long[] qualifying = new long[(nodes.size() + 63) >>> 6];
        int count = 0;
        long qualifyingPoints = 0;
        for (int n = 0; n < nodes.size(); n++) {
            if (features.hasAll(n, key)) {
                qualifying[n >>> 6] |= 1L << n;
                count++;
                qualifyingPoints += ring.generatedPointsOf(n);
            }
        }
        FeaturePlan<T> p;
        if (count == 0 || qualifyingPoints == 0) {
            // no points: a memcached style can leave a light server none, and its dedicated ring would be empty
            p = FeaturePlan.none(key);
        } else if (count == nodes.size()) {
            p = FeaturePlan.full(key);
        } else {
            boolean small = qualifyingPoints * MATERIALISE_BELOW_ONE_IN < ring.generatedPointCount();
            // once plans were dropped, this set may be one evicted before: it earns its ring as an
            // evicted set does, or a rotation of more sets than MAX_PLANS would build a ring per lookup
            int credit = plansDropped ? readmitAfterWalks : 0;
            p = FeaturePlan.walk(key, qualifying, qualifyingPoints, small && budget > 0, credit);
        }
        p.stamp = ++clock[0];
        publish(plans.with(p));
        return p;
    }

    /**
     * Plans every key of {@code keys}, given most recently used first, and materialises the rings
     * of those that qualify: a rebuild's preparation of the sets in use on the previous ring.
     * <ul>
     *   <li>Recency is kept: the keys are stamped least recently used first, so the ring's own
     *       {@link FeatureRings#plannedSets()} lists them in the order given.</li>
     *   <li>No ring is built to be evicted: the most recently used sets that qualify get rings
     *       while an upper bound of their bytes ({@link #boundBytes}) fits the budget beside the
     *       rings already held; a set that does not fit walks and earns its ring by
     *       {@code readmitAfterWalks} walks, as an evicted set does, so that no lookup right after
     *       the swap builds it.</li>
     *   <li>The chosen rings are filtered out of the ring in one pass over its points.</li>
     * </ul>
     */
    void prepare(List<long[]> keys) {
        lock.lock();
        try {
            List<long[]> lruFirst = new ArrayList<>(keys);
            Collections.reverse(lruFirst);
            for (long[] key : lruFirst) {
                FeaturePlan<T> p = plans.find(key);
                touch(p != null ? p : planLocked(key));
            }
            List<FeaturePlan<T>> chosen = new ArrayList<>();
            long used = materialisedBytes;
            for (long[] key : keys) {
                FeaturePlan<T> p = plans.find(key);
                if (p == null || p.kind != FeaturePlan.Kind.WALK || !p.admissible || p.credit > 0 || chosen.contains(p)) {
                    continue;
                }
                long bound = boundBytes(p);
                if (used + bound <= budget) {
                    chosen.add(p);
                    used += bound;
                } else {
                    publish(plans.with(p.evicted(readmitAfterWalks)));
                }
            }
            materialiseAllLocked(chosen);
        } finally {
            lock.unlock();
        }
    }

    /**
     * At least the bytes {@code p}'s ring will retain: a point table of as many points as its nodes
     * generate (at most the ring's), a collision table no larger than the ring's (its collisions
     * are some of the ring's, with some of their losers), and the node map.
     */
    private long boundBytes(FeaturePlan<T> p) {
        int nodes = FeatureRings.countBits(p.qualifying);
        int points = (int) Math.min(ring.pointCount(), p.qualifyingPoints);
        return PointTable.retainedBytesFor(points, nodes) + ring.collisions().retainedBytes() + PointTable.arrayBytes(nodes, 4);
    }

    /** Builds the rings of {@code chosen} (walking plans that fit the budget together) in one pass and publishes them. */
    private void materialiseAllLocked(List<FeaturePlan<T>> chosen) {
        if (chosen.isEmpty()) {
            return;
        }
        int[][] toFull = new int[chosen.size()][];
        for (int i = 0; i < toFull.length; i++) {
            toFull[i] = qualifyingNodes(chosen.get(i));
        }
        KetamaRing<T>[] rings = ring.filter(toFull);
        FeaturePlanTable<T> table = plans;
        long used = materialisedBytes;
        for (int i = 0; i < rings.length; i++) {
            FeaturePlan<T> candidate = chosen.get(i).materialised(rings[i], toFull[i]);
            used += candidate.materialisedBytes();
            table = table.with(candidate);
        }
        materialisedBytes = used;
        plans = table;
    }

    private static int[] qualifyingNodes(FeaturePlan<?> p) {
        int[] out = new int[FeatureRings.countBits(p.qualifying)];
        int i = 0;
        for (int w = 0; w < p.qualifying.length; w++) {
            for (long bits = p.qualifying[w]; bits != 0; bits &= bits - 1) {
                out[i++] = (w << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        return out;
    }

    private void tryMaterialise(FeaturePlan<T> p) {
        if (!lock.tryLock()) {
            return;
        }
        try {
            FeaturePlan<T> current = plans.find(p.key);
            if (current != null && current.kind == FeaturePlan.Kind.WALK && current.admissible) {
                materialiseLocked(current);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Builds the dedicated ring of walking plan {@code p}, evicting least recently used rings to fit. */
    private FeaturePlan<T> materialiseLocked(FeaturePlan<T> p) {
        int[] toFull = qualifyingNodes(p);
        KetamaRing<T> dedicated = ring.filter(new int[][] {toFull})[0];
        FeaturePlan<T> candidate = p.materialised(dedicated, toFull);
        long bytes = candidate.materialisedBytes();
        if (bytes > budget) {
            FeaturePlan<T> walk = p.walkOnly();
            publish(plans.with(walk));
            return walk;
        }
        List<FeaturePlan<T>> rings = new ArrayList<>();
        for (FeaturePlan<T> q : plans.plans()) {
            if (q.kind == FeaturePlan.Kind.RING) {
                rings.add(q);
            }
        }
        rings.sort(Comparator.comparingLong(q -> q.stamp));
        long used = materialisedBytes;
        FeaturePlanTable<T> table = plans;
        for (FeaturePlan<T> victim : rings) {
            if (used + bytes <= budget) {
                break;
            }
            table = table.with(victim.evicted(readmitAfterWalks));
            used -= victim.materialisedBytes();
        }
        table = table.with(candidate);
        materialisedBytes = used + bytes;
        plans = table;
        return candidate;
    }

    /** Publishes {@code table}, dropping least recently used walked plans beyond {@link #MAX_PLANS}. */
    private void publish(FeaturePlanTable<T> table) {
        if (table.size() > MAX_PLANS) {
            List<FeaturePlan<T>> all = table.plans();
            List<FeaturePlan<T>> walked = new ArrayList<>();
            for (FeaturePlan<T> p : all) {
                if (p.kind != FeaturePlan.Kind.RING) {
                    walked.add(p);
                }
            }
            walked.sort(Comparator.comparingLong(p -> p.stamp));
            all.removeAll(walked.subList(0, Math.min(walked.size(), table.size() - MAX_PLANS / 2)));
            table = FeaturePlanTable.of(all);
            plansDropped = true;
        }
        plans = table;
    }
}
