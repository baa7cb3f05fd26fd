package io.ketama.core;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A ring member: what its points are hashed from, how many points it gets (weight × points per
 * weight), the features it has (for feature rings) and an opaque payload (a Hazelcast member, a
 * server line, anything the caller routes to).
 *
 * @param identity what the points are hashed from
 * @param weight   relative capacity, at least 1
 * @param features feature tags, none empty; kept sorted and unmodifiable
 * @param payload  the caller's object, may be null
 */
public record Node<T>(HashIdentity identity, int weight, Set<String> features, T payload) {

    public Node {
        Objects.requireNonNull(identity, "identity");
        if (weight < 1) {
            throw new IllegalArgumentException("weight of node " + identity + " must be an integer >= 1, was " + weight);
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String f : Objects.requireNonNull(features, "features")) {
            if (f == null || f.isBlank()) {
                throw new IllegalArgumentException("node " + identity + " has an empty feature tag; tags must be non-blank");
            }
            sorted.add(f);
        }
        features = java.util.Collections.unmodifiableSortedSet(sorted);
    }

    /** A node of weight {@code weight}, no features. */
    public static <T> Node<T> of(HashIdentity identity, int weight, T payload) {
        return new Node<>(identity, weight, Set.of(), payload);
    }

    /** Whether this node has every feature in {@code required}. */
    public boolean hasAll(Set<String> required) {
        return features.containsAll(required);
    }

    @Override
    public String toString() {
        return identity + (weight != 1 ? " weight=" + weight : "") + (features.isEmpty() ? "" : " features=" + features);
    }
}
