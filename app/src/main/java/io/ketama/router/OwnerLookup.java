package io.ketama.router;

import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.ketama.quarkus.ServingState;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a request's key and features header into a {@link Selection}, or into the problem that
 * stops it: malformed or unknown features, a ring not built yet, no member with every required
 * feature.
 */
@Singleton
class OwnerLookup {

    private final RingSelector selector;

    OwnerLookup(RingSelector selector) {
        this.selector = selector;
    }

    /**
     * @param featureHeaders the values of every {@code X-Ketama-Features} header, possibly none
     * @throws ProblemException when the request cannot be routed
     */
    Selection select(RawKey key, List<String> featureHeaders) {
        Set<String> features = FeaturesHeader.parse(featureHeaders);
        RingSnapshot snapshot = readySnapshot();
        TreeSet<String> unknown = features.isEmpty() ? null : new TreeSet<>(features);
        if (unknown != null) {
            unknown.removeAll(snapshot.knownFeatures());
        }
        if (unknown != null && !unknown.isEmpty()) {
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("unknown", List.copyOf(unknown));
            extra.put("allowed", List.copyOf(new TreeSet<>(snapshot.knownFeatures())));
            throw new ProblemException(ProblemType.UNKNOWN_FEATURE, FeaturesHeader.NAME + " names " + unknown
                    + ", which no member on the ring has; known features: " + new TreeSet<>(snapshot.knownFeatures()), extra, null);
        }
        // a membership change since the check above only shows as "no owner": a tag no member has selects nobody
        Selection selection = selector.select(key.bytes(), features);
        if (!selection.found()) {
            throw new ProblemException(ProblemType.NO_QUALIFYING_MEMBER, features.isEmpty()
                    ? "the ring has no member right now"
                    : "no member on the ring has all of " + features + " together; ask for fewer features",
                    Map.of("features", List.copyOf(features)), 1);
        }
        return selection;
    }

    /**
     * The current snapshot, once the rings are ready (or while this member drains).
     *
     * @throws ProblemException 503 while they are not
     */
    RingSnapshot readySnapshot() {
        RingSnapshot snapshot = selector.snapshot();
        // A draining member left the rings on purpose and still routes what reaches it to the owners.
        boolean routes = selector.isReady() || selector.servingState() == ServingState.DRAINING;
        if (!routes || snapshot == null) {
            throw new ProblemException(ProblemType.RING_NOT_READY, snapshot == null
                    ? "the rings are not built yet: this member is still joining the cluster; retry shortly"
                    : "this member is not on the rings yet (generation " + snapshot.generation() + ": " + snapshot.reason()
                      + "); retry shortly", Map.of(), 1);
        }
        return snapshot;
    }

    /**
     * The current snapshot, ready or not.
     *
     * @throws ProblemException 503 before the first rebuild
     */
    RingSnapshot anySnapshot() {
        RingSnapshot snapshot = selector.snapshot();
        if (snapshot == null) {
            throw new ProblemException(ProblemType.RING_NOT_READY, "no ring has been built yet; retry shortly", Map.of(), 1);
        }
        return snapshot;
    }

    /** The migration settings this member applies now. */
    io.ketama.quarkus.MigrationSettings migration() {
        return selector.migration().settings();
    }
}
