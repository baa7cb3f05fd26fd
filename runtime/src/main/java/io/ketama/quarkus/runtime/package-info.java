/**
 * The extension's wiring: what makes {@link io.ketama.quarkus.RingSelector} answer. Nothing here is
 * an API; an application uses {@link io.ketama.quarkus} only.
 *
 * <p>Where things live, by file name:
 * <ul>
 *   <li>the member's lifetime: {@code MemberLifecycle} (CDI: starts, serves, drains, stops) around
 *       {@code ClusterRings} (the member's part in the cluster, without CDI), {@code DrainOnShutdown},
 *       {@code KetamaClusterRecorder} (what the build steps record);</li>
 *   <li>membership: {@code MembershipWatcher} (membership and serving-state events),
 *       {@code MemberParser} (a member's attributes), {@code MemberBoard}/{@code MemberStatus}/
 *       {@code ServingGate} (who serves, drain);</li>
 *   <li>rings: {@code RingBuilder} (a snapshot from a member set, under {@code RingSettings}),
 *       rebuilds coalesced by {@code CoalescingRebuilder};</li>
 *   <li>migration: {@code MigrationSplit} (which ring serves a key), {@code ClusterMigration} (the
 *       cluster-wide state), {@code MigrationQuorum}, {@code ConfigurationRollout}/
 *       {@code ConfiguredMigration}/{@code AdoptedConfiguration} (configuration offered to the
 *       cluster), {@code MigrationRamp}/{@code RampPlan}, {@code MigrationStateText};</li>
 *   <li>the admin plane: {@code MigrationAdminHandler}, {@code RampAdminHandler}, {@code MigrationChange},
 *       {@code AdminHttp}, {@code IfMatch};</li>
 *   <li>configuration: {@code KetamaSettings}/{@code ClusterSettings} (validated), {@code SettingsCheck},
 *       {@code HazelcastConfigs}/{@code KetamaProducers} (the embedded member), hardened by
 *       {@code HazelcastHardening}, {@code MemberAllowlist}, {@code AllowlistNodeContext};</li>
 *   <li>observability: {@code RingMetrics}/{@code MicrometerRingMetrics}, {@code KetamaReadiness},
 *       {@code KetamaLiveness}, {@code RingShares}.</li>
 * </ul>
 *
 * <p>Classes are package-private unless another package needs them; each public one says why in
 * its javadoc. Two reasons occur: Quarkus calls it from generated code, the build steps name it, or
 * {@link java.util.ServiceLoader} makes it ({@code KetamaClusterRecorder}, {@code RegisteredClasses},
 * {@code SettingsCheck}); or an application outside Quarkus follows the cluster through it
 * ({@code ClientFollower} and the {@code RingSettings} it takes). Other modules' tests run the member
 * part on plain members through {@code MemberPart}, a fixture of this module's test jar. The build
 * steps register the package-private beans
 * and health checks by name ({@code RegisteredClasses}).
 */
package io.ketama.quarkus.runtime;
