package io.ketama.bench;

import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ketama the way spymemcached, Dubbo and Jedis hold it: a {@code TreeMap<Long, node>} of point
 * hashes (unsigned, as longs), looked up with {@code ceilingEntry}, wrapping to the first entry.
 * Filled with exactly the points of one of our rings, so it answers the same owners.
 */
public final class TreeMapKetama<T> {

    private final TreeMap<Long, Node<T>> points = new TreeMap<>();

    public TreeMapKetama(KetamaRing<T> ring) {
        int[] hashes = ring.points().hashes();
        for (int i = 0; i < hashes.length; i++) {
            points.put(Integer.toUnsignedLong(hashes[i]), ring.points().node(ring.points().nodeIndexAt(i)));
        }
    }

    public Node<T> locate(byte[] key) {
        Map.Entry<Long, Node<T>> e = points.ceilingEntry(Integer.toUnsignedLong(Crc32.hash(key)));
        return (e != null ? e : points.firstEntry()).getValue();
    }

    public int size() {
        return points.size();
    }
}
