package io.ketama.core;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * nginx's and pingora-ketama's rules ({@link RingVersion}): {@code weight × pointsPerWeight}
 * points per node, point {@code j} at {@code crc32(host ‖ 0x00 ‖ port ‖ le32(point j−1))}, keys
 * by CRC-32; v1 gives a collision to the earlier node in input order, v2 to the smaller identity.
 */
final class VersionPlacement extends Placement {

    private final RingVersion version;
    private final int pointsPerWeight;

    VersionPlacement(RingVersion version, int pointsPerWeight) {
        this.version = version;
        this.pointsPerWeight = pointsPerWeight;
    }

    @Override
    RingVersion version() {
        return version;
    }

    @Override
    HashStyle style() {
        return null;
    }

    @Override
    int pointsPerWeight() {
        return pointsPerWeight;
    }

    @Override
    String label() {
        return version.label();
    }

    @Override
    String keyHash() {
        return "crc32";
    }

    @Override
    long[] pointCounts(List<? extends Node<?>> nodes) {
        long[] counts = new long[nodes.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = (long) nodes.get(i).weight() * pointsPerWeight;
        }
        return counts;
    }

    /** Input order for v1, identity order for v2 (input order among equal identities). */
    @Override
    int[] rankOrder(HashIdentity[] identities) {
        Integer[] idx = new Integer[identities.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        if (version == RingVersion.V2) {
            Arrays.sort(idx, Comparator.comparing(i -> identities[i])); // stable
        }
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    @Override
    int emit(HashIdentity identity, int count, int rank, long[] raw, int p) {
        int prefix = identity.prefixRegister();
        int prev = 0;
        for (int j = 0; j < count; j++) {
            int h = Crc32.finish(Crc32.extendLittleEndian(prefix, prev));
            raw[p++] = ((long) h << 32) | rank;
            prev = h;
        }
        return p;
    }

    @Override
    int hashKey(byte[] key, int offset, int length) {
        return Crc32.hash(key, offset, length);
    }

    @Override
    int hashKey(CharSequence key) {
        return Crc32.hashUtf8(key);
    }

    @Override
    Failover failover() {
        return Failover.RING_WALK;
    }
}
