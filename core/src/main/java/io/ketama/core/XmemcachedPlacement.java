package io.ketama.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * xmemcached 2.4.8's {@code KetamaMemcachedSessionLocator} with its default configuration
 * ({@link HashStyle#XMEMCACHED}); the rules are on that constant.
 */
final class XmemcachedPlacement extends ClientPlacement {

    XmemcachedPlacement() {
        super(HashStyle.XMEMCACHED);
    }

    @Override
    String keyHash() {
        return "md5";
    }

    /** {@code 160 × weight} points, no normalising. */
    @Override
    long[] pointCounts(List<? extends Node<?>> nodes) {
        long[] counts = new long[nodes.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = (long) KETAMA_POINTS * nodes.get(i).weight() / 4 * 4;
        }
        return counts;
    }

    /** The tied sessions of a point are sorted by their text ({@code String.compareTo}); {@link #tieWinner} picks among them. */
    @Override
    int[] rankOrder(HashIdentity[] identities) {
        Integer[] idx = new Integer[identities.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> identities[a].serverText().compareTo(identities[b].serverText()));
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    /** {@code sessionList.get((int) (hash % size))}: the point's hash, unsigned, modulo the tied entries. */
    @Override
    int tieWinner(int hash, int entries) {
        return (int) (Integer.toUnsignedLong(hash) % entries);
    }

    @Override
    boolean picksTieWinner() {
        return true;
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
        return Failover.PROBES;
    }

    /** The first probe and {@code maxTries} = the number of servers more. */
    @Override
    int probes(int nodes) {
        return nodes + 1;
    }

    /** {@code nextHash}: {@code hash + md5le(String.valueOf(t + 1) + key)}, 32 bits. */
    @Override
    int nextProbe(int probe, int t, byte[] key, int offset, int length) {
        return probe + JdkMd5.hashDecimalPrefixed(t + 1, key, offset, length);
    }

    @Override
    int nextProbe(int probe, int t, CharSequence key) {
        byte[] bytes = key.toString().getBytes(StandardCharsets.UTF_8);
        return nextProbe(probe, t, bytes, 0, bytes.length);
    }
}
