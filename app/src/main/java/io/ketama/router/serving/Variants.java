package io.ketama.router.serving;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.SharedStrings;
import java.util.Arrays;

/**
 * The stored answers of one key, the most recent first (RFC 9111 §4.1: where several match a
 * request, the most recent is used), immutable: a store makes a new one. Most keys have one; a key
 * whose answers vary (by {@code Accept-Encoding}, say) has a few, at most the cache's
 * {@code max-variants}. What they weigh counts their fields' strings apart from those the cache's
 * {@link SharedStrings} keeps.
 */
public final class Variants {

    private final Variant[] all;
    private final long usefulUntil;
    private final int weight;

    private Variants(String key, Variant[] all, SharedStrings strings) {
        this.all = all;
        long until = Long.MIN_VALUE;
        long bytes = EntryFootprint.padded(key.length()) + EntryFootprint.OVERHEAD_BYTES
                + (long) (all.length - 1) * EntryFootprint.VARIANT_BYTES;
        for (Variant v : all) {
            until = Math.max(until, v.usefulUntil());
            bytes += LocalCache.answerBytes(v.answer(), v.selectors(), strings);
        }
        this.usefulUntil = until;
        this.weight = (int) Math.min(Integer.MAX_VALUE, bytes);
    }

    /**
     * The variants of {@code key} once {@code made} is stored as the answer to {@code request}:
     * {@code made} first, then those of {@code old} that {@code request} would not select and that are
     * still of use, at most {@code max} in all.
     */
    static Variants storing(String key, Variant made, long usefulUntil, Variants old, CacheRequest request, CachePolicy policy,
                            int max, SharedStrings strings) {
        Variant first = made.until(usefulUntil);
        if (old == null) {
            return new Variants(key, new Variant[] {first}, strings);
        }
        long now = System.currentTimeMillis();
        Variant[] kept = new Variant[Math.min(max, old.all.length + 1)];
        kept[0] = first;
        int n = 1;
        for (Variant v : old.all) {
            if (n == kept.length) {
                break;
            }
            if (v.usefulUntil() > now && !policy.matches(v.answer(), v.selectors(), request)) {
                kept[n++] = v;
            }
        }
        return new Variants(key, n == kept.length ? kept : Arrays.copyOf(kept, n), strings);
    }

    /** How many there are, at least 1. */
    public int size() {
        return all.length;
    }

    /** Variant {@code i}, the most recent first. */
    public Variant get(int i) {
        return all[i];
    }

    public Variant newest() {
        return all[0];
    }

    /**
     * The most recent variant that may answer {@code request} by its {@code Vary} (RFC 9111 §4.1),
     * or null.
     */
    public Variant select(CacheRequest request, CachePolicy policy) {
        for (Variant v : all) {
            if (policy.matches(v.answer(), v.selectors(), request)) {
                return v;
            }
        }
        return null;
    }

    /** Epoch ms after which none is of any use. */
    long usefulUntil() {
        return usefulUntil;
    }

    /** What they weigh against the cache's byte bound. */
    int weight() {
        return weight;
    }
}
