package io.ketama.bench;

import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.util.DefaultKetamaNodeLocatorConfiguration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The memcached hash styles against spymemcached's own {@link KetamaNodeLocator} on the same ring:
 * the same servers ({@code servers} of them, 160 points each, no weight map), the same 30-character
 * keys. Every lookup includes the key's MD5: spymemcached's through {@code MessageDigest} (a clone
 * per key), ours through the same JDK digest kept per thread, allocation-free ({@code -prof gc}
 * shows it). The failover pair asks both for the seven probes of spymemcached's
 * {@code getSequence}. A v1 (CRC-32) lookup on the same servers is the yardstick of what the MD5
 * costs.
 *
 * <pre>
 * java -XX:+UseCompactObjectHeaders -jar benchmarks/target/benchmarks.jar MemcachedStyleBench -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 8, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class MemcachedStyleBench {

    @State(Scope.Benchmark)
    public static class Rings {
        /** 100 loopback servers (16,000 points) or 2,048 servers (327,680 points). */
        @Param({"100", "2048"})
        public int servers;
        KetamaNodeLocator locator;
        KetamaRing<String> spymemcached;
        KetamaRing<String> hashring;
        KetamaRing<String> v1;

        @Setup(Level.Trial)
        public void setUp() {
            List<Node<String>> base = servers == 100 ? RingRow.N100_V1.nodes() : RingRow.N2048_V1.nodes();
            List<MemcachedNode> spyNodes = new ArrayList<>();
            List<Node<String>> spy = new ArrayList<>();
            List<Node<String>> hr = new ArrayList<>();
            List<Node<String>> v1Nodes = new ArrayList<>();
            for (Node<String> n : base) {
                String text = n.identity().host() + ":" + n.identity().port();
                spyNodes.add(PeerBench.memcachedNode(new InetSocketAddress(n.identity().host(), Integer.parseInt(n.identity().port()))));
                spy.add(Node.of(HashStyle.SPYMEMCACHED.identity(text), 1, text));
                hr.add(Node.of(HashStyle.HASHRING.identity(text), 1, text));
                v1Nodes.add(Node.of(n.identity(), 1, text));
            }
            locator = new KetamaNodeLocator(spyNodes, DefaultHashAlgorithm.KETAMA_HASH, new DefaultKetamaNodeLocatorConfiguration());
            spymemcached = KetamaRing.build(HashStyle.SPYMEMCACHED, spy);
            hashring = KetamaRing.build(HashStyle.HASHRING, hr);
            v1 = KetamaRing.build(RingVersion.V1, v1Nodes);
        }
    }

    @State(Scope.Benchmark)
    public static class Keys30 {
        String[] strings;
        byte[][] bytes;

        @Setup(Level.Trial)
        public void setUp() {
            strings = Keys.strings(30);
            bytes = Keys.bytes(30);
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int i;
        final int[] out = new int[7];
    }

    @Benchmark
    public MemcachedNode spymemcachedLocator(Rings r, Keys30 k, Cursor c) {
        return r.locator.getPrimary(k.strings[c.i++ & Keys.MASK]);
    }

    @Benchmark
    public int spymemcachedStyle(Rings r, Keys30 k, Cursor c) {
        KetamaRing<String> ring = r.spymemcached;
        return ring.points().nodeIndexForHash(ring.hashKey(k.strings[c.i++ & Keys.MASK]));
    }

    @Benchmark
    public int spymemcachedStyleBytes(Rings r, Keys30 k, Cursor c) {
        KetamaRing<String> ring = r.spymemcached;
        return ring.points().nodeIndexForHash(ring.hashKey(k.bytes[c.i++ & Keys.MASK]));
    }

    /** The key's MD5 alone (what the two lookups above pay before the point table). */
    @Benchmark
    public int spymemcachedKeyHashBytes(Rings r, Keys30 k, Cursor c) {
        return r.spymemcached.hashKey(k.bytes[c.i++ & Keys.MASK]);
    }

    @Benchmark
    public int hashringStyle(Rings r, Keys30 k, Cursor c) {
        KetamaRing<String> ring = r.hashring;
        return ring.points().nodeIndexForHash(ring.hashKey(k.strings[c.i++ & Keys.MASK]));
    }

    @Benchmark
    public int v1Crc32(Rings r, Keys30 k, Cursor c) {
        KetamaRing<String> ring = r.v1;
        return ring.points().nodeIndexForHash(ring.hashKey(k.strings[c.i++ & Keys.MASK]));
    }

    /** spymemcached's failover: all seven probes of {@code getSequence}. */
    @Benchmark
    public int spymemcachedLocatorSequence(Rings r, Keys30 k, Cursor c) {
        int h = 0;
        for (Iterator<MemcachedNode> it = r.locator.getSequence(k.strings[c.i++ & Keys.MASK]); it.hasNext(); ) {
            h += System.identityHashCode(it.next());
        }
        return h;
    }

    /** Ours: the distinct owners of the same seven probes, into a reused array. */
    @Benchmark
    public int spymemcachedStyleSequence(Rings r, Keys30 k, Cursor c) {
        byte[] key = k.bytes[c.i++ & Keys.MASK];
        return r.spymemcached.points().candidateIndices(key, 0, key.length, c.out);
    }
}
