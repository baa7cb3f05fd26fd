package io.ketama.core;

import java.util.List;

/**
 * What the ketama rings of twemproxy, libmemcached, Dubbo and xmemcached share: a server's points
 * hash its text ({@link HashIdentity#serverText()}, made by {@link HashStyle#identity}), a
 * separator and the point's number from 0, either four points per MD5 digest (digest bytes
 * {@code 4h..4h+3} little-endian are point {@code h}) or one point per hash; the keys and the
 * counts differ per program (the subclasses). Each subclass is one program; its rules are on the
 * {@link HashStyle} constants it serves.
 */
abstract class ClientPlacement extends Placement {

    /** The nominal points per server of the MD5 ketama continuum: 40 digests of 4 points. */
    static final int KETAMA_POINTS = 160;

    private final HashStyle style;

    ClientPlacement(HashStyle style) {
        this.style = style;
    }

    @Override
    final RingVersion version() {
        return null;
    }

    @Override
    final HashStyle style() {
        return style;
    }

    @Override
    int pointsPerWeight() {
        return KETAMA_POINTS;
    }

    @Override
    String label() {
        return style.label();
    }

    /** What stands between the server text and the point number: {@code "-"}, or nothing (Dubbo). */
    String separator() {
        return "-";
    }

    /** Whether each MD5 digest of {@code text-i} gives four points (else one point per text, {@link #pointHash}). */
    boolean fourPointsPerDigest() {
        return true;
    }

    /** The one point of {@code text-i}, {@code text[0, length)}, when not {@link #fourPointsPerDigest()}. */
    int pointHash(byte[] text, int length) {
        throw new UnsupportedOperationException(label());
    }

    @Override
    final int emit(HashIdentity identity, int count, int rank, long[] raw, int p) {
        PointText text = new PointText(identity.serverText(), separator());
        if (fourPointsPerDigest()) {
            int[] words = new int[4];
            for (int i = 0; i < count / 4; i++) {
                JdkMd5.digest(text.bytes(), text.point(i), words);
                for (int word : words) {
                    raw[p++] = ((long) word << 32) | rank;
                }
            }
        } else {
            for (int i = 0; i < count; i++) {
                raw[p++] = ((long) pointHash(text.bytes(), text.point(i)) << 32) | rank;
            }
        }
        return p;
    }

    /** Node indices in input order: the first listed keeps a shared point. */
    static int[] inputOrder(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }

    /** The same count for every node, whatever its weight. */
    static long[] fixedCounts(List<? extends Node<?>> nodes, long count) {
        long[] out = new long[nodes.size()];
        java.util.Arrays.fill(out, count);
        return out;
    }

    static long totalWeight(List<? extends Node<?>> nodes) {
        long total = 0;
        for (Node<?> node : nodes) {
            total += node.weight();
        }
        return total;
    }
}
