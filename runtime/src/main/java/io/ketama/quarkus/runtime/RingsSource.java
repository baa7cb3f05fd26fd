package io.ketama.quarkus.runtime;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.MemberStanding;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.ServingState;

import java.util.List;

/**
 * Where {@link MemberRingSelector} reads the rings, the split and the migration state: a member's
 * {@link ClusterRings} or a Hazelcast client's {@link ClientRings}. Every read is of state kept
 * current in the background: none waits on the cluster except {@link #updateMigration}.
 */
interface RingsSource {

    /** The rings in use and their selection counters, in one read. */
    ClusterRings.InUse inUse();

    /** Which ring serves which key now. */
    MigrationSplit split();

    /** Where shadow selections are counted. */
    ShadowCounts shadows();

    /** The migration state applied here. */
    MigrationState migration();

    MigrationSource migrationSource();

    /** This process's serving state as the cluster sees it (a client is never on the rings: {@code null}). */
    ServingState servingState();

    /** Whether selections may be answered from these rings now (the readiness condition). */
    boolean ready();

    /** See {@link io.ketama.quarkus.RingSelector#updateMigration(MigrationSettings, long, String)}. */
    MigrationState updateMigration(MigrationSettings next, long expectedGeneration, String who);

    /** Where each member says it stands, as last heard. */
    List<MemberStanding> standings();

    /** The Hazelcast instance (member or client) the rings follow the cluster through. */
    HazelcastInstance hazelcast();
}
