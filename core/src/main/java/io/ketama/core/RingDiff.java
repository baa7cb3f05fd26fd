package io.ketama.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The exact difference in ownership between two rings over the whole 32-bit hash space: how many
 * key hashes change owner, and what each owner gains and loses. This prices a v1→v2 step or a
 * membership change (in cache misses) before it is made.
 *
 * <h2>How it is exact</h2>
 * Each ring's owner function is constant on the arcs between its consecutive points. On the union
 * of both rings' point hashes {@code b_0 < … < b_m} both owners are constant on every interval
 * {@code (b_{j−1}, b_j]} and on the wrap {@code (b_m, 2^32) ∪ [0, b_0]}, where they are the owners
 * of the interval's right end. Walking the two sorted point lists once therefore counts every one
 * of the 2^32 hashes exactly once, in time linear in the points.
 *
 * <h2>Rings that hash keys differently</h2>
 * A v1 or v2 ring hashes keys with CRC-32, a memcached-style ring with MD5: one key lands at
 * unrelated positions on the two circles, so comparing owners hash by hash would mean nothing.
 * Then the two positions of a key are modelled as independent and uniform (what a good hash
 * gives), and each owner's share is exact: a key stays with owner {@code o} with probability
 * {@code a(o) · b(o)}, where {@code a(o)} and {@code b(o)} are {@code o}'s exact shares of the two
 * circles. So {@link #movedFraction()} is {@code 1 − Σ a(o)·b(o)}, what {@code o} loses is
 * {@code a(o) − a(o)·b(o)} and gains {@code b(o) − a(o)·b(o)}, all in units of 2^32 hashes
 * (rounded down): the expected share over keys, not a count over hashes
 * ({@link #keyHashesDiffer()} says which).
 *
 * <p>Owners are compared by payload ({@link Objects#equals}), so the same server in two rings built
 * from different {@link Node} objects (or with another weight or version) is the same owner, and
 * nodes with equal payloads count as one owner. An empty ring owns nothing: between an empty
 * ring and a non-empty one every hash moves, and only the non-empty ring's owners appear in
 * {@link #perNode()} (the other side is "none").
 *
 * @param <T> payload type
 */
public final class RingDiff<T> {

    private final long moved;
    private final Map<T, NodeChange> perNode;
    private final boolean keyHashesDiffer;

    private RingDiff(long moved, Map<T, NodeChange> perNode, boolean keyHashesDiffer) {
        this.moved = moved;
        this.perNode = perNode;
        this.keyHashesDiffer = keyHashesDiffer;
    }

    /** Compares the owners of every hash in {@code before} against {@code after}. */
    public static <T> RingDiff<T> compare(KetamaRing<T> before, KetamaRing<T> after) {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        Map<T, long[]> tally = new LinkedHashMap<>();
        for (Node<T> n : before.nodes()) {
            tally.putIfAbsent(n.payload(), new long[2]);
        }
        for (Node<T> n : after.nodes()) {
            tally.putIfAbsent(n.payload(), new long[2]);
        }
        long moved = 0;
        boolean differ = !before.keyHash().equals(after.keyHash());
        if (differ && !before.isEmpty() && !after.isEmpty()) {
            moved = independent(before, after, tally);
        } else if (before.isEmpty() != after.isEmpty()) {
            KetamaRing<T> only = before.isEmpty() ? after : before;
            int side = before.isEmpty() ? 0 : 1; // gained into an empty before, lost into an empty after
            RingAnalysis<T> shares = RingAnalysis.of(only);
            for (NodeShare<T> s : shares.shares()) {
                tally.get(s.node().payload())[side] += s.ownedHashes();
            }
            moved = HashSpace.SIZE;
        } else if (!before.isEmpty()) {
            moved = walk(before, after, tally);
        }
        Map<T, NodeChange> out = new LinkedHashMap<>();
        tally.forEach((payload, gl) -> out.put(payload, new NodeChange(gl[0], gl[1])));
        return new RingDiff<>(moved, Collections.unmodifiableMap(out), differ);
    }

    /** Expected moves when a key's positions on the two rings are independent (see the class doc). */
    private static <T> long independent(KetamaRing<T> a, KetamaRing<T> b, Map<T, long[]> tally) {
        Map<T, long[]> owned = new LinkedHashMap<>(); // payload -> {hashes owned in a, in b}
        for (NodeShare<T> s : RingAnalysis.of(a).shares()) {
            owned.computeIfAbsent(s.node().payload(), k -> new long[2])[0] += s.ownedHashes();
        }
        for (NodeShare<T> s : RingAnalysis.of(b).shares()) {
            owned.computeIfAbsent(s.node().payload(), k -> new long[2])[1] += s.ownedHashes();
        }
        long stay = 0;
        for (Map.Entry<T, long[]> e : owned.entrySet()) {
            long[] o = e.getValue();
            long both = scaledProduct(o[0], o[1]);
            stay += both;
            long[] gl = tally.get(e.getKey());
            gl[0] += o[1] - both;
            gl[1] += o[0] - both;
        }
        return HashSpace.SIZE - stay;
    }

    /** {@code ⌊x · y / 2^32⌋} for {@code 0 <= x, y <= 2^32} without overflow. */
    private static long scaledProduct(long x, long y) {
        long high = Math.multiplyHigh(x, y);
        long low = x * y;
        return (high << 32) | (low >>> 32);
    }

    /** Merges both sorted point lists; tallies moved hashes into {@code tally} as {gained, lost}. */
    private static <T> long walk(KetamaRing<T> a, KetamaRing<T> b, Map<T, long[]> tally) {
        int[] ha = a.points().hashes();
        int[] hb = b.points().hashes();
        // Start from the wrap interval, whose right end is the smallest breakpoint and whose
        // owners are both rings' first points.
        int ia = 0;
        int ib = 0;
        int last = Integer.compareUnsigned(ha[ha.length - 1], hb[hb.length - 1]) >= 0
                ? ha[ha.length - 1] : hb[hb.length - 1];
        int previous = last;
        long moved = 0;
        while (ia < ha.length || ib < hb.length) {
            // ia / ib: first point of each ring at or after the next breakpoint (wrapping to 0)
            int end;
            if (ib >= hb.length || (ia < ha.length && Integer.compareUnsigned(ha[ia], hb[ib]) <= 0)) {
                end = ha[ia];
            } else {
                end = hb[ib];
            }
            T ownerA = a.node(a.points().nodeIndexAt(ia < ha.length ? ia : 0)).payload();
            T ownerB = b.node(b.points().nodeIndexAt(ib < hb.length ? ib : 0)).payload();
            if (!Objects.equals(ownerA, ownerB)) {
                long length = HashSpace.arc(previous, end);
                moved += length;
                tally.get(ownerA)[1] += length;
                tally.get(ownerB)[0] += length;
            }
            if (ia < ha.length && ha[ia] == end) {
                ia++;
            }
            if (ib < hb.length && hb[ib] == end) {
                ib++;
            }
            previous = end;
        }
        return moved;
    }

    /**
     * Whether the rings hash keys differently (CRC-32 and MD5), so that the figures are the
     * expected share over keys rather than a count over hashes (see the class doc).
     */
    public boolean keyHashesDiffer() {
        return keyHashesDiffer;
    }

    /** Key hashes whose owner differs, out of 2^32 (expected, when {@link #keyHashesDiffer()}). */
    public long movedHashes() {
        return moved;
    }

    /** {@link #movedHashes()} / 2^32: the share of keys that would change owner (and miss cache). */
    public double movedFraction() {
        return moved / (double) HashSpace.SIZE;
    }

    /**
     * Every owner of either ring (first ring's node order, then the second's new owners) with the
     * hashes it gains and loses; the gains and the losses each add up to {@link #movedHashes()}
     * when both rings have points.
     */
    public Map<T, NodeChange> perNode() {
        return perNode;
    }
}
