package io.ketama.core;

import java.util.List;

/**
 * libmemcached 1.1.4's consistent distributions ({@code hosts.cc} {@code update_continuum},
 * {@code hash.cc} {@code dispatch_host}, libhashkit): {@link HashStyle#LIBMEMCACHED_WEIGHTED},
 * {@link HashStyle#LIBMEMCACHED_KETAMA}, {@link HashStyle#LIBMEMCACHED_KETAMA_MD5} and
 * {@link HashStyle#LIBMEMCACHED_SPYMEMCACHED}. The rules are on those constants.
 */
final class LibmemcachedPlacement extends ClientPlacement {

    /** {@code MEMCACHED_POINTS_PER_SERVER}: points per server of the unweighted continuum, one per hash. */
    static final int UNWEIGHTED_POINTS = 100;

    private final boolean weighted;
    private final boolean oneAtATime;

    LibmemcachedPlacement(HashStyle style) {
        this(style, style == HashStyle.LIBMEMCACHED_WEIGHTED);
    }

    private LibmemcachedPlacement(HashStyle style, boolean weighted) {
        super(style);
        this.weighted = weighted;
        this.oneAtATime = style == HashStyle.LIBMEMCACHED_KETAMA;
    }

    /**
     * {@code server_add}: adding a server of weight above 1 to a consistent distribution sets
     * the weighted continuum ({@code memcached_set_weighted_ketama}), whatever the behaviour said;
     * the key hash stays. So {@link HashStyle#LIBMEMCACHED_KETAMA}, {@link HashStyle#LIBMEMCACHED_KETAMA_MD5}
     * and {@link HashStyle#LIBMEMCACHED_SPYMEMCACHED} over unequal weights are weighted.
     */
    @Override
    Placement forNodes(List<? extends Node<?>> nodes) {
        if (!weighted) {
            for (Node<?> node : nodes) {
                if (node.weight() > 1) {
                    return new LibmemcachedPlacement(style(), true);
                }
            }
        }
        return this;
    }

    @Override
    int pointsPerWeight() {
        return weighted ? KETAMA_POINTS : UNWEIGHTED_POINTS;
    }

    @Override
    String keyHash() {
        return oneAtATime ? "one-at-a-time" : "md5";
    }

    @Override
    boolean fourPointsPerDigest() {
        return weighted;
    }

    @Override
    int pointHash(byte[] text, int length) {
        return oneAtATime ? KeyHashes.oneAtATime(text, 0, length) : JdkMd5.hash(text, 0, length);
    }

    /** Weighted: {@code ⌊w/W × 160/4 × N⌋ × 4} in {@code float}; else 100 each. */
    @Override
    long[] pointCounts(List<? extends Node<?>> nodes) {
        int n = nodes.size();
        if (!weighted) {
            return fixedCounts(nodes, UNWEIGHTED_POINTS);
        }
        long[] counts = new long[n];
        float total = (float) totalWeight(nodes);
        for (int i = 0; i < n; i++) {
            float pct = (float) nodes.get(i).weight() / total;
            counts[i] = (long) Math.floor(pct * KETAMA_POINTS / 4 * (float) n + 0.0000000001F) * 4;
        }
        return counts;
    }

    /** {@code continuum_item_cmp} orders equal values by server index: the first added keeps the point. */
    @Override
    int[] rankOrder(HashIdentity[] identities) {
        return inputOrder(identities.length);
    }

    @Override
    int hashKey(byte[] key, int offset, int length) {
        return oneAtATime ? KeyHashes.oneAtATime(key, offset, length) : JdkMd5.hash(key, offset, length);
    }

    @Override
    int hashKey(CharSequence key) {
        return oneAtATime ? KeyHashes.oneAtATime(key, 0, key.length()) : JdkMd5.hashUtf8(Md5.NO_PREFIX, key);
    }

    /** Weighted counts depend on the live servers, so an ejection rebuilds; unweighted points do not, so a walk is the same. */
    @Override
    Failover failover() {
        return weighted ? Failover.REBUILD : Failover.RING_WALK_EQUAL_POINTS;
    }
}
