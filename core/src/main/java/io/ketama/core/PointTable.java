package io.ketama.core;

/**
 * The sorted points of a ring in a compact, version-agnostic layout: no object per point.
 *
 * <h2>Layout</h2>
 * The top {@code k} bits of a point's 32-bit hash select one of {@code 2^k} buckets; an
 * {@code int[2^k + 1]} index holds where each bucket starts. Because the index already says which
 * bucket a point is in, a point stores only the low {@code 32 − k} bits of its hash (the
 * remainder), above its node number in {@code b = ⌈log2 nodes⌉} bits, in one {@code int}. The
 * {@code s = k − b} bits left at the top hold the low bits of the point's bucket number:
 * {@code field = bucket << (32 − s) | remainder << b | node}. {@code k} is chosen so a bucket holds
 * 9 to 18 points on average (the index costs 0.22–0.44 bytes per point), and {@code k > b}.
 *
 * <p>Bytes per point, index included: 100 nodes × 160 points (16,000 points, k = 10): 4.27;
 * 100 × 16 (1,600, k = 8): 4.69; 2,048 × 160 (327,680, k = 15): 4.40; 2,048 × 1,600 (3.3 M,
 * k = 18): 4.33. pingora-ketama stores 6 bytes (v2) or 8 (v1), and its 16-bit node number aliases
 * node 65,536 to node 0; here the node field widens as needed.
 *
 * <h2>Lookup</h2>
 * Points are CRC-32 values, uniform over their bucket, so where a hash falls inside its bucket is
 * predictable: {@code start + remainder × bucketSize / 2^(32−k)} misses the answer by
 * {@code √bucketSize / 2} ≈ 1.8 points at most, on average. A lookup reads the index (two adjacent
 * ints), computes that estimate, and counts without a branch how many of the 8 fields from 4
 * before it are below the key's field: 8 independent loads from one or two adjacent cache lines,
 * issued together, so a lookup in a ring far larger than the caches waits for about one miss
 * besides the index. The count is the answer's offset; when the answer lies outside the window
 * (about 1 lookup in 100) a branch-free binary search of the bucket decides. "Branch-free" is by
 * arithmetic on sign bits ({@code (field − target) >>> 31}), not by trusting the JIT to turn a
 * ternary into a conditional move, so it holds whatever C2's branch profile says.
 *
 * <p>Fields of the next buckets may fall inside a window. Comparing whole fields as the sign of a
 * 32-bit difference orders them after the key as long as the window reaches fewer than
 * {@code 2^(s−1)} buckets ahead (the bucket bits at the top make the difference positive): the
 * build checks this for every bucket ("modular" windows, the case for large rings: s = 4 to 7).
 * Where it does not hold (s < 2, small rings with many nodes, or crowded hashes) each comparison is
 * masked by the bucket end, two more instructions per field.
 *
 * <h2>Why this layout</h2>
 * Measured on the benchmark rings (BENCHMARKS.md has the figures): on these machines a lookup's
 * cost follows its instruction count, because the out-of-order window then holds fewer lookups
 * and overlaps fewer cache misses. The previous layout, bit-packed fields of {@code 32 − k + b}
 * bits (3.4–3.9 bytes per point) searched by a branch-free binary search of the bucket, spent ~5
 * dependent multi-instruction field extractions per lookup and was 2–3× slower; a binary search of
 * whole-int buckets is still a chain of dependent loads; an Eytzinger order only speeds up the top
 * levels of a search, which the index already replaces; a branchy scan from the estimate
 * mispredicts about once per lookup. Whole ints cost ~0.6 bytes per point more than bit packing
 * and stay under 4.5 bytes per point from 100,000 points up.
 *
 * <p>Immutable after construction, so safely shared by any number of threads once published
 * through a final field.
 */
final class PointTable {

    /** Fields compared per lookup around the interpolated position. */
    static final int WINDOW = 8;
    /** Average bucket size lower bound: 4 bytes of index per 9 points ≤ 0.45 bytes per point. */
    private static final int MIN_BUCKET = 9;
    /** Node numbers take at most 24 bits (16,777,216 nodes), so {@code k ≤ 25}. */
    static final int MAX_NODE_BITS = 24;

