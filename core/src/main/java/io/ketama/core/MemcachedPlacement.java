package io.ketama.core;

import java.util.List;

/**
 * The memcached ketama family ({@link HashStyle#SPYMEMCACHED}, {@link HashStyle#SPYMEMCACHED_WEIGHTED},
 * {@link HashStyle#HASHRING}): MD5 of {@code server-i} gives four points, keys hash to the first
 * four MD5 bytes little-endian. The rules, read from spymemcached 2.12.3's {@code KetamaNodeLocator}
 * and {@code KetamaIterator} and hashring 3.2.0's {@code continuum}, {@code find} and {@code range},
 * are on the {@link HashStyle} constants; the arithmetic of the point counts is copied in kind
 * ({@code float} for spymemcached, {@code double} for hashring) because its rounding decides how
 * many points a server gets.
 */
final class MemcachedPlacement extends Placement {

    /** spymemcached's {@code DefaultKetamaNodeLocatorConfiguration} repetitions; libketama's 40 × 4. */
    static final int POINTS_PER_SERVER = 160;
    static final int POINTS_PER_DIGEST = 4;
    /** hashring's default {@code vnode count}. */
    static final int HASHRING_VNODES = 40;
    /** Probes of spymemcached's {@code getSequence}. */
    static final int PROBES = 7;

    private final HashStyle style;

    MemcachedPlacement(HashStyle style) {
        if (!style.placesKeys()) {
            throw new IllegalArgumentException("hash style " + style.label()
                    + " only names servers; build its ring with a ring version (v1 or v2)");
        }
        this.style = style;
    }

    @Override
    RingVersion version() {
        return null;
    }

    @Override
    HashStyle style() {
        return style;
    }

    @Override
    int pointsPerWeight() {
        return POINTS_PER_SERVER;
    }

    @Override
    String label() {
        return style.label();
    }

    @Override
    String keyHash() {
        return "md5";
    }

    @Override
    long[] pointCounts(List<? extends Node<?>> nodes) {
        int n = nodes.size();
        long[] counts = new long[n];
        long total = 0;
        boolean allOne = true;
        for (Node<?> node : nodes) {
            total += node.weight();
            allOne &= node.weight() == 1;
        }
        for (int i = 0; i < n; i++) {
            int w = nodes.get(i).weight();
            long digests;
            if (style == HashStyle.HASHRING) {
                // hashring: Math.floor(percentage * vnodes * servers.length), in double, left to right
                double percentage = (double) w / (double) total;
                digests = (long) Math.floor(percentage * HASHRING_VNODES * n);
            } else if (style == HashStyle.SPYMEMCACHED && allOne) {
                digests = POINTS_PER_SERVER / POINTS_PER_DIGEST; // no weight map: numReps / 4
            } else {
                // spymemcached with a weight map: float percent, then float arithmetic up to the floor
                float percent = (float) w / (float) (int) total;
                digests = (long) Math.floor((float) (percent * (float) POINTS_PER_SERVER / 4 * (float) n + 0.0000000001));
            }
            counts[i] = digests * POINTS_PER_DIGEST;
        }
        return counts;
    }

    /** hashring: input order (a stable sort keeps the first); spymemcached: reverse input order (a later put replaces). */
    @Override
    int[] rankOrder(HashIdentity[] identities) {
        int n = identities.length;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = style == HashStyle.HASHRING ? i : n - 1 - i;
        }
        return out;
    }

    @Override
    int emit(HashIdentity identity, int count, int rank, long[] raw, int p) {
        PointText text = new PointText(identity.serverText(), "-");
        int[] words = new int[4];
        for (int i = 0; i < count / POINTS_PER_DIGEST; i++) {
            JdkMd5.digest(text.bytes(), text.point(i), words);
            for (int word : words) {
                raw[p++] = ((long) word << 32) | rank;
            }
        }
        return p;
    }

    @Override
    int hashKey(byte[] key, int offset, int length) {
        return JdkMd5.hash(key, offset, length);
    }

    @Override
    int hashKey(CharSequence key) {
        return JdkMd5.hashUtf8(Md5.NO_PREFIX, key);
    }

    @Override
    Failover failover() {
        return style == HashStyle.HASHRING ? Failover.RING_WALK_EQUAL_POINTS : Failover.PROBES;
    }

    /** spymemcached's {@code KetamaIterator.nextHash}: {@code hashVal += (int) md5le((numTries++) + key)}, 32 bits. */
    @Override
    int nextProbe(int probe, int t, byte[] key, int offset, int length) {
        return probe + JdkMd5.hashPrefixed('0' + t, key, offset, length);
    }

    @Override
    int nextProbe(int probe, int t, CharSequence key) {
        return probe + JdkMd5.hashUtf8('0' + t, key);
    }
}
