package io.ketama.core;

import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A ring member: what its points are hashed from, how many points it gets (weight × points per
 * weight), the features it has (for feature rings) and an opaque payload (a Hazelcast member, a
 * server line, anything the caller routes to). A value: two nodes are equal when their four parts
 * are.
 *
 * <p>Weights run from 1 to {@value #MAX_WEIGHT}, everywhere a weight is written (a servers file,
 * a member's configuration or attribute): a node makes {@code weight × points per weight} points,
 * so the bound keeps one node from making a ring that is costly for every member to build and
 * hold (1,000 × 160 points of v1 is 160,000 points, about 0.7 MB), while 1,000 levels of capacity
 * are far more than any fleet distinguishes. Feature tags follow {@link FeatureTags}.
 *
 * <p>The nodes a ring hands out ({@link KetamaRing#nodes()}, {@link KetamaRing#locate}) are its
 * own, equal to the ones it was built from: each is 16 bytes reading the ring's flat node table
 * ({@code NodeTable}), which holds a node in about 50 bytes instead of the ~300 of a node with its
 * own identity strings and tag set. {@link #payload()}, {@link #weight()} and {@link #features()}
 * of such a node read the table; {@link #identity()} makes a new (equal) identity each call.
 *
 * @param <T> the payload type
 */
public final class Node<T> {

    /** Largest weight of a node. */
    public static final int MAX_WEIGHT = 1000;

    /** The weight rule, for messages. */
    public static final String WEIGHT_RULE = "an integer from 1 to " + MAX_WEIGHT;

    /** The parts of a node made by its constructor. */
    private record Parts<T>(HashIdentity identity, int weight, Set<String> features, T payload) {
    }

    /** {@link Parts} for a node made by the constructor, the {@link NodeTable} for a ring's own node. */
    private final Object source;
    /** The node's slot in its table, or -1 for a node made by the constructor. */
    private final int index;

    /**
     * A node.
     *
     * @param identity what the points are hashed from
     * @param weight   relative capacity, from 1 to {@value #MAX_WEIGHT}
     * @param features feature tags ({@link FeatureTags}); kept sorted and unmodifiable
     * @param payload  the caller's object, may be null
     * @throws IllegalArgumentException naming the node when the weight or a tag is not allowed
     */
    public Node(HashIdentity identity, int weight, Set<String> features, T payload) {
        Objects.requireNonNull(identity, "identity");
        if (!isWeight(weight)) {
            throw new IllegalArgumentException("weight of node " + identity + " must be " + WEIGHT_RULE + ", was " + weight);
        }
        Set<String> tags;
        if (Objects.requireNonNull(features, "features").isEmpty()) {
            tags = Set.of();
        } else {
            TreeSet<String> sorted = new TreeSet<>();
            for (String f : features) {
                sorted.add(FeatureTags.require(f, "node " + identity + " feature"));
            }
            tags = Collections.unmodifiableSortedSet(sorted);
        }
        this.source = new Parts<>(identity, weight, tags, payload);
        this.index = -1;
    }

    /** Node {@code index} of {@code table}. */
    Node(NodeTable<T> table, int index) {
        this.source = table;
        this.index = index;
    }

    /** A node of weight {@code weight}, no features. */
    public static <T> Node<T> of(HashIdentity identity, int weight, T payload) {
        return new Node<>(identity, weight, Set.of(), payload);
    }

    /** Whether {@code weight} is a node's weight: from 1 to {@value #MAX_WEIGHT}. */
    public static boolean isWeight(int weight) {
        return weight >= 1 && weight <= MAX_WEIGHT;
    }

    /**
     * The weight written as {@code text} (decimal digits, blanks around ignored), or -1 when it
     * is not {@link #WEIGHT_RULE an integer from 1 to} {@value #MAX_WEIGHT}.
     */
    public static int parseWeight(String text) {
        String t = text.strip();
        if (t.isEmpty()) {
            return -1;
        }
        int w = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            w = w * 10 + (c - '0');
            if (w > MAX_WEIGHT) {
                return -1;
            }
        }
        return isWeight(w) ? w : -1;
    }

    @SuppressWarnings("unchecked")
    private Parts<T> parts() {
        return (Parts<T>) source;
    }

    @SuppressWarnings("unchecked")
    private NodeTable<T> table() {
        return (NodeTable<T>) source;
    }

    /** What the points are hashed from (a ring's own node makes a new, equal identity each call). */
    public HashIdentity identity() {
        return index < 0 ? parts().identity() : table().identity(index);
    }

    /** Relative capacity, from 1 to {@value #MAX_WEIGHT}. */
    public int weight() {
        return index < 0 ? parts().weight() : table().weight(index);
    }

    /** Feature tags, sorted, unmodifiable. */
    public Set<String> features() {
        return index < 0 ? parts().features() : table().features(index);
    }

    /** The caller's object, may be null. */
    public T payload() {
        return index < 0 ? parts().payload() : table().payload(index);
    }

    /** The table this node reads, or null for a node made by the constructor. */
    NodeTable<T> tableOrNull() {
        return index < 0 ? null : table();
    }

    /** Whether this node has every feature in {@code required}. */
    public boolean hasAll(Set<String> required) {
        return features().containsAll(required);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Node<?> other)) {
            return false;
        }
        if (index >= 0 && source == other.source && index == other.index) {
            return true;
        }
        return weight() == other.weight() && Objects.equals(payload(), other.payload()) && features().equals(other.features())
                && identity().equals(other.identity());
    }

    @Override
    public int hashCode() {
        return ((identity().hashCode() * 31 + weight()) * 31 + features().hashCode()) * 31 + Objects.hashCode(payload());
    }

    @Override
    public String toString() {
        int w = weight();
        Set<String> f = features();
        return identity() + (w != 1 ? " weight=" + w : "") + (f.isEmpty() ? "" : " features=" + f);
    }
}
