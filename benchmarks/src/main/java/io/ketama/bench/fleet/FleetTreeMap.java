package io.ketama.bench.fleet;

import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ketama as spymemcached, Dubbo and Jedis hold it: a {@code TreeMap<Long, payload>} of the unsigned
 * point hashes, looked up with {@code ceilingEntry}, wrapping to the first entry; failover walks
 * the entries from there for distinct payloads. Filled with exactly the points of one of our rings,
 * so it answers the same owners (FixturesTest checks it).
 */
public final class FleetTreeMap {

    private final TreeMap<Long, String> points = new TreeMap<>();

    public FleetTreeMap(KetamaRing<String> ring) {
        int[] hashes = ring.points().hashes();
        for (int i = 0; i < hashes.length; i++) {
            points.put(Integer.toUnsignedLong(hashes[i]), ring.points().node(ring.points().nodeIndexAt(i)).payload());
        }
    }

    public String locate(byte[] key) {
        Map.Entry<Long, String> e = points.ceilingEntry(Integer.toUnsignedLong(Crc32.hash(key)));
        return (e != null ? e : points.firstEntry()).getValue();
    }

    /** The first {@code out.length} distinct payloads from the key's point on, one turn at most; returns how many. */
    public int candidates(byte[] key, String[] out) {
        long h = Integer.toUnsignedLong(Crc32.hash(key));
        int found = walk(points.tailMap(h, true).values().iterator(), out, 0);
        return found < out.length ? walk(points.headMap(h, false).values().iterator(), out, found) : found;
    }

    private static int walk(Iterator<String> it, String[] out, int found) {
        while (found < out.length && it.hasNext()) {
            String p = it.next();
            boolean seen = false;
            for (int i = 0; i < found; i++) {
                seen |= out[i] == p;
            }
            if (!seen) {
                out[found++] = p;
            }
        }
        return found;
    }

    public int size() {
        return points.size();
    }
}
