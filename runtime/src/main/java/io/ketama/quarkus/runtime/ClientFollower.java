package io.ketama.quarkus.runtime;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.BoundedLoadSettings;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingSelector;
import java.util.Objects;

/**
 * The client role without Quarkus: a {@link RingSelector} that follows the cluster through a
 * Hazelcast client the application made itself, for a JVM application that does not run the
 * extension (a batch job, a Spring service, a load generator, a test). It answers as
 * {@code quarkus.ketama.role=client} does (runtime/README, "Member or client"): the member list,
 * the member board's serving states and the cluster's migration state followed, the load board read
 * for {@link RingSelector#selectBounded(String, java.util.Set)}, on no ring, no
 * migration changes, the last rings kept while disconnected; a change reaches its rings within
 * about {@link #BOUND}.
 *
 * <pre>{@code
 * HazelcastInstance hz = HazelcastClient.newHazelcastClient(config);   // the cluster's name and members
 * try (ClientFollower follower = ClientFollower.follow(hz, new RingSettings(HashStyle.PINGORA, 16))) {
 *     Selection s = follower.selector().select("/objects/1");
 * }
 * }</pre>
 *
 * <p>The ring settings must be the members' ({@code quarkus.ketama.hash-style} and its options,
 * {@code quarkus.ketama.v2.points-per-weight}): they are configuration, not cluster state, and a
 * client given others places keys elsewhere. Public because an application outside Quarkus has no
 * other way in; not part of the API package.
 */
public final class ClientFollower implements AutoCloseable {

    /**
     * How soon a change of membership, serving state or migration generation reaches the rings, at
     * most: the maps' re-read, the coalesced rebuild, and a build of up to 1,000 members.
     */
    public static final java.time.Duration BOUND = ClientRings.REREAD.plus(ClientRings.COALESCE).plus(java.time.Duration.ofMillis(200));

    private final ClientRings rings;
    private final MemberRingSelector selector;

    private ClientFollower(ClientRings rings, BoundedLoadSettings bounded) {
        this.rings = rings;
        this.selector = new MemberRingSelector(rings, RingMetrics.NONE, bounded);
    }

    /**
     * Follows the cluster {@code client} is connected to, with the default migration settings until
     * the cluster's are read and bounded loads off; returns once the first rings are built.
     *
     * @throws IllegalArgumentException when {@code client} is a member, not a client
     */
    public static ClientFollower follow(HazelcastInstance client, RingSettings ring) {
        return follow(client, ring, MigrationSettings.DEFAULT, BoundedLoadSettings.DEFAULT);
    }

    /**
     * @param configured the migration settings applied until the cluster's state is read
     * @param bounded    the members' {@code quarkus.ketama.bounded-load.*}, for {@link RingSelector#selectBounded}
     */
    public static ClientFollower follow(HazelcastInstance client, RingSettings ring, MigrationSettings configured,
            BoundedLoadSettings bounded) {
        Objects.requireNonNull(client, "client");
        if (!HazelcastRole.isClient(client)) {
            throw new IllegalArgumentException("ClientFollower needs a Hazelcast client; " + client.getName()
                    + " is a member (a member runs the extension, whose RingSelector it injects)");
        }
        ClientRings rings = new ClientRings(client, Objects.requireNonNull(ring, "ring"), Objects.requireNonNull(configured, "configured"),
                true, RingMetrics.NONE);
        rings.start();
        return new ClientFollower(rings, Objects.requireNonNull(bounded, "bounded"));
    }

    /** The selector: the members' answer for every key once a change has reached this client. */
    public RingSelector selector() {
        return selector;
    }

    /** Stops following and reading the load board (the Hazelcast client stays the application's). */
    @Override
    public void close() {
        selector.close();
        rings.close();
    }
}
