/**
 * The rings: pure Java, no dependencies, usable without Quarkus or Hazelcast.
 *
 * <p>What a user needs is public: {@link io.ketama.core.KetamaRing} (build a v1, v2 or
 * memcached-style ring from {@link io.ketama.core.Node}s and ask it for a key's owner and
 * failover order), {@link io.ketama.core.FeatureRings} (the same answers restricted to nodes
 * with required features), {@link io.ketama.core.RingAnalysis} and
 * {@link io.ketama.core.RingDiff} (exact balance, and the exact cost of a change), the identity
 * a node is hashed from ({@link io.ketama.core.HashIdentity}, {@link io.ketama.core.HashStyle},
 * {@link io.ketama.core.RingVersion}) and the hashes ({@link io.ketama.core.Crc32}). Index-level
 * access (positions, node indices, allocation-free candidate indices, the storage objects) is
 * one view, {@link io.ketama.core.KetamaRing#points()}.
 *
 * <p>The rules every module applies are defined here once: the feature-tag grammar
 * ({@link io.ketama.core.FeatureTags}), the weight bound ({@link io.ketama.core.Node#MAX_WEIGHT}),
 * the address text of a server or member ({@link io.ketama.core.HashIdentity#addressText}) and
 * the text form of enum values ({@link io.ketama.core.EnumLabels}).
 *
 * <p>Package-private: the storage (a compact point table with an index on the top hash bits, a
 * side table of points that lost a collision), how each version or memcached style makes and
 * ranks points ({@code Placement}), ring walks, and the feature-set plans with their
 * memory-budgeted cache ({@code FeatureSetCache}).
 */
package io.ketama.core;
