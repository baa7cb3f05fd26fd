package io.ketama.core;

import java.util.Arrays;
import java.util.List;

/**
 * twemproxy 0.5.0's {@code distribution: ketama} ({@code nc_ketama.c}, {@code nc_conf.c},
 * {@code nc_server.c}), with {@code hash: fnv1a_64} ({@link HashStyle#TWEMPROXY_FNV1A_64}) or
 * {@code hash: md5} ({@link HashStyle#TWEMPROXY_MD5}) and an optional {@code hash_tag}. The rules
 * are on those constants.
 */
final class TwemproxyPlacement extends ClientPlacement {

    private final boolean md5;
    /** The two tag bytes, or -1 each without a hash tag. */
    private final int open;
    private final int close;

    TwemproxyPlacement(HashStyle style, String hashTag) {
        super(style);
        this.md5 = style == HashStyle.TWEMPROXY_MD5;
        if (hashTag == null) {
            open = -1;
            close = -1;
        } else {
            open = hashTag.charAt(0);
            close = hashTag.charAt(1);
        }
    }

    @Override
    String label() {
        return open < 0 ? super.label() : super.label() + " hash_tag " + (char) open + (char) close;
    }

    @Override
    String keyHash() {
        String hash = md5 ? "md5" : "fnv1a_64";
        return open < 0 ? hash : hash + " of the hash_tag " + (char) open + (char) close + " part";
    }

    /** {@code ⌊w/W × 160/4 × N⌋ × 4}, each step in {@code float} as {@code ketama_update} computes it. */
    @Override
    long[] pointCounts(List<? extends Node<?>> nodes) {
        int n = nodes.size();
        long[] counts = new long[n];
        float total = (float) totalWeight(nodes);
        for (int i = 0; i < n; i++) {
            float pct = (float) nodes.get(i).weight() / total;
            float f = pct * KETAMA_POINTS / 4 * (float) n;
            counts[i] = (long) Math.floor((float) (f + 0.0000000001)) * 4;
        }
        return counts;
    }

    /** The pool's servers sorted by name as {@code string_compare} orders them: shorter first, then bytes unsigned. */
    @Override
    int[] rankOrder(HashIdentity[] identities) {
        Integer[] idx = new Integer[identities.length];
        byte[][] names = new byte[identities.length][];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
            names[i] = identities[i].serverText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        Arrays.sort(idx, (a, b) -> names[a].length != names[b].length
                ? Integer.compare(names[a].length, names[b].length)
                : Arrays.compareUnsigned(names[a], names[b]));
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    @Override
    int hashKey(byte[] key, int offset, int length) {
        if (open >= 0) {
            long range = KeyHashes.tagged(key, offset, length, (byte) open, (byte) close);
            offset = (int) (range >>> 32);
            length = (int) range - offset;
        }
        if (length == 0) {
            return 0; // server_pool_hash: an empty key hashes to 0
        }
        return md5 ? JdkMd5.hash(key, offset, length) : KeyHashes.fnv1a64Truncated(key, offset, length);
    }

    @Override
    int hashKey(CharSequence key) {
        int from = 0;
        int to = key.length();
        if (open >= 0) {
            long range = KeyHashes.tagged(key, (char) open, (char) close);
            from = (int) (range >>> 32);
            to = (int) range;
        }
        if (from == to) {
            return 0;
        }
        if (md5) {
            return from == 0 && to == key.length() ? JdkMd5.hashUtf8(Md5.NO_PREFIX, key)
                    : JdkMd5.hashUtf8(Md5.NO_PREFIX, key.subSequence(from, to));
        }
        return KeyHashes.fnv1a64Truncated(key, from, to);
    }

    @Override
    Failover failover() {
        return Failover.REBUILD;
    }
}