    private final int count;
    private final int shift;
    private final int remainderMask;
    private final int nodeBits;
    private final int nodeMask;
    /** {@code s = k − b}: how many low bits of its bucket number sit at the top of each field. */
    private final int bucketBits;
    /** Whether a window may be compared without masking the fields past its bucket (see class doc). */
    private final boolean modular;
    private final int[] bucketStart;
    /** {@code count} fields, then {@link #WINDOW} padding fields so a window never reads past the end. */
    private final int[] fields;

    /**
     * @param hashes    point hashes, sorted as unsigned ints; only the first {@code count} are read
     * @param nodes     each point's node number, in {@code [0, nodeCount)}
     * @param count     number of points
     * @param nodeCount number of nodes the node numbers refer to, at most 2^{@value #MAX_NODE_BITS}
     */
    PointTable(int[] hashes, int[] nodes, int count, int nodeCount) {
        this(pack(hashes, nodes, count), count, nodeCount);
    }

    /**
     * @param points    {@code hash << 32 | node} of each point, sorted by hash as an unsigned int
     *                  (what a ring build has at hand after its sort: no separate arrays of
     *                  hashes and nodes are made); only the first {@code count} are read
     * @param count     number of points
     * @param nodeCount number of nodes the node numbers refer to, at most 2^{@value #MAX_NODE_BITS}
     */
    PointTable(long[] points, int count, int nodeCount) {
        this.count = count;
        this.nodeBits = nodeBitsFor(nodeCount);
        if (nodeBits > MAX_NODE_BITS) {
            throw new IllegalArgumentException("a ring holds at most " + (1 << MAX_NODE_BITS) + " nodes, got " + nodeCount);
        }
        int indexBits = indexBitsFor(count, nodeBits);
        this.shift = 32 - indexBits;
        this.remainderMask = (int) ((1L << shift) - 1);
        this.nodeMask = (1 << nodeBits) - 1;
        this.bucketBits = indexBits - nodeBits;
        this.bucketStart = new int[(1 << indexBits) + 1];
        // the points are sorted: each bucket starts at the first point of its bucket or a later one
        // (a sweep, not a count per point, whose increments of one counter would wait on each other)
        int bucketShift = 32 + shift;
        int next = 0;
        for (int i = 0; i < count; i++) {
            int b = (int) (points[i] >>> bucketShift);
            while (next <= b) {
                bucketStart[next++] = i;
            }
        }
        while (next < bucketStart.length) {
            bucketStart[next++] = count;
        }
        this.fields = new int[count + WINDOW];
        for (int i = 0; i < count; i++) {
            long p = points[i];
            int hash = (int) (p >>> 32);
            fields[i] = field(hash >>> shift, hash & remainderMask, (int) p);
        }
        int buckets = 1 << indexBits;
        for (int i = count; i < fields.length; i++) {
            fields[i] = field(buckets, 0, 0); // as if in the bucket after the last
        }
        this.modular = windowsStayNear(points, buckets);
    }

