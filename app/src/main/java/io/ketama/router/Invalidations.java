package io.ketama.router;

import com.hazelcast.cluster.Member;
import io.ketama.quarkus.Selection;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.hot.NearCache;
import io.ketama.router.serving.KeyServer;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import org.jboss.logging.Logger;

/**
 * What an unsafe request that succeeded invalidates (RFC 9111 §4.4): the stored answers of its
 * target, and of the targets its answer's {@code Location} and {@code Content-Location} name where
 * they are on the same origin (a path, or a URL on the request's own host), each under the key
 * either mount files it by. For each key: its owner's stored answers (asked over the member channel,
 * within the forward time limit), and this member's own copies (a store it held the key in after a
 * failover or a spill, its near copy). The client is answered once these are done or have failed: a
 * client that reads what it just wrote through the same member is not served the old answer by the
 * owner. Other members' near copies and copies are left to expire by their own bounds (at most
 * {@code ketama.router.near-cache.ttl}, and the answer's freshness): cluster-wide purges are the
 * purge API's.
 */
@Singleton
class Invalidations {

    private static final Logger LOG = Logger.getLogger(Invalidations.class);

    private final OwnerLookup owners;
    private final RequestReader reader;
    private final KeyServer keyServer;
    private final Forwarder forwarder;
    /** Null: no near copies. */
    private final NearCache near;
    private final LongAdder failed = new LongAdder();

    Invalidations(OwnerLookup owners, RequestReader reader, KeyServer keyServer, Forwarder forwarder, NearCache near) {
        this.owners = owners;
        this.reader = reader;
        this.keyServer = keyServer;
        this.forwarder = forwarder;
        this.near = near;
    }

    /** Invalidates what {@code answer} to the unsafe {@code request} invalidates; completes when done (never exceptionally). */
    CompletionStage<Void> after(ProxiedRequest request, OriginAnswer answer) {
        Set<String> keys = new LinkedHashSet<>();
        for (String target : targets(request, answer)) {
            keys.addAll(reader.keysOf(target, request));
        }
        List<CompletableFuture<Void>> done = new ArrayList<>(keys.size());
        for (String key : keys) {
            keyServer.invalidate(key);
            if (near != null) {
                near.invalidate(key);
            }
            done.add(owner(key));
        }
        return CompletableFuture.allOf(done.toArray(new CompletableFuture[0]));
    }

    /** The owner of {@code key} asked to drop it, unless it is this member; failures counted and logged, not raised. */
    private CompletableFuture<Void> owner(String key) {
        Selection selection;
        try {
            selection = owners.select(RawKey.checked(key), List.of());
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(null); // no ring yet or no key: nothing is stored under it
        }
        Member owner = selection.owner();
        if (owner.localMember()) {
            return CompletableFuture.completedFuture(null);
        }
        return forwarder.invalidate(owner, key).toCompletableFuture().handle((v, failure) -> {
            if (failure != null) {
                failed.increment();
                LOG.debugf(failure, "the owner of a key an unsafe request changed did not drop its stored answers");
            }
            return null;
        });
    }

    /** The request's own target, and its answer's {@code Location} and {@code Content-Location} on the same origin. */
    static List<String> targets(ProxiedRequest request, OriginAnswer answer) {
        List<String> targets = new ArrayList<>(3);
        targets.add(request.target());
        for (String field : new String[] {"Location", "Content-Location"}) {
            String named = answer.headers().first(field);
            String target = named == null ? null : sameOrigin(request, named);
            if (target != null && !targets.contains(target)) {
                targets.add(target);
            }
        }
        return targets;
    }

    /** {@code reference} resolved against the request's target, as an origin target, where it is on the same origin; else null. */
    private static String sameOrigin(ProxiedRequest request, String reference) {
        try {
            URI base = new URI("http://h" + request.target());
            URI resolved = base.resolve(new URI(reference.trim()));
            if (new URI(reference.trim()).isAbsolute()) {
                String host = request.host();
                if (host == null || resolved.getRawAuthority() == null || !resolved.getRawAuthority().equalsIgnoreCase(host)) {
                    return null; // another origin's: not this cache's to invalidate (RFC 9111 §4.4)
                }
            }
            String path = resolved.getRawPath() == null || resolved.getRawPath().isEmpty() ? "/" : resolved.getRawPath();
            return resolved.getRawQuery() == null ? path : path + "?" + resolved.getRawQuery();
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            return null; // not a reference this member can resolve: nothing to invalidate by it
        }
    }

    /** Invalidations of an owner that failed so far. */
    long failed() {
        return failed.sum();
    }
}
