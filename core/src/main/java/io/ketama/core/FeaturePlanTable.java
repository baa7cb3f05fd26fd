package io.ketama.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable map from a resolved feature mask to its {@link FeaturePlan}: open addressing with
 * linear probing over a power-of-two array at most half full. Writers copy it and publish the
 * copy through a volatile field; readers probe without a lock and without allocating.
 */
final class FeaturePlanTable<T> {

    private final FeaturePlan<T>[] slots;
    private final int size;

    @SuppressWarnings("unchecked")
    private FeaturePlanTable(int capacity) {
        this.slots = (FeaturePlan<T>[]) new FeaturePlan<?>[capacity];
        this.size = 0;
    }

    private FeaturePlanTable(FeaturePlan<T>[] slots, int size) {
        this.slots = slots;
        this.size = size;
    }

    static <T> FeaturePlanTable<T> empty() {
        return new FeaturePlanTable<>(8);
    }

    int size() {
        return size;
    }

    /** The plan of a single-word mask, or null. */
    FeaturePlan<T> find(long key) {
        int m = slots.length - 1;
        for (int i = mix(key) & m; ; i = (i + 1) & m) {
            FeaturePlan<T> p = slots[i];
            if (p == null || p.hasKey(key)) {
                return p;
            }
        }
    }

    /** The plan of a multi-word mask, or null. */
    FeaturePlan<T> find(long[] key) {
        int m = slots.length - 1;
        for (int i = hash(key) & m; ; i = (i + 1) & m) {
            FeaturePlan<T> p = slots[i];
            if (p == null || p.hasKey(key)) {
                return p;
            }
        }
    }

    /** A copy with {@code plan} added, or replacing the plan of the same key. */
    FeaturePlanTable<T> with(FeaturePlan<T> plan) {
        List<FeaturePlan<T>> all = plans();
        all.removeIf(p -> p.hasKey(plan.key));
        all.add(plan);
        return of(all);
    }

    /** Every plan (a new list). */
    List<FeaturePlan<T>> plans() {
        List<FeaturePlan<T>> out = new ArrayList<>(size);
        for (FeaturePlan<T> p : slots) {
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    static <T> FeaturePlanTable<T> of(List<FeaturePlan<T>> plans) {
        int capacity = 8;
        while (capacity < plans.size() * 2) {
            capacity <<= 1;
        }
        FeaturePlanTable<T> t = new FeaturePlanTable<>(capacity);
        int m = capacity - 1;
        for (FeaturePlan<T> p : plans) {
            int i = hash(p.key) & m;
            while (t.slots[i] != null) {
                i = (i + 1) & m;
            }
            t.slots[i] = p;
        }
        return new FeaturePlanTable<>(t.slots, plans.size());
    }

    private static int hash(long[] key) {
        return key.length == 1 ? mix(key[0]) : mix(Arrays.hashCode(key));
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
