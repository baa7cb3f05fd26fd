package io.ketama.core;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Numbers the feature tags of a ring's nodes and holds each node's tags as a bit mask, so a
 * required feature set becomes a mask and "node has every feature" becomes one AND.
 *
 * <p>Masks are {@code words} longs per node, flattened into one {@code long[]}. With at most
 * {@link #SINGLE_WORD_FEATURES} distinct tags (the common case: a handful of capabilities) a mask
 * is one {@code long} and resolving a set allocates nothing; the all-ones value is then free to
 * mean "a tag no node has".
 */
final class FeatureIndex {

    /** Up to this many distinct tags a mask is a single long. */
    static final int SINGLE_WORD_FEATURES = 63;
    /** A single-word mask meaning "the set names a tag no node has". */
    static final long UNKNOWN = -1L;
    /** Up to this many tags, resolving scans the known tags with {@code contains}: no iterator at all. */
    private static final int SCAN_LIMIT = 16;

    private final String[] names;
    private final Map<String, Integer> bits;
    private final Set<String> known;
    private final int words;
    private final long[] nodeMasks;

    FeatureIndex(List<? extends Node<?>> nodes) {
        TreeSet<String> all = new TreeSet<>();
        for (Node<?> node : nodes) {
            all.addAll(node.features());
        }
        this.names = all.toArray(new String[0]);
        this.bits = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            bits.put(names[i], i);
        }
        this.known = Collections.unmodifiableSortedSet(all);
        this.words = names.length <= SINGLE_WORD_FEATURES ? 1 : (names.length + 63) >>> 6;
        this.nodeMasks = new long[nodes.size() * words];
        for (int n = 0; n < nodes.size(); n++) {
            for (String f : nodes.get(n).features()) {
                int b = bits.get(f);
                nodeMasks[n * words + (b >>> 6)] |= 1L << b;
            }
        }
    }

    Set<String> known() {
        return known;
    }

    int words() {
        return words;
    }

    boolean singleWord() {
        return words == 1;
    }

    /**
     * The mask of {@code required} when {@link #singleWord()}, or {@link #UNKNOWN} when it names a
     * tag no node has. Allocates nothing for up to {@value #SCAN_LIMIT} known tags.
     */
    long resolveSingle(Set<String> required) {
        long mask = 0;
        if (names.length <= SCAN_LIMIT) {
            int size = required.size();
            int hits = 0;
            for (int f = 0; f < names.length && hits < size; f++) {
                if (required.contains(names[f])) {
                    mask |= 1L << f;
                    hits++;
                }
            }
            return hits == size ? mask : UNKNOWN;
        }
        for (String f : required) {
            Integer b = f == null ? null : bits.get(f);
            if (b == null) {
                return UNKNOWN;
            }
            mask |= 1L << b;
        }
        return mask;
    }

    /** The mask of {@code required} as {@code words} longs, or null when it names a tag no node has. */
    long[] resolve(Set<String> required) {
        long[] mask = new long[words];
        for (String f : required) {
            Integer b = f == null ? null : bits.get(f);
            if (b == null) {
                return null;
            }
            mask[b >>> 6] |= 1L << b;
        }
        return mask;
    }

    /** The tags of {@code mask}, sorted. */
    Set<String> names(long[] mask) {
        TreeSet<String> out = new TreeSet<>();
        for (int b = 0; b < names.length; b++) {
            if ((mask[b >>> 6] & (1L << b)) != 0) {
                out.add(names[b]);
            }
        }
        return Collections.unmodifiableSortedSet(out);
    }

    /** Whether node {@code n} has every feature of {@code mask}. */
    boolean hasAll(int n, long[] mask) {
        for (int w = 0; w < words; w++) {
            long need = mask[w];
            if ((nodeMasks[n * words + w] & need) != need) {
                return false;
            }
        }
        return true;
    }

    /** Bytes of the node mask array. */
    long retainedBytes() {
        return PointTable.arrayBytes(nodeMasks.length, 8);
    }

    static Set<String> requireSet(Set<String> required) {
        return Objects.requireNonNull(required, "required feature set (use an empty set for no constraint)");
    }
}
