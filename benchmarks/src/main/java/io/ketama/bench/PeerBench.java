package io.ketama.bench;

import com.google.common.hash.Hashing;
import io.ketama.core.Crc32;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
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
 * Peer implementations on the same keys and node sets. spymemcached's {@link KetamaNodeLocator}
 * (MD5 of {@code "/ip:port-i"}, four points per digest, a {@code TreeMap<Long, node>}) with as many
 * points per node as our rows ({@code reps} = points per weight × weight: 160/16 for the 100-node
 * rings, 1600/160 for the 2048-node rings; it treats weights as relative, so equal weights need the
 * repetitions raised instead). Guava's jump consistent hash of the key's CRC-32: no ring, no
 * weights, no failover order; for scale.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class PeerBench {

    @State(Scope.Benchmark)
    public static class Strings {
        String[] keys;

        @Setup(Level.Trial)
        public void setUp() {
            keys = Keys.strings(30);
        }
    }

    @State(Scope.Benchmark)
    public static class Spy {
        /** {@code nodes-pointsPerNode}: the spymemcached ring as large as our v1 (and v2/160) or v2/16 ring. */
        @Param({"100-160", "100-16", "2048-1600", "2048-160"})
        public String ring;
        KetamaNodeLocator locator;

        @Setup(Level.Trial)
        public void setUp() {
            String[] p = ring.split("-");
            int nodes = Integer.parseInt(p[0]);
            int reps = Integer.parseInt(p[1]);
            List<MemcachedNode> list = new ArrayList<>();
            for (var n : nodes == 100 ? RingRow.N100_V1.nodes() : RingRow.N2048_V1.nodes()) {
                list.add(memcachedNode(new InetSocketAddress(n.identity().host(), Integer.parseInt(n.identity().port()))));
            }
            locator = new KetamaNodeLocator(list, DefaultHashAlgorithm.KETAMA_HASH, new DefaultKetamaNodeLocatorConfiguration() {
                @Override
                public int getNodeRepetitions() {
                    return reps;
                }
            });
        }
    }

    @State(Scope.Benchmark)
    public static class Jump {
        @Param({"100", "2048"})
        public int buckets;
    }

    @State(Scope.Thread)
    public static class Cursor {
        int i;
    }

    /**
     * A {@link MemcachedNode} that only knows its address: all the locator asks of it. A dynamic
     * proxy, because the interface has ~40 connection methods irrelevant to placement.
     */
    public static MemcachedNode memcachedNode(InetSocketAddress address) {
        return (MemcachedNode) Proxy.newProxyInstance(MemcachedNode.class.getClassLoader(), new Class<?>[] {MemcachedNode.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSocketAddress" -> address;
                    case "toString" -> "node " + address;
                    case "hashCode" -> address.hashCode();
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Benchmark
    public MemcachedNode spymemcached(Spy s, Strings k, Cursor c) {
        return s.locator.getPrimary(k.keys[c.i++ & Keys.MASK]);
    }

    @Benchmark
    public int jumpHash(Jump j, LookupBench.KeySet k, LookupBench.Cursor c) {
        return Hashing.consistentHash(Integer.toUnsignedLong(Crc32.hash(c.next(k))), j.buckets);
    }
}
