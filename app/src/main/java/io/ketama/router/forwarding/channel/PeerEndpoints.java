package io.ketama.router.forwarding.channel;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.serving.Members;

/**
 * Where a member takes the forwards of each transport, as it tells the others in Hazelcast member
 * attributes: the port of its binary channel and of its HTTP server, on the host of its cluster
 * address. A member that publishes no usable port cannot be forwarded to by that transport (the
 * forward fails and the next candidate serves); it never affects the rings.
 */
public final class PeerEndpoints {

    /** Member attribute: the port of the member's binary forward channel. */
    public static final String BINARY_PORT = "ketama-router.binary-port";
    /** Member attribute: the port of the member's HTTP server. */
    public static final String HTTP_PORT = "ketama-router.http-port";
    /**
     * Member attribute: the host the member's HTTP server listens on, when it is one address (not a
     * wildcard): where the direct client ({@code client/}) sends the keys this member owns. Without
     * it the host of the cluster address is used.
     */
    public static final String HTTP_HOST = "ketama-router.http-host";
    /**
     * Member attribute: the {@link ChannelVersion} the member speaks on every forward channel;
     * absent on a member of version 1. A member older than it ignores it, as every attribute it
     * does not know.
     */
    public static final String CHANNEL_VERSION = "ketama-router.channel-version";
    /** The value this member publishes under {@link #CHANNEL_VERSION}. */
    public static final String THIS_CHANNEL_VERSION = Integer.toString(ChannelVersion.CURRENT);

    private PeerEndpoints() {
    }

    /** The {@link ChannelVersion} {@code member} says it speaks ({@link ChannelVersion#UNSAID} where it says none). */
    public static int channelVersion(Member member) {
        return ChannelVersion.parse(member.getAttribute(CHANNEL_VERSION));
    }

    /** A transport's address of one member. */
    public record Endpoint(String host, int port) {
    }

    /**
     * The member's endpoint for the transport whose port it publishes under {@code attribute}.
     *
     * @throws NoUsableEndpointException when the attribute is absent or not a port number
     */
    /**
     * Fails with {@link NoUsableEndpointException} where {@code member} publishes a channel version older
     * than {@link ChannelVersion#HTTP_CACHING}: it is sent no requests (they would lose the client's
     * fields and the answer's), so the next candidate serves, and the member is not blamed.
     */
    public static void requireHttpCaching(Member member) {
        int version = channelVersion(member);
        if (version < ChannelVersion.HTTP_CACHING) {
            throw new NoUsableEndpointException("member " + Members.address(member) + " speaks channel version " + version
                    + ", older than the " + ChannelVersion.HTTP_CACHING + " that carries a request's fields and an answer's: "
                    + "it is sent no requests while a rolling upgrade is under way");
        }
    }

    public static Endpoint of(Member member, String attribute) {
        String value = member.getAttribute(attribute);
        int port = -1;
        if (value != null) {
            try {
                port = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (port < 1 || port > 65_535) {
            throw new NoUsableEndpointException("member " + Members.address(member) + " publishes "
                    + (value == null ? "no " + attribute + " attribute" : attribute + "='" + value + "', not a port in 1..65535"));
        }
        return new Endpoint(member.getAddress().getHost(), port);
    }
}
