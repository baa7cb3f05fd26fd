package io.ketama.core;

import java.util.List;

/**
 * The rules of one ring family, everything but the storage: how many points each node makes and
 * where, which node keeps a point several nodes make, how a key is hashed, and how failover walks.
 * Every family stores its points in the same {@link PointTable} and answers lookups through it.
 */
abstract class Placement {

    /** How a ring lists the failover candidates of a key. */
    enum Failover {
        /** Distinct nodes of the points from the key's position, one turn; a point lost to a collision is gone. */
        RING_WALK,
        /** As {@link #RING_WALK}, but at a point several nodes made, each of them in tie-break order. */
        RING_WALK_EQUAL_POINTS,
        /** Distinct owners of the client's probe hashes of the key (spymemcached's seven, xmemcached's servers + 1), in probe order. */
        PROBES,
        /**
         * The owner, then the owner on the ring built again without the candidates so far, and so on:
         * what a program does that takes failed servers out and rebuilds (twemproxy's and libmemcached's
         * auto-ejection, whose point counts are shares of the live servers' weight).
         */
        REBUILD
    }

    /** The ring version, or null for a memcached style. */
    abstract RingVersion version();

    /** The memcached style, or null for a v1/v2 ring. */
    abstract HashStyle style();

    /** Points per weight unit (v1/v2), or the nominal points per server of a memcached style (160). */
    abstract int pointsPerWeight();

    /** {@code v1}, {@code v2} or the style's label. */
    abstract String label();

    /** {@code crc32} or {@code md5}: rings whose key hashes differ place one key at unrelated positions. */
    abstract String keyHash();

    /** Points each node makes, in node order; their sum is checked against {@link KetamaRing#MAX_POINTS} by the caller. */
    abstract long[] pointCounts(List<? extends Node<?>> nodes);

    /** Node indices in tie-break order: of several nodes making one point, the first here keeps it. */
    abstract int[] rankOrder(HashIdentity[] identities);

    /**
     * Writes {@code count} points of the node of {@code identity} to {@code raw} from {@code p},
     * each as {@code hash << 32 | rank}; returns the index after the last one written.
     */
    abstract int emit(HashIdentity identity, int count, int rank, long[] raw, int p);

    abstract int hashKey(byte[] key, int offset, int length);

    abstract int hashKey(CharSequence key);

    abstract Failover failover();

    /**
     * The placement a ring of {@code nodes} is built with: this one, unless the program decides
     * its rules from the servers it is given (libmemcached turns to its weighted continuum when a
     * server of weight above 1 is added). Rings rebuilt for failover keep the decision.
     */
    Placement forNodes(List<? extends Node<?>> nodes) {
        return this;
    }

    /** How many probes a key gets on a ring of {@code nodes} nodes (PROBES only). */
    int probes(int nodes) {
        return MemcachedPlacement.PROBES;
    }

    /**
     * Of {@code entries} points of one hash (several nodes, or one node twice), in tie-break
     * order, the index of the one that keeps it: the first, unless the program picks by the hash.
     */
    int tieWinner(int hash, int entries) {
        return 0;
    }

    /** Whether {@link #tieWinner} depends on the hash (else the first in tie-break order keeps every shared point). */
    boolean picksTieWinner() {
        return false;
    }

    /** Hash of probe {@code t + 1} given probe {@code t}'s (PROBES only). */
    int nextProbe(int probe, int t, byte[] key, int offset, int length) {
        throw new UnsupportedOperationException(label() + " has no probes");
    }

    /** {@link #nextProbe(int, int, byte[], int, int)} for the UTF-8 bytes of {@code key}. */
    int nextProbe(int probe, int t, CharSequence key) {
        throw new UnsupportedOperationException(label() + " has no probes");
    }
}
