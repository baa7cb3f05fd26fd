package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import io.ketama.core.FeatureTags;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.Node;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MemberInfo;

import java.util.Set;

/**
 * Reads a member's ketama attributes and ring identity. Shared by the ring builder (for every
 * member of the cluster) and by configuration validation (for this member), so a value this
 * member refuses in its configuration is exactly one the others would refuse as an attribute.
 *
 */
final class MemberParser {

    static final String DEFAULT_DATACENTER = "default";

    private MemberParser() {
    }

    /**
     * A member that passed: its identity for hashing, its description, and its place in the server
     * list of the clients whose ring it takes over ({@link #NO_LIST_INDEX} when it gave none).
     */
    record Parsed(HashIdentity identity, MemberInfo info, int listIndex) {
    }

    /** The list index of a member that gave none: after every member that did. */
    static final int NO_LIST_INDEX = Integer.MAX_VALUE;

    /**
     * Parses {@code member}'s attributes.
     *
     * @throws IllegalArgumentException naming the attribute, its value and what is allowed
     */
    static Parsed parse(Member member, HashStyle style) {
        String weightText = member.getAttribute(MemberAttributes.WEIGHT);
        int weight = weightText == null ? 1 : weight(MemberAttributes.WEIGHT, weightText);
        String featuresText = member.getAttribute(MemberAttributes.FEATURES);
        Set<String> features = featuresText == null ? Set.of() : features(MemberAttributes.FEATURES, featuresText);
        String dcText = member.getAttribute(MemberAttributes.DATACENTER);
        String datacenter = dcText == null ? DEFAULT_DATACENTER : datacenter(MemberAttributes.DATACENTER, dcText);
        String nodeIdText = member.getAttribute(MemberAttributes.NODE_ID);
        String nodeId = nodeIdText == null || nodeIdText.isBlank() ? null : nodeIdText.trim();
        String listIndexText = member.getAttribute(MemberAttributes.LIST_INDEX);
        int listIndex = listIndexText == null ? NO_LIST_INDEX : listIndex(MemberAttributes.LIST_INDEX, listIndexText);

        String addressText = MemberAddress.of(member);
        HashIdentity identity;
        if (nodeId != null) {
            // a memcached style hashes the node id as the server text its clients use
            identity = style.placesKeys() ? style.identity(nodeId) : HashIdentity.of(nodeId, "");
        } else {
            try {
                identity = style.identity(addressText);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("address " + addressText + " cannot be hashed in " + style.label() + " style ("
                        + e.getMessage() + "); give the member a node id (" + MemberAttributes.NODE_ID + ") or use nginx style");
            }
        }
        return new Parsed(identity, new MemberInfo(member, addressText, identity.toString(), weight, features, datacenter, nodeId),
                listIndex);
    }

    /** {@link MemberAttributes#listIndex}. */
    static int listIndex(String name, String text) {
        return MemberAttributes.listIndex(name, text);
    }

    /** {@link MemberAttributes#weight}. */
    static int weight(String name, String text) {
        return MemberAttributes.weight(name, text);
    }

    /** Feature tags ({@link FeatureTags#LIST_RULE}); a blank text is no features. */
    static Set<String> features(String name, String text) {
        return FeatureTags.parseList(text, name);
    }

    /** {@link MemberAttributes#datacenter}. */
    static String datacenter(String name, String text) {
        return MemberAttributes.datacenter(name, text);
    }
}
