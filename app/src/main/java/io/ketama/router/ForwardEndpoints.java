package io.ketama.router;

import com.hazelcast.config.Config;
import io.ketama.quarkus.HazelcastConfigCustomizer;
import io.ketama.router.forwarding.binary.BinaryForwardServer;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.hazelcast.HazelcastForwarding;
import io.ketama.router.purge.ClusterPurge;
import io.ketama.router.purge.PurgeSerialization;
import io.ketama.router.forwarding.http.HttpForwardHandler;
import io.ketama.router.forwarding.http.HttpForwarding;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Where this member takes other members' forwards, whichever transport they use: the binary
 * channel's server (bound before the member joins, so its port can be published), the path of the
 * {@code http} transport on the HTTP server, the Hazelcast transport's payloads and executor, and
 * the member attributes that tell the others the ports. Every transport hands what it receives to
 * the one {@link ForwardReceiver}.
 */
@Singleton
class ForwardEndpoints implements HazelcastConfigCustomizer {

    private static final Logger LOG = Logger.getLogger(ForwardEndpoints.class);

    /** Before Quarkus REST's own route. */
    private static final int ORDER = -1_000;

    private final RouterSettings.ForwardEndpointSettings settings;
    private final ForwardReceiver receiver = new ForwardReceiver();
    private final BinaryForwardServer binary;
    /** The HTTP port as configured; 0 when Quarkus picks one at start, too late to publish. */
    private final int httpPort;

    ForwardEndpoints(RouterSettings settings, Vertx vertx) {
        this.settings = settings.forward();
        this.httpPort = RouterSettingsProducer.httpPort();
        try {
            this.binary = BinaryForwardServer.start(vertx, this.settings.binaryHost(), this.settings.binaryPort(), receiver,
                    this.settings.secret());
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("invalid configuration ketama.router.forward.binary.host / .port: " + e.getMessage(), e);
        }
        LOG.infof("ketama-router takes forwards on its binary channel at %s:%d, %s", this.settings.binaryHost(), binary.port(),
                this.settings.secret().required() ? "from members that show the forward secret"
                        : "from anyone (no ketama.router.forward.secret)");
    }

    @Override
    public void customize(Config hazelcast) {
        HazelcastForwarding.configure(hazelcast, settings.hazelcastThreads(), settings.hazelcastQueue());
        PurgeSerialization.configure(hazelcast);
        hazelcast.getMemberAttributeConfig().setAttribute(ClusterPurge.STARTED_ATTRIBUTE, Long.toString(System.currentTimeMillis())); // when this member starts: one that joins long after it comes back from a split
        hazelcast.getMemberAttributeConfig().setAttribute(PeerEndpoints.BINARY_PORT, Integer.toString(binary.port()));
        hazelcast.getMemberAttributeConfig().setAttribute(PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION);
        if (httpPort > 0) {
            hazelcast.getMemberAttributeConfig().setAttribute(PeerEndpoints.HTTP_PORT, Integer.toString(httpPort));
        }
        String httpHost = RouterSettingsProducer.httpHost();
        if (httpHost != null) {
            hazelcast.getMemberAttributeConfig().setAttribute(PeerEndpoints.HTTP_HOST, httpHost);
        }
    }

    /** The {@code http} transport's path on this member's HTTP server. */
    void register(@Observes Router router) {
        HttpForwardHandler handler = new HttpForwardHandler(receiver, settings.secret());
        router.get(HttpForwarding.PREFIX + "*").order(ORDER).handler(ctx -> handler.handle(ctx.request()));
        router.delete(HttpForwarding.PREFIX + "*").order(ORDER).handler(ctx -> handler.handle(ctx.request()));
    }

    ForwardReceiver receiver() {
        return receiver;
    }

    /** The secret this member's own forwards show (the members share one). */
    ForwardSecret secret() {
        return settings.secret();
    }

    /** Stops taking forwards: the connections close, peers fail over. */
    @PreDestroy
    void close() {
        binary.close();
    }
}