    private static long[] pack(int[] hashes, int[] nodes, int count) {
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = ((long) hashes[i] << 32) | nodes[i];
        }
        return out;
    }

    private int field(int bucket, int remainder, int node) {
        return (bucket << (32 - bucketBits)) | (remainder << nodeBits) | node;
    }

    /**
     * Whether every window reaches at most {@code 2^(s−1) − 1} buckets past its own, so that the
     * sign of a 32-bit difference orders fields of later buckets after the target. A window ends at
     * most {@code WINDOW − 1} fields past its bucket's end.
     */
    private boolean windowsStayNear(long[] points, int buckets) {
        if (bucketBits < 2) {
            return false;
        }
        int reach = (1 << (bucketBits - 1)) - 1;
        for (int b = 0; b < buckets; b++) {
            int last = bucketStart[b + 1] + WINDOW - 1;
            int lastBucket = last >= count ? buckets : (int) (points[last] >>> (32 + shift));
            if (lastBucket - b > reach) {
                return false;
            }
        }
        return true;
    }

    /** {@code k}: about 9–18 points per bucket, and more index bits than node bits. */
    static int indexBitsFor(int count, int nodeBits) {
        int k = 31 - Integer.numberOfLeadingZeros(Math.max(1, count / MIN_BUCKET));
        return Math.max(k, nodeBits + 1);
    }

    int count() {
        return count;
    }

    /**
     * The position of the first point whose hash is {@code >=} {@code hash} (unsigned), wrapping
     * to 0 past the last point; -1 when there are no points. Allocates nothing.
     */
    int position(int hash) {
        if (count == 0) {
            return -1;
        }
        int bucket = hash >>> shift;
        int start = bucketStart[bucket];
        int end = bucketStart[bucket + 1];
        int remainder = hash & remainderMask;
        int target = field(bucket, remainder, 0);
        int estimate = start + (int) (((long) remainder * (end - start)) >>> shift);
        int lo = Math.max(start, estimate - WINDOW / 2);
        int below = modular ? belowModular(lo, target) : belowMasked(lo, end, target);
        int pos = lo + below;
        // Outside the window when nothing below it and it does not start the bucket, or all 8
        // below and the bucket goes on: about 1 lookup in 100. Sign bits, one branch.
        if ((((pos - lo - 1) & (start - lo)) | ((lo + WINDOW - 1 - pos) & (lo + WINDOW - end))) < 0) {
            pos = lowerBound(start, end, target);
        }
        return pos == count ? 0 : pos;
    }

    /** Fields below {@code target} among the 8 from {@code lo}: fields of later buckets compare above by construction. */
    private int belowModular(int lo, int target) {
        int[] f = fields;
        return ((f[lo] - target) >>> 31) + ((f[lo + 1] - target) >>> 31)
                + ((f[lo + 2] - target) >>> 31) + ((f[lo + 3] - target) >>> 31)
                + ((f[lo + 4] - target) >>> 31) + ((f[lo + 5] - target) >>> 31)
                + ((f[lo + 6] - target) >>> 31) + ((f[lo + 7] - target) >>> 31);
    }

    /** Fields below {@code target} among the 8 from {@code lo} that lie before {@code end}. */
    private int belowMasked(int lo, int end, int target) {
        int[] f = fields;
        return (((f[lo] - target) & (lo - end)) >>> 31)
                + (((f[lo + 1] - target) & (lo + 1 - end)) >>> 31)
                + (((f[lo + 2] - target) & (lo + 2 - end)) >>> 31)
                + (((f[lo + 3] - target) & (lo + 3 - end)) >>> 31)
                + (((f[lo + 4] - target) & (lo + 4 - end)) >>> 31)
                + (((f[lo + 5] - target) & (lo + 5 - end)) >>> 31)
                + (((f[lo + 6] - target) & (lo + 6 - end)) >>> 31)
                + (((f[lo + 7] - target) & (lo + 7 - end)) >>> 31);
    }

    /** First index in {@code [from, to)} whose field is {@code >= target}, else {@code to}; branch-free steps. */
    private int lowerBound(int from, int to, int target) {
        int[] f = fields;
        int base = from;
        int n = to - from;
        while (n > 1) {
            int half = n >>> 1;
            base += ((f[base + half] - target) >> 31) & half;
            n -= half;
        }
        return base + (((f[base] - target) >>> 31) & n);
    }

    /** Node number of the point at {@code position}. */
    int nodeAt(int position) {
        return fields[position] & nodeMask;
    }

    /** Full 32-bit hash of the point at {@code position} (a search of the index: for analysis, not lookups). */
    int hashAt(int position) {
        return (bucketOf(position) << shift) | remainderAt(position);
    }

    /** All hashes in ring order, reconstructed sequentially. */
    int[] hashes() {
        int[] out = new int[count];
        for (int b = 0, buckets = bucketCount(); b < buckets; b++) {
            for (int i = bucketStart[b], end = bucketStart[b + 1]; i < end; i++) {
                out[i] = hashIn(b, i);
            }
        }
        return out;
    }

    /**
     * Buckets of the index: positions {@code [bucketEnd(b − 1), bucketEnd(b))} hold bucket
     * {@code b}'s points, in ring order. With {@link #hashIn} a pass over every point in ring order
     * needs neither a copy of the hashes nor a search of the index per point.
     */
    int bucketCount() {
        return bucketStart.length - 1;
    }

    /** The position after bucket {@code b}'s last point (the start of bucket {@code b + 1}). */
    int bucketEnd(int b) {
        return bucketStart[b + 1];
    }

    /**
     * Adds to {@code owned[node]} the key hashes each point owns ({@link HashSpace#arc}: from its
     * predecessor, exclusive, to itself; the first point also owns the wrap), in one pass in ring
     * order without copying the hashes.
     */
    void addArcs(long[] owned) {
        if (count == 0) {
            return;
        }
        int previous = hashAt(count - 1);
        for (int b = 0, buckets = bucketCount(); b < buckets; b++) {
            for (int i = bucketStart[b], end = bucketStart[b + 1]; i < end; i++) {
                int h = hashIn(b, i);
                owned[nodeAt(i)] += HashSpace.arc(previous, h);
                previous = h;
            }
        }
    }

    /**
     * The stored field of the point at {@code position}; with {@link #nodeOf}, {@link #bucketLowOf}
     * and {@link #hashOf} a sequential pass decodes every point from its field alone, without a
     * read of the index per point (see {@link RingFilter}).
     */
    int fieldAt(int position) {
        return fields[position];
    }

    int nodeOf(int field) {
        return field & nodeMask;
    }

    /** The low {@link #bucketLowBits()} bits of the bucket number of a point, from its field. */
    int bucketLowOf(int field) {
        return field >>> (32 - bucketBits);
    }

    /** {@code s}: bits of its bucket number a field holds (at least 1). */
    int bucketLowBits() {
        return bucketBits;
    }

    /** Full hash of a point of bucket {@code bucket} from its field. */
    int hashOf(int bucket, int field) {
        return (bucket << shift) | ((field >>> nodeBits) & remainderMask);
    }

    /** Whether the point at {@code position} lies in bucket {@code bucket} (any int). */
    boolean inBucket(int position, int bucket) {
        return bucket >= 0 && bucket < bucketStart.length - 1 && bucketStart[bucket] <= position && position < bucketStart[bucket + 1];
    }

    /** The bucket of the point at {@code position}: a search of the index. */
    int bucketOf(int position) {
        int lo = 0;
        int hi = bucketStart.length - 2;
        // last bucket whose start <= position
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (bucketStart[mid] <= position) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Full hash of the point at {@code position}, which lies in bucket {@code bucket}. */
    int hashIn(int bucket, int position) {
        return (bucket << shift) | remainderAt(position);
    }

    private int remainderAt(int position) {
        return (fields[position] >>> nodeBits) & remainderMask;
    }

    /** Bytes of the two arrays: 16-byte array headers plus their elements. */
    long retainedBytes() {
        return arrayBytes(bucketStart.length, 4) + arrayBytes(fields.length, 4);
    }

    /** {@link #retainedBytes()} of a table of {@code count} points of {@code nodeCount} nodes; grows with {@code count}. */
    static long retainedBytesFor(int count, int nodeCount) {
        int indexBits = indexBitsFor(count, nodeBitsFor(nodeCount));
        return arrayBytes((1L << indexBits) + 1, 4) + arrayBytes((long) count + WINDOW, 4);
    }

    static int nodeBitsFor(int nodeCount) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, nodeCount) - 1));
    }

    static long arrayBytes(long length, int elementSize) {
        return (16 + length * elementSize + 7) & ~7L;
    }

    int indexBits() {
        return 32 - shift;
    }

    /** Whether lookups compare windows without masking (see the class doc). */
    boolean modular() {
        return modular;
    }
}
