package io.ketama.core;

/**
 * The sorted points of a ring in a compact, version-agnostic layout: no object per point.
 *
 * <h2>Layout</h2>
 * The top {@code k} bits of a point's 32-bit hash select one of {@code 2^k} buckets; an
 * {@code int[2^k + 1]} index holds where each bucket starts. Because the index already says which
 * bucket a point is in, a point stores only the low {@code 32 − k} bits of its hash, followed by
 * its node number in {@code b = ⌈log2 nodes⌉} bits (at least 1), as one {@code (32 − k + b)}-bit
 * field bit-packed into a {@code long[]}. {@code k} is chosen so a bucket holds 16 to 32 points on
 * average, so the index costs 4/16 to 4/32 bytes per point.
 *
 * <p>Examples (bytes per point, index included): 100 nodes × 16 points (1,600 points, k = 6,
 * 26 + 7 bits) ≈ 4.3; 100 nodes × 160 (≈16,000 points, k = 9) ≈ 3.9; 2,048 nodes × 1,600
 * (≈3.3 M points, k = 17, 15 + 11 bits) ≈ 3.4. pingora-ketama stores 6 bytes (v2) or 8 (v1), and
 * its 16-bit node number aliases node 65,536 to node 0; here the node field widens as needed.
 *
 * <h2>Lookup</h2>
 * One read of the index (two adjacent ints, one cache line), then a branch-free binary search of
 * about log2(24) ≈ 5 steps inside a bucket whose fields span one or two cache lines. A plain
 * binary search over 3.3 M points would take 22 dependent steps, most of them cache misses.
 * Comparing whole fields works because the node number sits below the hash bits: a field is
 * {@code >= rem << b} exactly when its hash remainder is {@code >= rem}.
 *
 * <p>Immutable after construction, so safely shared by any number of threads once published
 * through a final field.
 */
final class PointTable {

    private static final int MIN_INDEX_BITS = 1;
    private static final int MAX_INDEX_BITS = 24;

    private final int count;
    private final int shift;
    private final int remainderMask;
    private final int nodeBits;
    private final int nodeMask;
    private final int entryBits;
    private final long entryMask;
    private final int[] bucketStart;
    private final long[] packed;

    /**
     * @param hashes    point hashes, sorted as unsigned ints; only the first {@code count} are read
     * @param nodes     each point's node number, in {@code [0, nodeCount)}
     * @param count     number of points
     * @param nodeCount number of nodes the node numbers refer to
     */
    PointTable(int[] hashes, int[] nodes, int count, int nodeCount) {
        this.count = count;
        int indexBits = indexBitsFor(count);
        this.shift = 32 - indexBits;
        this.remainderMask = (int) ((1L << shift) - 1);
        this.nodeBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, nodeCount) - 1));
        this.nodeMask = (int) ((1L << nodeBits) - 1);
        this.entryBits = shift + nodeBits;
        this.entryMask = entryBits == 64 ? -1L : (1L << entryBits) - 1;
        this.bucketStart = new int[(1 << indexBits) + 1];
        for (int i = 0; i < count; i++) {
            bucketStart[(hashes[i] >>> shift) + 1]++;
        }
        for (int b = 1; b < bucketStart.length; b++) {
            bucketStart[b] += bucketStart[b - 1];
        }
        this.packed = new long[(int) (((long) count * entryBits + 63) >>> 6) + 1];
        for (int i = 0; i < count; i++) {
            long field = ((long) (hashes[i] & remainderMask) << nodeBits) | nodes[i];
            long bit = (long) i * entryBits;
            int word = (int) (bit >>> 6);
            int offset = (int) (bit & 63);
            packed[word] |= field << offset;
            if (offset + entryBits > 64) {
                packed[word + 1] |= field >>> (64 - offset);
            }
        }
    }

    /** {@code k}: about 16–32 points per bucket, at least 2 buckets. */
    static int indexBitsFor(int count) {
        int k = 31 - Integer.numberOfLeadingZeros(Math.max(1, count >>> 4));
        return Math.max(MIN_INDEX_BITS, Math.min(MAX_INDEX_BITS, k));
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
        int base = bucketStart[bucket];
        int n = bucketStart[bucket + 1] - base;
        long target = (long) (hash & remainderMask) << nodeBits;
        // Branch-free lower bound: the answer stays within [base, base + n].
        while (n > 1) {
            int half = n >>> 1;
            base = field(base + half) < target ? base + half : base;
            n -= half;
        }
        if (n == 1 && field(base) < target) {
            base++;
        }
        return base == count ? 0 : base;
    }

    /** Node number of the point at {@code position}. */
    int nodeAt(int position) {
        return (int) field(position) & nodeMask;
    }

    /** Full 32-bit hash of the point at {@code position} (a search of the index: for analysis, not lookups). */
    int hashAt(int position) {
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
        return (lo << shift) | (int) (field(position) >>> nodeBits);
    }

    /** All hashes in ring order, reconstructed sequentially. */
    int[] hashes() {
        int[] out = new int[count];
        int bucket = 0;
        for (int i = 0; i < count; i++) {
            while (bucketStart[bucket + 1] <= i) {
                bucket++;
            }
            out[i] = (bucket << shift) | (int) (field(i) >>> nodeBits);
        }
        return out;
    }

    private long field(int i) {
        long bit = (long) i * entryBits;
        int word = (int) (bit >>> 6);
        int offset = (int) bit & 63;
        // Two-word read without a branch: when the field fits in one word the second term is 0.
        return ((packed[word] >>> offset) | ((packed[word + 1] << 1) << (63 - offset))) & entryMask;
    }

    /** Bytes of the two arrays: 16-byte array headers plus their elements. */
    long retainedBytes() {
        return arrayBytes(bucketStart.length, 4) + arrayBytes(packed.length, 8);
    }

    static long arrayBytes(long length, int elementSize) {
        return (16 + length * elementSize + 7) & ~7L;
    }

    int indexBits() {
        return 32 - shift;
    }

    int bitsPerPoint() {
        return entryBits;
    }
}
