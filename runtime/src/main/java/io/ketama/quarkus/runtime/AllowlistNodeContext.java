package io.ketama.quarkus.runtime;

import com.hazelcast.instance.impl.DefaultNodeContext;
import com.hazelcast.instance.impl.DefaultNodeExtension;
import com.hazelcast.instance.impl.Node;
import com.hazelcast.instance.impl.NodeExtension;
import com.hazelcast.internal.cluster.impl.JoinMessage;
import org.jboss.logging.Logger;

import java.util.Objects;

/**
 * Starts a Hazelcast member whose join check refuses members at addresses the
 * {@link MemberAllowlist} does not name.
 *
 * <p>Why internal API: the open-source edition has no public join hook (member authentication is an
 * Enterprise feature), but its master asks {@link NodeExtension#validateJoinRequest} about every
 * join request before it admits the member, and answers a refusal with a "before join check failed"
 * message on which the joiner shuts itself down. This context gives the member the open-source
 * {@link DefaultNodeExtension} with that one check added; everything else is Hazelcast's default.
 * Only the master decides, so every member of the cluster should carry the same list.
 *
 * <p>What it checks is the address a joiner declares (its public address), not a credential: it
 * stops a misconfigured or stray member, not one that can send from an allowed address. The network
 * rule (NetworkPolicy, firewall) is what keeps others away from the member port.
 */
final class AllowlistNodeContext extends DefaultNodeContext {

    private static final Logger LOG = Logger.getLogger(AllowlistNodeContext.class);

    private final MemberAllowlist allowlist;

    AllowlistNodeContext(MemberAllowlist allowlist) {
        this.allowlist = Objects.requireNonNull(allowlist, "allowlist");
    }

    @Override
    public NodeExtension createNodeExtension(Node node) {
        return new AllowlistExtension(node, allowlist);
    }

    private static final class AllowlistExtension extends DefaultNodeExtension {

        private final MemberAllowlist allowlist;

        AllowlistExtension(Node node, MemberAllowlist allowlist) {
            super(node);
            this.allowlist = allowlist;
        }

        @Override
        public void validateJoinRequest(JoinMessage joinMessage) {
            super.validateJoinRequest(joinMessage);
            if (!allowlist.allows(joinMessage.getAddress())) {
                String reason = "ketama: join refused: " + allowlist.reason(joinMessage.getAddress());
                LOG.warn(reason);
                throw new IllegalStateException(reason); // Hazelcast sends it to the joiner, which stops
            }
        }
    }
}
