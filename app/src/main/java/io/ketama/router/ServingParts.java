package io.ketama.router;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.EnumLabels;
import io.ketama.router.forwarding.BinaryForwardClient;
import io.ketama.router.forwarding.BinaryForwardServer;
import io.ketama.router.forwarding.FailoverChain;
import io.ketama.router.forwarding.ForwardTargets;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.ForwardSettings;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.forwarding.HazelcastForwardClient;
import io.ketama.router.forwarding.HttpForwardClient;
import io.ketama.router.forwarding.TransportKind;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.Origin;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * This member's serving parts, made from {@link RouterConfig} at start-up: the cache, the bounded
 * origin, the key server, the receiver of other members' forwards (registered in the Hazelcast
 * user context), the transport and guarded forwarder for its own forwards, and the failover
 * chain. A bad setting stops start-up with a message naming its key.
 */
@Startup
@Singleton
class ServingParts {

    private static final Logger LOG = Logger.getLogger(ServingParts.class);
    static final String MAX_BODY_BYTES_KEY = "ketama.router.origin.max-body-bytes";
    static final String CACHE_MAX_BYTES_KEY = "ketama.router.cache.max-bytes";
    /** How long a stopping member waits for the forwarded keys it is serving. */
    private static final long STOP_WAIT_MILLIS = 5_000;

    private final HazelcastInstance hazelcast;
    private final Member localMember;
    private final LocalCache cache;
    private final BodyBudget bodyBudget;
    private final Origin origin;
    private final KeyServer keyServer;
    private final ForwardReceiver receiver;
    private final ForwardTransport transport;
    private final Forwarder forwarder;
    private final FailoverChain chain;
    private final ForwardTargets targets;
    private final ForwardEndpoints endpoints;
    private final RedirectLocations redirects;

