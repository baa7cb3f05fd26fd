package io.ketama.core;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nodes of a ring as flat arrays, one slot per node: the bytes its points are hashed from,
 * its weight, its feature set (as an index into the distinct sets) and its payload, plus one
 * 16-byte {@link Node} per node that reads them (so a lookup hands out a node without allocating).
 *
 * <h2>Cost</h2>
 * With 8-byte object headers (compact headers), per node: the identity bytes
 * ({@code host ‖ 0x00 ‖ port}: 14–20 bytes for an IPv4 {@code a.b.c.d:port}), 4 bytes of offset,
 * 1 byte of port length, 2 of weight, 4 of feature-set index (none when every node has the same
 * set), 4 for the payload reference, 16 for the {@link Node} and 4 for the reference to it: about
 * {@code 35 + identity length} bytes, 49–55 for IPv4 addresses, against ~300 for a {@link Node}
 * record holding a {@link HashIdentity} (two strings, three arrays) and a tree set of tags. A
 * feature set is held once however many nodes share it.
 *
 * <p>An identity whose texts do not come back from their UTF-8 bytes (unpaired surrogates, which
 * encode as {@code '?'}) or whose port text is longer than 255 bytes is also kept whole, in a side
 * map: {@link #identity(int)} returns exactly what was given.
 *
 * <p>Immutable; safely shared by the rings built over the same nodes (a v1 and a v2 ring, a feature
 * ring and its full ring).
 */
final class NodeTable<T> {

    private final byte[] identityBytes;
    private final int[] identityStart;
    private final byte[] portLength;
    private final char[] weights;
    /** Index into {@link #featureSets} per node; null when every node has {@code featureSets[0]}. */
    private final int[] featureIds;
    private final Set<String>[] featureSets;
    private final Object[] payloads;
    /** Identities kept whole (see the class comment); null when none. */
    private final Map<Integer, HashIdentity> exact;
    private final Node<T>[] nodes;

    @SuppressWarnings("unchecked")
    private NodeTable(List<? extends Node<T>> given) {
        int n = given.size();
        int bytes = 0;
        for (Node<T> node : given) {
            bytes += node.identity().byteCount();
        }
        this.identityBytes = new byte[bytes];
        this.identityStart = new int[n + 1];
        this.portLength = new byte[n];
        this.weights = new char[n];
        this.payloads = new Object[n];
        Map<Set<String>, Integer> distinct = new HashMap<>();
        int[] ids = new int[n];
        Map<Integer, HashIdentity> odd = null;
        int at = 0;
        for (int i = 0; i < n; i++) {
            Node<T> node = given.get(i);
            HashIdentity id = node.identity();
            identityStart[i] = at;
            at = id.copyBytesTo(identityBytes, at);
            int port = id.portByteCount();
            portLength[i] = (byte) port;
            if (port > 255 || !id.roundTrips()) {
                if (odd == null) {
                    odd = new HashMap<>();
                }
                odd.put(i, id);
            }
            weights[i] = (char) node.weight();
            payloads[i] = node.payload();
            Integer f = distinct.putIfAbsent(node.features(), distinct.size());
            ids[i] = f == null ? distinct.size() - 1 : f;
        }
        identityStart[n] = at;
        this.exact = odd;
        this.featureSets = new Set[Math.max(1, distinct.size())];
        featureSets[0] = Set.of();
        distinct.forEach((set, index) -> featureSets[index] = set);
        this.featureIds = distinct.size() > 1 ? ids : null;
        this.nodes = new Node[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new Node<>(this, i);
        }
    }

    /** A table of {@code given}'s values, with a new {@link Node} per node reading it. */
    static <T> NodeTable<T> of(List<? extends Node<T>> given) {
        return new NodeTable<>(given);
    }

    int size() {
        return nodes.length;
    }

    /** The table's own node {@code i}. */
    Node<T> node(int i) {
        return nodes[i];
    }

    /** The table's nodes (the array itself: callers must not change it). */
    Node<T>[] nodes() {
        return nodes;
    }

    int weight(int i) {
        return weights[i];
    }

    Set<String> features(int i) {
        return featureSets[featureIds == null ? 0 : featureIds[i]];
    }

    @SuppressWarnings("unchecked")
    T payload(int i) {
        return (T) payloads[i];
    }

    /** The identity of node {@code i}: a new object equal to the one given (kept whole where the bytes cannot rebuild it). */
    HashIdentity identity(int i) {
        if (exact != null) {
            HashIdentity kept = exact.get(i);
            if (kept != null) {
                return kept;
            }
        }
        int start = identityStart[i];
        int end = identityStart[i + 1];
        int port = portLength[i] & 0xFF;
        int hostEnd = end - port - 1;
        return HashIdentity.of(new String(identityBytes, start, hostEnd - start, StandardCharsets.UTF_8),
                new String(identityBytes, hostEnd + 1, port, StandardCharsets.UTF_8));
    }
}
