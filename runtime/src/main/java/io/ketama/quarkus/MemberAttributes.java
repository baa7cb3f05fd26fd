package io.ketama.quarkus;

import com.hazelcast.config.Config;
import com.hazelcast.config.MemberAttributeConfig;
import io.ketama.core.FeatureTags;
import io.ketama.core.Node;

import java.util.Collection;
import java.util.Objects;

/**
 * The Hazelcast member attributes through which each member tells the others how it wants to be
 * placed on the rings. The extension publishes them for its own embedded member; an application
 * that brings its own {@code HazelcastInstance} (or a plain member started elsewhere) publishes
 * them with {@link #publish}.
 *
 * <p>A member without these attributes gets the defaults (weight 1, no features, data centre
 * {@code default}, no node id). A member whose attribute is present but malformed is left out of
 * the rings.
 */
public final class MemberAttributes {

    /** Weight: {@link io.ketama.core.Node#WEIGHT_RULE}. */
    public static final String WEIGHT = "ketama.weight";
    /** Features: {@link FeatureTags#LIST_RULE}; empty or absent for none. */
    public static final String FEATURES = "ketama.features";
    /** Data centre name: non-blank. */
    public static final String DATACENTER = "ketama.datacenter";
    /** Stable node id: when present and non-empty, the member's ring identity. */
    public static final String NODE_ID = "ketama.node-id";
    /**
     * Place in the server list of the clients whose ring the cluster takes over: a whole number
     * from 0; absent for none ({@code quarkus.ketama.member.list-index}).
     */
    public static final String LIST_INDEX = "ketama.list-index";
    /**
     * Serving gate: {@code true} when the member is placed on the rings only once it says it is
     * serving (in the {@code ketama.members} map), as the extension's own members do; absent for a
     * member placed as soon as it joins.
     */
    public static final String GATED = "ketama.gated";
    /**
     * The migration the member's configuration asks for ({@code mode|v2SharePercent|shadow|revision}):
     * lets the cluster tell which members a configuration rollout has not reached yet. The extension
     * publishes it for its embedded member ({@code ConfiguredMigration}). Absent: unknown.
     */
    public static final String CONFIGURED_MIGRATION = "ketama.migration.configured";

    private MemberAttributes() {
    }

    /**
     * Marks the member configured by {@code config} as gated ({@link #GATED}): the others place it
     * on their rings only once it says it is serving, and take it off when it drains. Set it on a
     * {@code HazelcastInstance} the application builds itself when that instance runs this
     * extension (which then says so at start-up and drains it on a graceful stop); the extension
     * sets it on its embedded member.
     */
    public static void gate(Config config) {
        Objects.requireNonNull(config, "config").getMemberAttributeConfig().setAttribute(GATED, "true");
    }

    /** Whether {@code member} carries the {@link #GATED} attribute. */
    public static boolean isGated(com.hazelcast.cluster.Member member) {
        return "true".equals(member.getAttribute(GATED));
    }

    /**
     * Sets {@link #LIST_INDEX} on {@code config}: the member's place, from 0, in the server list of
     * the spymemcached, hashring, libmemcached or Dubbo clients whose ring the cluster takes over
     * (they give a point two servers share by that order). Before the member starts.
     *
     * @throws IllegalArgumentException when {@code index} is negative or above 1,000,000
     */
    public static void listIndex(Config config, int index) {
        listIndex(LIST_INDEX, Integer.toString(index));
        Objects.requireNonNull(config, "config").getMemberAttributeConfig().setAttribute(LIST_INDEX, Integer.toString(index));
    }

    /**
     * Sets the four attributes on {@code config} (before the member starts: Hazelcast attributes
     * cannot change afterwards).
     *
     * @param nodeId the stable node id, or null for none
     * @throws IllegalArgumentException when the weight is outside {@link io.ketama.core.Node#WEIGHT_RULE 1..1000},
     *                                  a feature is not a {@link FeatureTags tag}, or the data centre is blank
     */
    public static void publish(Config config, int weight, Collection<String> features, String datacenter, String nodeId) {
        weight(WEIGHT, Integer.toString(weight));
        for (String f : features) {
            FeatureTags.require(f == null ? null : f.strip(), FEATURES);
        }
        String joined = String.join(",", features.stream().map(String::strip).toList());
        String dc = datacenter(DATACENTER, datacenter == null ? "" : datacenter);
        MemberAttributeConfig attributes = Objects.requireNonNull(config, "config").getMemberAttributeConfig();
        attributes.setAttribute(WEIGHT, Integer.toString(weight));
        attributes.setAttribute(FEATURES, joined);
        attributes.setAttribute(DATACENTER, dc);
        if (nodeId != null && !nodeId.isBlank()) {
            attributes.setAttribute(NODE_ID, nodeId.trim());
        } else {
            attributes.removeAttribute(NODE_ID);
        }
    }

    // The rules each attribute's value (and the configuration key that sets it) follows: one place,
    // so a value this member refuses in its configuration is exactly one the others refuse as an attribute.

    /**
     * A weight ({@link Node#WEIGHT_RULE}).
     *
     * @param name the attribute or configuration key, for the message
     * @throws IllegalArgumentException naming it, the value and what is allowed
     */
    public static int weight(String name, String text) {
        int w = Node.parseWeight(text);
        if (w < 0) {
            throw new IllegalArgumentException(name + " must be " + Node.WEIGHT_RULE + ", was '" + text + "'");
        }
        return w;
    }

    /** A non-blank data centre name, trimmed; {@link #weight} says how it fails. */
    public static String datacenter(String name, String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException(name + " must be a non-blank data centre name, was '" + text + "'");
        }
        return text.trim();
    }

    /** A place in a server list: a whole number from 0 to 1,000,000 (far more servers than a ring holds); {@link #weight} says how it fails. */
    public static int listIndex(String name, String text) {
        int index;
        try {
            index = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            index = -1;
        }
        if (index < 0 || index > 1_000_000) {
            throw new IllegalArgumentException(name + " must be a whole number from 0 to 1000000 (the member's place in the clients' "
                    + "server list, from 0), was '" + text + "'");
        }
        return index;
    }
}
