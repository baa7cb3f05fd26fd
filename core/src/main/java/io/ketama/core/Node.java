package io.ketama.core;

import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A ring member: what its points are hashed from, how many points it gets (weight × points per
 * weight), the features it has (for feature rings) and an opaque payload (a Hazelcast member, a
 * server line, anything the caller routes to).
 *
 * <p>Weights run from 1 to {@value #MAX_WEIGHT}, everywhere a weight is written (a servers file,
 * a member's configuration or attribute): a node makes {@code weight × points per weight} points,
 * so the bound keeps one node from making a ring that is costly for every member to build and
 * hold (1,000 × 160 points of v1 is 160,000 points, about 0.7 MB), while 1,000 levels of capacity
 * are far more than any fleet distinguishes. Feature tags follow {@link FeatureTags}.
 *
 * @param identity what the points are hashed from
 * @param weight   relative capacity, from 1 to {@value #MAX_WEIGHT}
 * @param features feature tags ({@link FeatureTags}); kept sorted and unmodifiable
 * @param payload  the caller's object, may be null
 */
public record Node<T>(HashIdentity identity, int weight, Set<String> features, T payload) {

    /** Largest weight of a node. */
    public static final int MAX_WEIGHT = 1000;

    /** The weight rule, for messages. */
    public static final String WEIGHT_RULE = "an integer from 1 to " + MAX_WEIGHT;

    public Node {
        Objects.requireNonNull(identity, "identity");
        if (!isWeight(weight)) {
            throw new IllegalArgumentException("weight of node " + identity + " must be " + WEIGHT_RULE + ", was " + weight);
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String f : Objects.requireNonNull(features, "features")) {
            sorted.add(FeatureTags.require(f, "node " + identity + " feature"));
        }
        features = Collections.unmodifiableSortedSet(sorted);
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

    /** Whether this node has every feature in {@code required}. */
    public boolean hasAll(Set<String> required) {
        return features.containsAll(required);
    }

    @Override
    public String toString() {
        return identity + (weight != 1 ? " weight=" + weight : "") + (features.isEmpty() ? "" : " features=" + features);
    }
}
