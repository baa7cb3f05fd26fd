package io.ketama.quarkus;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Reads a member's ketama attributes and ring identity. Shared by the ring builder (for every
 * member of the cluster) and by configuration validation (for this member), so a value this
 * member refuses in its configuration is exactly one the others would refuse as an attribute.
 */
final class MemberParser {

    /** Largest weight: keeps one member from making a ring too large to build. */
    static final int MAX_WEIGHT = 1000;
    static final String DEFAULT_DATACENTER = "default";

    private MemberParser() {
    }

    /** A member that passed: its identity for hashing and its description. */
    record Parsed(HashIdentity identity, MemberInfo info) {
    }

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

        Address address = member.getAddress();
        String host = address.getHost();
        int percent = host.indexOf('%');
        if (percent >= 0) {
            host = host.substring(0, percent); // an IPv6 scope id is local to the host that wrote it
        }
        String hostText = address.isIPv6() && !host.startsWith("[") ? "[" + host + "]" : host;
        String addressText = hostText + ":" + address.getPort();
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
        return new Parsed(identity, new MemberInfo(member, addressText, identity.toString(), weight, features, datacenter, nodeId));
    }

    /** A weight from 1 to {@value #MAX_WEIGHT}. */
    static int weight(String name, String text) {
        String t = text.trim();
        try {
            int w = Integer.parseInt(t);
            if (w >= 1 && w <= MAX_WEIGHT) {
                return w;
            }
        } catch (NumberFormatException e) {
            // reported below with the allowed range
        }
        throw new IllegalArgumentException(name + " must be an integer from 1 to " + MAX_WEIGHT + ", was '" + text + "'");
    }

    /** Comma-separated non-empty tags; an empty text is no features. */
    static Set<String> features(String name, String text) {
        if (text.isBlank()) {
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String tag = part.trim();
            if (tag.isEmpty()) {
                throw new IllegalArgumentException(name + " has an empty feature in '" + text
                        + "'; allowed: comma-separated non-empty tags, or nothing for no features");
            }
            out.add(tag);
        }
        return out;
    }

    /** A non-blank data centre name. */
    static String datacenter(String name, String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException(name + " must be a non-blank data centre name, was '" + text + "'");
        }
        return text.trim();
    }
}
