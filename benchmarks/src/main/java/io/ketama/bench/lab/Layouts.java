package io.ketama.bench.lab;

/**
 * Lookup layouts tried for issue 29's point 3 (lookup ≤ 1.5 × the floor), over flat arrays so
 * that their costs can be compared with each other and with the floor in one JMH run. Each answers
 * the node index of the first point whose hash is {@code >=} the key's, wrapping, exactly as the
 * ring does; {@link LabBench} checks every variant against the ring on 2^16 hashes before it
 * measures. Not used by the rings: BENCHMARKS.md ("Point 3") has the figures and the verdicts.
 */
final class Layouts {

    private Layouts() {
    }

    static int nodeBits(int nodeCount) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, nodeCount) - 1));
    }

    /**
     * Core's layout with a chosen bucket size: {@code 2^k} buckets, an {@code int} index of their
     * starts, one {@code int} field per point ({@code bucket low bits | remainder | node}, compared
     * modulo 2^32 so that fields of later buckets compare above). {@code avgBucket} = 9 is core's
     * (9–18 points a bucket, 4.2–4.5 bytes a point).
     */
    abstract static class Fields {
        final int count, shift, remainderMask, nodeBits, nodeMask, bucketBits, k;
        final int[] bucketStart, fields;

        Fields(int[] hashes, int[] nodes, int nodeCount, int avgBucket, int pad) {
            count = hashes.length;
            nodeBits = nodeBits(nodeCount);
            k = Math.max(31 - Integer.numberOfLeadingZeros(Math.max(1, count / avgBucket)), nodeBits + 2);
            shift = 32 - k;
            remainderMask = (int) ((1L << shift) - 1);
            nodeMask = (1 << nodeBits) - 1;
            bucketBits = k - nodeBits;
            bucketStart = new int[(1 << k) + 1];
            for (int h : hashes) {
                bucketStart[(h >>> shift) + 1]++;
            }
            for (int b = 1; b < bucketStart.length; b++) {
                bucketStart[b] += bucketStart[b - 1];
            }
            fields = new int[count + pad];
            for (int i = 0; i < count; i++) {
                fields[i] = field(hashes[i] >>> shift, hashes[i] & remainderMask, nodes[i]);
            }
            for (int i = count; i < fields.length; i++) {
                fields[i] = field(1 << k, 0, 0);
            }
        }

        final int field(int bucket, int remainder, int node) {
            return (bucket << (32 - bucketBits)) | (remainder << nodeBits) | node;
        }

        /** Bytes of the index and the fields, 16-byte array headers included. */
        long bytes() {
            return 16 + 4L * bucketStart.length + 16 + 4L * fields.length;
        }

        abstract int node(int hash);
    }

    /** A clone of core's PointTable lookup (buckets of 9–18, interpolated window of 8). */
    static final class Current extends Fields {
        static final int WINDOW = 8;

        Current(int[] hashes, int[] nodes, int nodeCount) {
            super(hashes, nodes, nodeCount, 9, WINDOW);
        }

        @Override
        int node(int hash) {
            int bucket = hash >>> shift;
            int start = bucketStart[bucket];
            int end = bucketStart[bucket + 1];
            int remainder = hash & remainderMask;
            int target = field(bucket, remainder, 0);
            int estimate = start + (int) (((long) remainder * (end - start)) >>> shift);
            int lo = Math.max(start, estimate - WINDOW / 2);
            int[] f = fields;
            int below = ((f[lo] - target) >>> 31) + ((f[lo + 1] - target) >>> 31)
                    + ((f[lo + 2] - target) >>> 31) + ((f[lo + 3] - target) >>> 31)
                    + ((f[lo + 4] - target) >>> 31) + ((f[lo + 5] - target) >>> 31)
                    + ((f[lo + 6] - target) >>> 31) + ((f[lo + 7] - target) >>> 31);
            int pos = lo + below;
            if ((((pos - lo - 1) & (start - lo)) | ((lo + WINDOW - 1 - pos) & (lo + WINDOW - end))) < 0) {
                pos = scan(start, target);
            }
            return f[pos == count ? 0 : pos] & nodeMask;
        }

        int scan(int from, int target) {
            int p = from;
            while (p < count && fields[p] - target < 0) {
                p++;
            }
            return p;
        }

        int indexOnly(int hash) {
            return bucketStart[hash >>> shift];
        }

        int estimateOne(int hash) {
            int bucket = hash >>> shift;
            int start = bucketStart[bucket];
            int end = bucketStart[bucket + 1];
            int estimate = start + (int) (((long) (hash & remainderMask) * (end - start)) >>> shift);
            return fields[estimate] & nodeMask;
        }
    }

    /**
     * A coarser index (buckets of 32–64 points: 0.06–0.12 bytes a point, so that the index of a ring
     * of millions of points stays in the caches) and a window of 16 fields around the interpolated
     * estimate (64 bytes, one or two cache lines): for rings past the caches, one miss for the
     * window where core's layout has two (its index, then its window).
     */
    static final class Coarse16 extends Fields {
        static final int WINDOW = 16;

        Coarse16(int[] hashes, int[] nodes, int nodeCount) {
            super(hashes, nodes, nodeCount, 32, WINDOW);
        }

        @Override
        int node(int hash) {
            int bucket = hash >>> shift;
            int start = bucketStart[bucket];
            int end = bucketStart[bucket + 1];
            int remainder = hash & remainderMask;
            int target = field(bucket, remainder, 0);
            int estimate = start + (int) (((long) remainder * (end - start)) >>> shift);
            int lo = Math.max(start, estimate - WINDOW / 2);
            int[] f = fields;
            int below = 0;
            for (int j = 0; j < WINDOW; j++) {
                below += (f[lo + j] - target) >>> 31;
            }
            int pos = lo + below;
            if ((((pos - lo - 1) & (start - lo)) | ((lo + WINDOW - 1 - pos) & (lo + WINDOW - end))) < 0) {
                pos = lo + below;
                while (pos > start && f[pos - 1] - target >= 0) {
                    pos--;
                }
                while (pos < count && f[pos] - target < 0) {
                    pos++;
                }
            }
            return f[pos == count ? 0 : pos] & nodeMask;
        }
    }

    /**
     * A finer index (buckets of 2–4 points, 5–6 bytes a point) and a window of 4 fields from the
     * bucket's start, no estimate: one index read instead of two, 4 comparisons instead of 8.
     * Fields of the next buckets compare above the key, so a window that reaches past its bucket
     * still counts right; only "all 4 below" needs the next window (a loop, rarely taken).
     */
    static final class Start4 extends Fields {
        Start4(int[] hashes, int[] nodes, int nodeCount) {
            super(hashes, nodes, nodeCount, 2, 4);
        }

        @Override
        int node(int hash) {
            int bucket = hash >>> shift;
            int target = field(bucket, hash & remainderMask, 0);
            int[] f = fields;
            int pos = bucketStart[bucket];
            int below;
            do {
                below = ((f[pos] - target) >>> 31) + ((f[pos + 1] - target) >>> 31)
                        + ((f[pos + 2] - target) >>> 31) + ((f[pos + 3] - target) >>> 31);
                pos += below;
            } while (below == 4);
            return f[pos == count ? 0 : pos] & nodeMask;
        }
    }

    /** {@link Start4} with buckets of 4–8 points (4.5–5 bytes a point) and windows of 8 from the start. */
    static final class Start8 extends Fields {
        Start8(int[] hashes, int[] nodes, int nodeCount) {
            super(hashes, nodes, nodeCount, 4, 8);
        }

        @Override
        int node(int hash) {
            int bucket = hash >>> shift;
            int target = field(bucket, hash & remainderMask, 0);
            int[] f = fields;
            int pos = bucketStart[bucket];
            int below;
            do {
                below = ((f[pos] - target) >>> 31) + ((f[pos + 1] - target) >>> 31)
                        + ((f[pos + 2] - target) >>> 31) + ((f[pos + 3] - target) >>> 31)
                        + ((f[pos + 4] - target) >>> 31) + ((f[pos + 5] - target) >>> 31)
                        + ((f[pos + 6] - target) >>> 31) + ((f[pos + 7] - target) >>> 31);
                pos += below;
            } while (below == 8);
            return f[pos == count ? 0 : pos] & nodeMask;
        }
    }

    /**
     * {@link Start4}'s buckets with a branch-free binary search of 4 fields from the start (2
     * dependent steps) instead of 4 independent comparisons: fewer instructions, a longer chain.
     */
    static final class Start4Binary extends Fields {
        Start4Binary(int[] hashes, int[] nodes, int nodeCount) {
            super(hashes, nodes, nodeCount, 2, 4);
        }

        @Override
        int node(int hash) {
            int bucket = hash >>> shift;
            int target = field(bucket, hash & remainderMask, 0);
            int[] f = fields;
            int pos = bucketStart[bucket];
            while (f[pos + 3] - target < 0) { // all 4 below (rare): the next 4
                pos += 4;
            }
            pos += ((f[pos + 1] - target) >>> 31) << 1;
            pos += (f[pos] - target) >>> 31;
            return f[pos == count ? 0 : pos] & nodeMask;
        }
    }

    /**
     * SWAR: each point as a 16-bit fingerprint (the hash bits below the {@code k ≥ 16} index bits,
     * so exact) in a {@code long[]} of 4 lanes, and its node in a {@code short[]} (up to 65,536
     * nodes): 4 bytes a point plus the index. A window of 8 lanes from the aligned word before the
     * bucket's start (2 longs) is compared with the key's fingerprint 4 lanes at a time; lanes
     * before the bucket's start count as below, lanes from its end as above.
     */
    static final class Swar16 {
        final int count, shift, k;
        final int[] bucketStart;
        final long[] lanes;
        final short[] nodes;

        Swar16(int[] hashes, int[] nodeOf, int nodeCount, int avgBucket) {
            if (nodeCount > 65_536) {
                throw new IllegalArgumentException("16-bit nodes");
            }
            count = hashes.length;
            k = Math.max(16, 31 - Integer.numberOfLeadingZeros(Math.max(1, count / avgBucket)));
            shift = 32 - k;
            bucketStart = new int[(1 << k) + 1];
            for (int h : hashes) {
                bucketStart[(h >>> shift) + 1]++;
            }
            for (int b = 1; b < bucketStart.length; b++) {
                bucketStart[b] += bucketStart[b - 1];
            }
            lanes = new long[(count + 11) / 4 + 1];
            nodes = new short[count + 1];
            for (int i = 0; i < count; i++) {
                long fp = hashes[i] & ((1 << shift) - 1); // exact: every bit below the index bits (k >= 16 keeps shift <= 16)
                lanes[i >>> 2] |= fp << ((i & 3) << 4);
                nodes[i] = (short) nodeOf[i];
            }
        }

        long bytes() {
            return 16 + 4L * bucketStart.length + 16 + 8L * lanes.length + 16 + 2L * nodes.length;
        }

        static final long H = 0x8000_8000_8000_8000L;
        static final long ONES = 0x0001_0001_0001_0001L;

        /** Lanes of {@code x} below {@code t} (every lane {@code t}), as the high bit of each lane. */
        static long below(long x, long t) {
            // x < t per unsigned 16-bit lane: the borrow of x - t, computed without carries across lanes
            long d = ((x | H) - (t & ~H)) ^ ((x ^ ~t) & H); // lane-wise x - t mod 2^16
            return ((~x & t) | (~(x ^ t) & d)) & H;         // borrow out of each lane
        }

        int node(int hash) {
            if (shift > 16) {
                throw new IllegalStateException();
            }
            int bucket = hash >>> shift;
            int start = bucketStart[bucket];
            int end = bucketStart[bucket + 1];
            long t = (hash & ((1 << shift) - 1)) * ONES;
            int word = start >>> 2;
            int base = word << 2;
            while (true) {
                long m0 = below(lanes[word], t);
                long m1 = below(lanes[word + 1], t);
                // lanes before start: below; lanes at or past end: not below
                int lo = start - base; // 0..3
                int hi = end - base;   // may exceed 8
                long keep0 = hi >= 4 ? -1L : (1L << (hi << 4)) - 1;
                long keep1 = hi >= 8 ? -1L : hi <= 4 ? 0L : (1L << ((hi - 4) << 4)) - 1;
                long low0 = (1L << (lo << 4)) - 1;
                int n = Long.bitCount((m0 & keep0) | (low0 & H)) + Long.bitCount(m1 & keep1);
                int pos = base + n;
                if (n < 8 || end <= base + 8) {
                    pos = Math.min(pos, end);
                    return nodes[pos == count ? 0 : pos] & 0xFFFF;
                }
                word += 2;
                base += 8;
                start = base;
            }
        }
    }
}
