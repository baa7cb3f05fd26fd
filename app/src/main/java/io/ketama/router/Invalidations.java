package io.ketama.router;

import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.purge.ClusterPurge;
import io.ketama.router.purge.PurgeCommand;
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
 * either mount files it by, on every member: a purge of those keys ({@link ClusterPurge}), so the
 * owner, spill candidates, former owners and every near copy drop them. The client is answered once
 * the members confirmed or the purge's wait ended ({@code ketama.router.purge.timeout}): a client
 * that reads what it just wrote is not served the old answer by any member that confirmed.
 */
@Singleton
class Invalidations {

    private static final Logger LOG = Logger.getLogger(Invalidations.class);

    private final RequestReader reader;
    private final ClusterPurge purge;
    private final LongAdder failed = new LongAdder();

    Invalidations(RequestReader reader, ClusterPurge purge) {
        this.reader = reader;
        this.purge = purge;
    }

    /** Invalidates what {@code answer} to the unsafe {@code request} invalidates; completes when done (never exceptionally). */
    CompletionStage<Void> after(ProxiedRequest request, OriginAnswer answer) {
        Set<String> keys = new LinkedHashSet<>();
        for (String target : targets(request, answer)) {
            keys.addAll(reader.keysOf(target, request));
        }
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return purge.purge(PurgeCommand.ofKeys(new ArrayList<>(keys))).thenAccept(outcome -> {
            if (!outcome.complete()) {
                failed.increment();
                LOG.debugf("an unsafe request's invalidation of %s was not confirmed by %s", keys, outcome.notConfirmed().keySet());
            }
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

    /** Invalidations some member did not confirm so far. */
    long failed() {
        return failed.sum();
    }
}
