/**
 * The Quarkus extension's API: {@code @Inject RingSelector} answers which member owns a key.
 *
 * <p>What an application uses, and nothing else: {@link io.ketama.quarkus.RingSelector} (selections,
 * the current {@link io.ketama.quarkus.RingSnapshot}, the cluster's
 * {@link io.ketama.quarkus.MigrationState}) and the values it answers with
 * ({@link io.ketama.quarkus.Selection}, {@link io.ketama.quarkus.BoundedSelection},
 * {@link io.ketama.quarkus.MemberInfo}, {@link io.ketama.quarkus.ExcludedMember},
 * {@link io.ketama.quarkus.RingStats}, {@link io.ketama.quarkus.MemberStanding},
 * {@link io.ketama.quarkus.ServingState}, the migration values and exceptions); the event
 * {@link io.ketama.quarkus.RingsLeft}; what an application provides or sets
 * ({@link io.ketama.quarkus.HazelcastConfigCustomizer}, {@link io.ketama.quarkus.ForwardOutcomes},
 * {@link io.ketama.quarkus.HotKeySource}, {@link io.ketama.quarkus.MemberAttributes} for a member it
 * starts itself); naming and drawing members ({@link io.ketama.quarkus.MemberAddress},
 * {@link io.ketama.quarkus.RingPicture}); and the configuration ({@link io.ketama.quarkus.KetamaConfig},
 * {@link io.ketama.quarkus.KetamaBuildTimeConfig}, checked ahead of time by
 * {@link io.ketama.quarkus.KetamaConfigCheck}).
 *
 * <p>Everything that makes these work (the member's lifetime and its {@code RingSelector}, rebuilds,
 * membership, migration, the admin plane, health, metrics, the embedded Hazelcast member) is in
 * the extension's runtime package, package-private where it can be; this package imports nothing
 * from it (a test says so), and finds the start-up rules {@link io.ketama.quarkus.KetamaConfigCheck}
 * applies as a service. The few API members that only the runtime calls (the {@code RingSnapshot}
 * constructor, the exceptions' factories) say so.
 *
 * <p>The rules about rings (feature tags, weights, address text) are core's ({@code io.ketama.core}).
 */
package io.ketama.quarkus;