    ServingParts(RouterConfig config, HazelcastInstance hazelcast, Vertx vertx, ForwardEndpoints endpoints) {
        this.endpoints = endpoints;
        this.hazelcast = hazelcast;
        this.localMember = hazelcast.getCluster().getLocalMember();
        this.cache = new LocalCache(cacheMaxBytes(config.cache().maxBytes()));
        this.bodyBudget = bodyBudget(config.admission().maxBufferedBytes(), maxBodyBytes(config.origin().maxBodyBytes()));
        this.origin = configured("ketama.router.origin", () -> origin(config.origin(), vertx, bodyBudget));
        this.keyServer = new KeyServer(cache, origin, Members.address(localMember));
        this.redirects = RedirectLocations.of(config.origin().baseUrl(), config.origin().rewriteLocation());
        RouterConfig.Forward f = config.forward();
        ForwardSettings settings = configured("ketama.router.forward", () -> new ForwardSettings(f.timeout(), f.maxRetries(),
                f.retryDelay(), f.breaker().requestVolumeThreshold(), f.breaker().failureRatio(), f.breaker().delay(),
                f.maxCandidates(), f.bulkhead().maxInFlight(), f.bulkhead().maxWaiting()));
        // forwarded answers are held to this member's own limit, whatever the owner's
        int maxBodyBytes = maxBodyBytes(config.origin().maxBodyBytes());
        // and held in the same budget as the origin's bodies, until written to the client
        this.transport = switch (f.transport()) {
            case BINARY -> new BinaryForwardClient(vertx, f.timeout(), expiry(f.timeout()), endpoints.secret(), maxBodyBytes,
                    bodyBudget);
            case HAZELCAST -> new HazelcastForwardClient(hazelcast, vertx, maxBodyBytes, bodyBudget);
            case HTTP -> configured("ketama.router.forward",
                    () -> new HttpForwardClient(vertx, f.timeout(), expiry(f.timeout()), f.http().maxConnections(), endpoints.secret(),
                            maxBodyBytes, bodyBudget));
        };
        this.forwarder = new Forwarder(transport, settings, ForwardTargets.uuids(hazelcast.getCluster().getMembers()));
        this.chain = new FailoverChain(localMember, keyServer, forwarder, settings.maxCandidates());
        this.receiver = endpoints.receiver();
        receiver.attach(keyServer);
        hazelcast.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);
        this.targets = ForwardTargets.follow(hazelcast, forwarder);
        LOG.infof("ketama-router serving on member %s: %s, cache of %d bytes, forwards by %s, %s", keyServer.memberAddress(),
                origin, cache.maxBytes(), EnumLabels.label(transport.kind()), redirects);
    }

    /** When a transport gives up on an unanswered forward: after the guard's timeout, which normally acts first. */
    private static Duration expiry(Duration timeout) {
        return timeout.plus(timeout.dividedBy(2).compareTo(Duration.ofMillis(250)) > 0 ? timeout.dividedBy(2) : Duration.ofMillis(250));
    }

    /**
     * {@code ketama.router.cache.max-bytes} checked: 1 byte to {@link Long#MAX_VALUE}. Read as the
     * {@link BigInteger} it is: a size past a long ({@code 1Z}, {@code 9999999999G}) is refused
     * naming the key, not an {@link ArithmeticException} from {@link MemorySize#asLongValue}.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static long cacheMaxBytes(MemorySize configured) {
        return configured(CACHE_MAX_BYTES_KEY, () -> {
            BigInteger bytes = configured.asBigInteger();
            if (bytes.signum() < 1 || bytes.bitLength() > 63) {
                throw new IllegalArgumentException("must be 1 to " + Long.MAX_VALUE + " bytes, e.g. 64M; was " + bytes);
            }
            return bytes.longValue();
        });
    }

    /**
     * {@code ketama.router.origin.max-body-bytes} checked: 1 to {@link BinaryForwardServer#MAX_BODY_BYTES},
     * so no answer a member serves can make a binary frame past the channel's limit. Read as the
     * {@link BigInteger} it is, so a size past a long is refused like any other too large.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static int maxBodyBytes(MemorySize configured) {
        return configured(MAX_BODY_BYTES_KEY, () -> {
            BigInteger bytes = configured.asBigInteger();
            if (bytes.signum() < 1 || bytes.compareTo(BigInteger.valueOf(BinaryForwardServer.MAX_BODY_BYTES)) > 0) {
                throw new IllegalArgumentException("must be 1 to " + BinaryForwardServer.MAX_BODY_BYTES + " bytes (the binary "
                        + "forward channel's largest frame, 256 MiB, less 256 KiB for the rest of a reply), e.g. 16M; was " + bytes);
            }
            return bytes.intValueExact();
        });
    }

    /**
     * {@code ketama.router.admission.max-buffered-bytes} checked: at least {@code maxBodyBytes} (so one
     * body of the largest size fits); unset, {@link BodyBudget#defaultBytes}.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static BodyBudget bodyBudget(Optional<MemorySize> configured, int maxBodyBytes) {
        return configured(BodyBudget.KEY, () -> {
            if (configured.isEmpty()) {
                return new BodyBudget(BodyBudget.defaultBytes(maxBodyBytes));
            }
            BigInteger bytes = configured.get().asBigInteger();
            if (bytes.compareTo(BigInteger.valueOf(maxBodyBytes)) < 0 || bytes.bitLength() > 63) {
                throw new IllegalArgumentException("must be " + maxBodyBytes + " to " + Long.MAX_VALUE + " bytes (at least "
                        + MAX_BODY_BYTES_KEY + ", so one body of the largest size fits), e.g. 128M, or unset for a "
                        + "quarter of the heap; was " + bytes);
            }
            return new BodyBudget(bytes.longValue());
        });
    }

    private static Origin origin(RouterConfig.Origin config, Vertx vertx, BodyBudget budget) {
        Origin origin;
        int maxBodyBytes = maxBodyBytes(config.maxBodyBytes());
        if (config.baseUrl().isPresent() && !config.baseUrl().get().isBlank()) {
            try {
                origin = new HttpOrigin(vertx, config.baseUrl().get(), config.timeout(), config.maxConnections(), maxBodyBytes,
                        budget);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(".base-url / .timeout / .max-connections: " + e.getMessage(), e);
            }
        } else {
            try {
                origin = new DemoOrigin(config.demoDelay());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(".demo-delay: " + e.getMessage(), e);
            }
        }
        try {
            return new BoundedOrigin(origin, config.maxInFlight());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(".max-in-flight: " + e.getMessage(), e);
        }
    }

    /** Runs a constructor and names the configuration key in its complaint. */
    static <T> T configured(String key, Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            if (message.startsWith("invalid configuration ")) {
                throw e;
            }
            throw new IllegalArgumentException("invalid configuration " + key + (message.startsWith(".") ? "" : ": ") + message, e);
        }
    }

    void stop(@Observes ShutdownEvent event) {
        // refuse new forwards before Hazelcast goes (callers fail over instead of waiting on a dying
        // member), answer those under way, then close the channels
        receiver.detach();
        if (!receiver.awaitIdle(STOP_WAIT_MILLIS)) {
            LOG.warnf("stopping with %d forwarded keys still unanswered after %d ms", receiver.inFlight(), STOP_WAIT_MILLIS);
        }
        try {
            hazelcast.getUserContext().remove(ForwardReceiver.USER_CONTEXT_KEY, receiver);
            targets.close();
        } catch (RuntimeException e) {
            LOG.debug("Hazelcast already stopped", e);
        }
        transport.close();
        endpoints.close();
    }

    Member localMember() {
        return localMember;
    }

    LocalCache cache() {
        return cache;
    }

    /** The bytes of the bodies this member receives and holds ({@code ketama.router.admission.max-buffered-bytes}). */
    BodyBudget bodyBudget() {
        return bodyBudget;
    }

    KeyServer keyServer() {
        return keyServer;
    }

    /** How a redirect's {@code Location} is sent to the client ({@code ketama.router.origin.rewrite-location}). */
    RedirectLocations redirects() {
        return redirects;
    }

    ForwardReceiver receiver() {
        return receiver;
    }

    Forwarder forwarder() {
        return forwarder;
    }

    FailoverChain chain() {
        return chain;
    }

    /** How this member sends keys to their owner. */
    TransportKind transport() {
        return transport.kind();
    }
}
