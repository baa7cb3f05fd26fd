package io.ketama.core;

import java.util.List;

/**
 * Apache Dubbo 3.3.5's {@code ConsistentHashLoadBalance} ({@link HashStyle#DUBBO}); the rules are
 * on that constant.
 */
final class DubboPlacement extends ClientPlacement {

    /** Dubbo's default {@code hash.nodes}. */
    static final int DEFAULT_HASH_NODES = 160;

    private final int hashNodes;

    DubboPlacement(int hashNodes) {
        super(HashStyle.DUBBO);
        this.hashNodes = hashNodes;
    }

    @Override
    int pointsPerWeight() {
        return hashNodes;
    }

    @Override
    String label() {
        return hashNodes == DEFAULT_HASH_NODES ? super.label() : super.label() + " hash.nodes " + hashNodes;
    }

    @Override
    String keyHash() {
        return "md5";
    }

    /** {@code address + i}: no separator. */
    @Override
    String separator() {
        return "";
    }

    /** {@code hash.nodes / 4} digests of four points each, whatever the weight. */
    @Override
    long[] pointCounts(List<? extends Node<?>> nodes) {
        return fixedCounts(nodes, hashNodes / 4 * 4L);
    }

    /** A {@code TreeMap.put} replaces: the last listed keeps a shared point, then the one listed before it. */
    @Override
    int[] rankOrder(HashIdentity[] identities) {
        int n = identities.length;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = n - 1 - i;
        }
        return out;
    }

    @Override
    int hashKey(byte[] key, int offset, int length) {
        return JdkMd5.hash(key, offset, length);
    }

    @Override
    int hashKey(CharSequence key) {
        return JdkMd5.hashUtf8(Md5.NO_PREFIX, key);
    }

    /** A re-selection over the providers not yet tried builds the same points without theirs: a walk. */
    @Override
    Failover failover() {
        return Failover.RING_WALK_EQUAL_POINTS;
    }
}
