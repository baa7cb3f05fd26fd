package io.ketama.router;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.EnumLabels;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.router.caching.CachePolicy;
import io.ketama.router.forwarding.binary.BinaryForwardClient;
import io.ketama.router.forwarding.FailoverChain;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.ForwardTargets;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.forwarding.hazelcast.HazelcastForwardClient;
import io.ketama.router.forwarding.http.HttpForwardClient;
import io.ketama.router.hot.HotKeys;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.LoadBoard;
import io.ketama.router.load.LoadSettings;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.caching.SharedStrings;
import io.ketama.router.purge.ClusterPurge;
import io.ketama.router.purge.MemberPurge;
import io.ketama.router.serving.PurgeMarks;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.GuardedOrigin;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.Origin;
import io.ketama.router.serving.OriginGuard;
import io.ketama.router.tracing.Tracing;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The service's composition root: it makes this member's serving parts from the validated
 * {@link RouterSettings}, in the order each needs the one before (cache and body budget, the
 * origin, the key server, the transport and its guarded forwarder, hot keys and near copies, this
 * member's load and the board it publishes it on, the failover chain), hands them to CDI one by one
 * ({@link Produces}: a class takes the parts it uses, never this root), registers the receiver of
 * other members' forwards in Hazelcast's user context, and closes everything in the reverse order
 * when the service stops. It validates nothing: a bad setting stopped start-up in
 * {@link RouterSettings#from} already.
 */
@Startup
@Singleton
final class RouterParts {

    private static final Logger LOG = Logger.getLogger(RouterParts.class);
    /** How long a stopping member waits for the forwarded keys it is serving. */
    private static final long STOP_WAIT_MILLIS = 5_000;

    private final HazelcastInstance hazelcast;
    private final LocalCache cache;
    private final BodyBudget bodyBudget;
    /** The rules of HTTP caching every stored copy here obeys. */
    private final CachePolicy policy;
    /**
     * The origin as requests the cache takes no part in reach it (other methods, {@code no-store}
     * requests): bounded as the cache's fetches are, with them, but without their fault tolerance, whose
     * retry would send a {@code POST} twice.
     */
    private final BoundedOrigin passOrigin;
    private final KeyServer keyServer;
    private final ForwardTransport transport;
    private final Forwarder forwarder;
    private final HotKeys hotKeys;
    /** Null: no near copies ({@code ketama.router.near-cache.enabled=false}). */
    private final NearCache nearCache;
    /** Halves the hot-key counts every window. */
    private final ScheduledExecutorService hotKeysTimer;
    private final OwnerLoad ownerLoad;
    private final LoadBoard loadBoard;
    private final FailoverChain chain;
    private final ForwardReceiver receiver;
    private final ForwardTargets targets;
    private final ForwardEndpoints endpoints;
    private final RedirectLocations redirects;
    private final ClusterPurge purge;

    RouterParts(RouterSettings settings, HazelcastInstance hazelcast, Vertx vertx, ForwardEndpoints endpoints,
                RingSelector selector, OriginGuard originGuard, Tracing tracing) {
        this.hazelcast = hazelcast;
        this.endpoints = endpoints;
        this.redirects = settings.redirects();
        Member localMember = hazelcast.getCluster().getLocalMember(); // its address only: its UUID changes on a merge
        PurgeMarks marks = new PurgeMarks(System::nanoTime, ClusterPurge.pauseMillis(settings.purge().timeout()));
        this.cache = new LocalCache(settings.cacheMaxBytes(), settings.maxVariants(), SharedStrings.FIELDS, marks);
        this.bodyBudget = new BodyBudget(settings.maxBufferedBytes());
        this.policy = new CachePolicy(settings.cache());
        this.passOrigin = origin(settings.origin(), settings.proxy().via(), vertx, bodyBudget);
        Origin origin = new GuardedOrigin(originGuard, passOrigin);
        this.keyServer = new KeyServer(cache, origin, policy, Members.address(localMember), System::currentTimeMillis);
        this.transport = transport(settings, hazelcast, vertx, endpoints, bodyBudget);
        this.forwarder = new Forwarder(transport, settings.guards(), ForwardTargets.uuids(hazelcast.getCluster().getMembers()));
        RouterSettings.HotKeySettings hot = settings.hotKeys();
        this.hotKeys = new HotKeys(hot.top(), hot.minRequests(), hot.window(), System::nanoTime);
        RouterSettings.NearCacheSettings near = settings.nearCache();
        this.nearCache = near.enabled()
                ? new NearCache(near.maxBytes(), near.ttl(), hotKeys, policy, com.github.benmanes.caffeine.cache.Ticker.systemTicker(),
                        marks)
                : null;
        this.hotKeysTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ketama-router-hot-keys");
            t.setDaemon(true);
            return t;
        });
        long halving = hot.window().toNanos();
        hotKeysTimer.scheduleAtFixedRate(hotKeys::halve, halving, halving, TimeUnit.NANOSECONDS);
        LoadSettings load = settings.boundedLoad().switched(selector.boundedLoad().enabled(), selector.boundedLoad().factor());
        this.ownerLoad = new OwnerLoad(load, hotKeys::isHot);
        this.loadBoard = LoadBoard.start(hazelcast, ownerLoad, () -> ringWeight(selector));
        this.chain = new FailoverChain(keyServer, forwarder, settings.guards().maxCandidates(), load.enabled(), ownerLoad,
                loadBoard::hasRoom);
        this.receiver = endpoints.receiver();
        receiver.tracing(tracing);
        receiver.attach(keyServer, ownerLoad);
        hazelcast.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);
        this.targets = ForwardTargets.follow(hazelcast, forwarder);
        this.purge = ClusterPurge.start(hazelcast, new MemberPurge(cache, nearCache), marks, settings.purge().timeout(),
                settings.purge().missingFor(), () -> draining(selector), forwarder::invalidate);
        LOG.infof("ketama-router serving on member %s: %s, cache of %d bytes, forwards by %s, %s, %s, %s", keyServer.memberAddress(),
                origin, cache.maxBytes(), EnumLabels.label(transport.kind()), redirects, load.enabled()
                        ? "bounded loads (factor " + load.factor() + ", windows of " + load.window().toMillis() + " ms, from "
                          + load.minRate() + " a second)"
                        : "no bounded loads", nearCache == null ? "no near copies"
                        : "near copies of hot keys (" + nearCache.maxBytes() + " bytes, " + nearCache.ttl().toMillis() + " ms)");
    }

    private static BoundedOrigin origin(RouterSettings.OriginSettings settings, String via, Vertx vertx, BodyBudget budget) {
        Origin origin = settings.baseUrl().isPresent()
                ? new HttpOrigin(vertx, settings.baseUrl().get(), settings.timeout(), settings.maxConnections(),
                        settings.maxBodyBytes(), budget, settings.maxHeaderBytes(), via)
                : new DemoOrigin(settings.demoDelay(), settings.demoMaxAge());
        return new BoundedOrigin(origin, settings.maxInFlight());
    }

    /** Forwarded answers are held to this member's own body limit, whatever the owner's, and in the same budget as the origin's. */
    private static ForwardTransport transport(RouterSettings settings, HazelcastInstance hazelcast, Vertx vertx,
                                              ForwardEndpoints endpoints, BodyBudget budget) {
        RouterSettings.ForwardEndpointSettings f = settings.forward();
        int maxBodyBytes = settings.origin().maxBodyBytes();
        return switch (f.transport()) {
            case BINARY -> new BinaryForwardClient(vertx, f.timeout(), expiry(f.timeout()), endpoints.secret(), maxBodyBytes, budget);
            case HAZELCAST -> new HazelcastForwardClient(hazelcast, vertx, maxBodyBytes, budget);
            case HTTP -> new HttpForwardClient(vertx, f.timeout(), expiry(f.timeout()), f.httpMaxConnections(), endpoints.secret(),
                    maxBodyBytes, budget);
        };
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

    /** The members that say they are draining now: they leave gracefully. */
    private static java.util.Set<String> draining(RingSelector selector) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (io.ketama.quarkus.MemberStanding s : selector.memberStandings()) {
            if (s.state() == io.ketama.quarkus.ServingState.DRAINING) {
                out.add(Members.address(s.member()));
            }
        }
        return out;
    }

    /** When a transport gives up on an unanswered forward: after the guard's timeout, which normally acts first. */
    private static Duration expiry(Duration timeout) {
        return timeout.plus(timeout.dividedBy(2).compareTo(Duration.ofMillis(250)) > 0 ? timeout.dividedBy(2) : Duration.ofMillis(250));
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
        purge.close();
        try {
            hazelcast.getUserContext().remove(ForwardReceiver.USER_CONTEXT_KEY, receiver);
            targets.close();
        } catch (RuntimeException e) {
            LOG.debug("Hazelcast already stopped", e);
        }
        transport.close();
        endpoints.close();
    }

    @Produces
    ClusterPurge purge() {
        return purge;
    }

    @Produces
    LocalCache cache() {
        return cache;
    }

    /** The bytes of the bodies this member receives and holds ({@code ketama.router.admission.max-buffered-bytes}). */
    @Produces
    BodyBudget bodyBudget() {
        return bodyBudget;
    }

    @Produces
    KeyServer keyServer() {
        return keyServer;
    }

    @Produces
    CachePolicy policy() {
        return policy;
    }

    /** The origin for requests passed through, unguarded (see the field). */
    @Produces
    BoundedOrigin passOrigin() {
        return passOrigin;
    }

    /** How a redirect's {@code Location} is sent to the client ({@code ketama.router.origin.rewrite-location}). */
    @Produces
    RedirectLocations redirects() {
        return redirects;
    }

    @Produces
    Forwarder forwarder() {
        return forwarder;
    }

    @Produces
    FailoverChain chain() {
        return chain;
    }

    /** This member's load as a key's server, and its bound. */
    @Produces
    OwnerLoad ownerLoad() {
        return ownerLoad;
    }

    /** The cluster's load as this member reads it. */
    @Produces
    LoadBoard loadBoard() {
        return loadBoard;
    }

    /** The keys entering this member that it counts as hot. */
    @Produces
    HotKeys hotKeys() {
        return hotKeys;
    }

    /** Near copies of hot keys; null when off (a {@code @Dependent} producer may make null). */
    @Produces
    NearCache nearCache() {
        return nearCache;
    }
}
