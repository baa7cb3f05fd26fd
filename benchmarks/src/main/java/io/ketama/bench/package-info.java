/**
 * JMH and JOL benchmarks of the rings beside peer implementations (pingora-style ring as a
 * {@code TreeMap}, spymemcached's locator, Guava's jump hash): lookups, builds, feature rings,
 * hashing and bytes per point. They reach the rings only through core's public API, index-level
 * access through {@link io.ketama.core.KetamaRing#points()}. Run explicitly ({@code benchmarks/run.sh}),
 * never as tests.
 */
package io.ketama.bench;
