/**
 * The Quarkus extension's runtime: {@code @Inject RingSelector} answers which member owns a key.
 *
 * <p>Public API: {@link io.ketama.quarkus.RingSelector} (selections, the current
 * {@link io.ketama.quarkus.RingSnapshot}, migration), {@link io.ketama.quarkus.Selection},
 * {@link io.ketama.quarkus.MemberAttributes} (how a member is placed),
 * {@link io.ketama.quarkus.MemberAddress} (how a member is named),
 * {@link io.ketama.quarkus.HazelcastConfigCustomizer}, the configuration mappings
 * ({@link io.ketama.quarkus.KetamaConfig}, {@link io.ketama.quarkus.KetamaBuildTimeConfig},
 * {@link io.ketama.quarkus.KetamaConfigCheck}) and the migration value types.
 *
 * <p>Where things live, by file name:
 * <ul>
 *   <li>membership: {@code MembershipWatcher} (membership and serving-state events),
 *       {@code MemberParser}/{@code MemberInfo}/{@code ExcludedMember} (a member's attributes),
 *       {@code MemberBoard}/{@code MemberStatus}/{@code ServingGate}/{@code ServingState} (who
 *       serves, drain), {@code DrainOnShutdown}, {@code RingsLeft};</li>
 *   <li>rings: {@code RingBuilder} (a snapshot from a member set), {@code MemberLifecycle} (this
 *       member over the application's lifetime), {@code ClusterRings} (the member's part in the
 *       cluster: rebuilds, coalesced by {@code CoalescingRebuilder}), {@code RingSnapshot} (what
 *       was built, and all one lookup reads), {@code Candidates};</li>
 *   <li>migration: {@code MigrationSplit} (which ring serves a key), {@code ClusterMigration} (the
 *       cluster-wide state), {@code MigrationRamp}/{@code RampPlan}, {@code MigrationAdminHandler}
 *       (the admin plane) and the value types {@code Migration*};</li>
 *   <li>configuration: {@code KetamaConfig} → {@code KetamaSettings}/{@code ClusterSettings}
 *       (validated), {@code HazelcastConfigs}/{@code KetamaProducers} (the embedded member);</li>
 *   <li>observability: {@code RingMetrics}/{@code MicrometerRingMetrics}, {@code KetamaReadiness},
 *       {@code KetamaLiveness}, {@code ForwardOutcomes}.</li>
 * </ul>
 * The rules about rings (feature tags, weights, address text) are core's ({@code io.ketama.core}).
 */
package io.ketama.quarkus;
