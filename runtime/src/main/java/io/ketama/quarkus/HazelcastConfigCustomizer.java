package io.ketama.quarkus;

import com.hazelcast.config.Config;

/**
 * Changes the embedded member's Hazelcast {@link Config} before the member starts: a bean of this
 * type in the application is called once, after the extension has built the configuration; the
 * extension's own {@link MemberAttributes} are set again afterwards, so they always hold what the
 * extension's settings say.
 *
 * <p>For what only the application knows at start-up: a member attribute that tells the other
 * members where this one listens for its own traffic, serializer factories, executor limits. Not
 * called when the application produces its own {@code HazelcastInstance}.
 */
public interface HazelcastConfigCustomizer {

    /** Changes {@code config} in place; throwing stops start-up. */
    void customize(Config config);
}
