package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.RingsLeft;
import java.time.Duration;
import java.util.Collection;

/**
 * The extension's part in the cluster ({@link ClusterRings}) on a plain Hazelcast member, for the
 * tests of other modules (the deployment's {@code QuarkusUnitTest}s and the direct client's run it on
 * members beside the application): {@code ClusterRings} and {@link RingBuilder} are package-private
 * wiring, so this test fixture, shipped in this module's test jar only, is their way in.
 */
public final class MemberPart implements AutoCloseable {

    private final ClusterRings rings;

    private MemberPart(ClusterRings rings) {
        this.rings = rings;
    }

    /**
     * Runs the member part on {@code hazelcast} (whose configuration should carry the member attributes
     * and, to be placed only once it serves, the gate); returns once the cluster's migration state is
     * adopted and the first rings are built. {@link #open()} when it serves.
     */
    public static MemberPart startOn(HazelcastInstance hazelcast, RingSettings ring, MigrationSettings configured, MigrationSource source,
            Duration coalesceDelay) {
        return new MemberPart(ClusterRings.startOn(hazelcast, ring, configured, source, coalesceDelay));
    }

    /** The rings {@code members} make with {@code ring}, as every member builds them ({@code local} null: built by none of them). */
    public static RingSnapshot build(RingSettings ring, Collection<Member> members, Member local) {
        return new RingBuilder(ring).build(members, local, 0, "built by a test");
    }

    public void open() {
        rings.open();
    }

    public RingsLeft drain(Duration timeout, Duration quietPeriod) throws InterruptedException {
        return rings.drain(timeout, quietPeriod);
    }

    public RingSnapshot snapshot() {
        return rings.snapshot();
    }

    public MigrationState migration() {
        return rings.migration();
    }

    public MigrationState updateMigration(MigrationSettings next, long expectedGeneration, String who) {
        return rings.updateMigration(next, expectedGeneration, who);
    }

    @Override
    public void close() {
        rings.close();
    }
}
