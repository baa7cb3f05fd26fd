package io.ketama.router;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.EnumLabels;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.router.hot.HotKeys;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.LoadBoard;
import io.ketama.router.load.LoadSettings;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.forwarding.binary.BinaryForwardClient;
import io.ketama.router.forwarding.binary.BinaryForwardServer;
import io.ketama.router.forwarding.FailoverChain;
import io.ketama.router.forwarding.ForwardTargets;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.ForwardSettings;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.forwarding.hazelcast.HazelcastForwardClient;
import io.ketama.router.forwarding.http.HttpForwardClient;
import io.ketama.router.forwarding.TransportKind;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.GuardedOrigin;
import io.ketama.router.serving.OriginGuard;
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
 * user context), the transport and guarded forwarder for its own forwards, the failover
 * chain, and its load as a key's server with the board it publishes it on (bounded loads). A bad
 * setting stops start-up with a message naming its key.
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
    private final OwnerLoad ownerLoad;
    private final LoadBoard loadBoard;
    private final HotKeys hotKeys;
    /** Null: no near copies ({@code ketama.router.near-cache.enabled=false}). */
    private final NearCache nearCache;
    /** Halves the hot-key counts every window. */
    private final java.util.concurrent.ScheduledExecutorService hotKeysTimer;
    /** Where the entry member's and the owner's spans start ({@link Tracing#OFF} in an untraced build). */
    private final io.ketama.router.tracing.Tracing tracing;

    ServingParts(RouterConfig config, HazelcastInstance hazelcast, Vertx vertx, ForwardEndpoints endpoints, RingSelector selector,
                 OriginGuard originGuard, io.ketama.router.tracing.Tracing tracing) {
        this.tracing = tracing;
        this.endpoints = endpoints;
        this.hazelcast = hazelcast;
        Member localMember = hazelcast.getCluster().getLocalMember(); // its address only: its UUID changes on a merge
        this.cache = new LocalCache(cacheMaxBytes(config.cache().maxBytes()));
        this.bodyBudget = bodyBudget(config.admission().maxBufferedBytes(), maxBodyBytes(config.origin().maxBodyBytes()));
        this.origin = configured("ketama.router.origin", () -> new GuardedOrigin(originGuard, origin(config.origin(), vertx, bodyBudget)));
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
        this.hotKeys = hotKeys(config.hotKeys());
        this.nearCache = nearCache(config.nearCache(), hotKeys);
        this.hotKeysTimer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ketama-router-hot-keys");
            t.setDaemon(true);
            return t;
        });
        long halving = hotKeys.window().toNanos();
        hotKeysTimer.scheduleAtFixedRate(hotKeys::halve, halving, halving, java.util.concurrent.TimeUnit.NANOSECONDS);
        LoadSettings load = loadSettings(config.boundedLoad(), selector.boundedLoad().enabled(), selector.boundedLoad().factor());
        this.ownerLoad = new OwnerLoad(load, hotKeys::isHot);
        this.loadBoard = LoadBoard.start(hazelcast, ownerLoad, () -> ringWeight(selector));
        this.chain = new FailoverChain(keyServer, forwarder, settings.maxCandidates(), load.enabled(), ownerLoad,
                loadBoard::hasRoom);
        this.receiver = endpoints.receiver();
        receiver.tracing(tracing);
        receiver.attach(keyServer, ownerLoad);
        hazelcast.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);
        this.targets = ForwardTargets.follow(hazelcast, forwarder);
        LOG.infof("ketama-router serving on member %s: %s, cache of %d bytes, forwards by %s, %s, %s, %s", keyServer.memberAddress(),
                origin, cache.maxBytes(), EnumLabels.label(transport.kind()), redirects, load.enabled()
                        ? "bounded loads (factor " + load.factor() + ", windows of " + load.window().toMillis() + " ms, from "
                          + load.minRate() + " a second)"
                        : "no bounded loads", nearCache == null ? "no near copies"
                        : "near copies of hot keys (" + nearCache.maxBytes() + " bytes, " + nearCache.ttl().toMillis() + " ms)");
    }

    /**
     * {@code ketama.router.hot-keys.*} checked.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static HotKeys hotKeys(RouterConfig.HotKeys config) {
        return configured("ketama.router.hot-keys", () -> new HotKeys(config.top(), config.minRequests(), config.window(),
                System::nanoTime));
    }

    /**
     * {@code ketama.router.near-cache.*} checked; null when it is off.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static NearCache nearCache(RouterConfig.NearCache config, HotKeys hot) {
        long bytes = configured("ketama.router.near-cache.max-bytes", () -> {
            BigInteger b = config.maxBytes().asBigInteger();
            if (b.signum() < 1 || b.bitLength() > 63) {
                throw new IllegalArgumentException("must be 1 to " + Long.MAX_VALUE + " bytes, e.g. 16M; was " + b);
            }
            return b.longValue();
        });
        NearCache near = configured("ketama.router.near-cache",
                () -> new NearCache(bytes, config.ttl(), hot, com.github.benmanes.caffeine.cache.Ticker.systemTicker()));
        return config.enabled() ? near : null;
    }

    /**
     * The service's bounded-load settings: {@code ketama.router.bounded-load.*} checked, with the
     * extension's switch and factor ({@code quarkus.ketama.bounded-load.*}, validated by it).
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static LoadSettings loadSettings(RouterConfig.BoundedLoad config, boolean enabled, double factor) {
        return configured(LoadSettings.KEY, () -> new LoadSettings(enabled, factor, config.window(), config.minRate()));
    }

    /** This member's weight on the rings now; 0 while it is not on them (starting, draining). */
    private static int ringWeight(RingSelector selector) {
        if (!selector.isReady()) {
            return 0;
        }
        RingSnapshot snapshot = selector.snapshot();
        for (MemberInfo m : snapshot.members()) {
            if (m.member().localMember()) {
                return m.weight();
            }
        }
        return 0;
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
        loadBoard.close(); // the others stop counting this member at once
        hotKeysTimer.shutdownNow();
        try {
            hazelcast.getUserContext().remove(ForwardReceiver.USER_CONTEXT_KEY, receiver);
            targets.close();
        } catch (RuntimeException e) {
            LOG.debug("Hazelcast already stopped", e);
        }
        transport.close();
        endpoints.close();
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

    io.ketama.router.tracing.Tracing tracing() {
        return tracing;
    }

    FailoverChain chain() {
        return chain;
    }

    /** This member's load as a key's server, and its bound. */
    OwnerLoad ownerLoad() {
        return ownerLoad;
    }

    /** The cluster's load as this member reads it. */
    LoadBoard loadBoard() {
        return loadBoard;
    }

    /** The keys entering this member that it counts as hot. */
    HotKeys hotKeys() {
        return hotKeys;
    }

    /** Near copies of hot keys; null when off. */
    NearCache nearCache() {
        return nearCache;
    }

    /** How this member sends keys to their owner. */
    TransportKind transport() {
        return transport.kind();
    }
}
