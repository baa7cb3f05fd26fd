package io.ketama.bench;

import io.ketama.core.Crc32;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * One row per hash style of the ketama family (issue 41) beside the v1 ring, on the same 100
 * servers ({@code 10.0.N.M:11211}, weight 1) and 30-character keys: the build, a lookup from the
 * key's bytes (its hash included: CRC-32 for v1, MD5, FNV-1a or one-at-a-time for the styles), and
 * a lookup from a precomputed hash (the ring search alone). {@code v1-100} is the v1 ring at 100
 * points per weight, the point count of the unweighted libmemcached styles (10,000 points; the
 * others have 16,000, as {@code v1}). Bytes per point are printed at set-up.
 *
 * <pre>
 * java -XX:+UseCompactObjectHeaders -jar benchmarks/target/benchmarks.jar FamilyStyleBench -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class FamilyStyleBench {

    @State(Scope.Benchmark)
    public static class Ring {
        @Param({"v1", "v1-100", "twemproxy-fnv1a-64", "twemproxy-md5", "libmemcached-weighted", "libmemcached-ketama",
                "libmemcached-ketama-md5", "libmemcached-spymemcached", "dubbo", "xmemcached"})
        public String style;
        List<Node<String>> nodes;
        KetamaRing<String> ring;
        int[] hashes;

        @Setup(Level.Trial)
        public void setUp() {
            nodes = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                String text = "10.0." + (i / 250) + "." + (1 + i % 250) + ":11211";
                HashIdentity id = style.startsWith("v1") ? HashIdentity.nginx(text) : HashStyle.parse(style, "style").identity(text);
                nodes.add(Node.of(id, 1, text));
            }
            ring = build();
            byte[][] keys = Keys.bytes(30);
            hashes = new int[keys.length];
            for (int i = 0; i < keys.length; i++) {
                hashes[i] = ring.hashKey(keys[i]);
            }
            System.out.printf("%n%s: %d points, %.3f bytes per point%n", style, ring.pointCount(),
                    ring.retainedBytes() / (double) ring.pointCount());
        }

        KetamaRing<String> build() {
            if (style.equals("v1")) {
                return KetamaRing.build(RingVersion.V1, nodes);
            }
            if (style.equals("v1-100")) {
                return KetamaRing.build(RingVersion.V1, 100, nodes);
            }
            return KetamaRing.build(HashStyle.parse(style, "style"), nodes);
        }
    }

    @State(Scope.Benchmark)
    public static class Keys30 {
        byte[][] bytes;

        @Setup(Level.Trial)
        public void setUp() {
            bytes = Keys.bytes(30);
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int i;
    }

    /** The ring of 100 servers, from their identities. */
    @Benchmark
    @Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
    @Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public KetamaRing<String> build(Ring r) {
        return r.build();
    }

    /** The owner of a key given as bytes: its hash and the search. */
    @Benchmark
    public int lookup(Ring r, Keys30 k, Cursor c) {
        return r.ring.points().nodeIndexForHash(r.ring.hashKey(k.bytes[c.i++ & Keys.MASK]));
    }

    /** The owner of a precomputed key hash: the ring search alone. */
    @Benchmark
    public int lookupHash(Ring r, Cursor c) {
        return r.ring.points().nodeIndexForHash(r.hashes[c.i++ & Keys.MASK]);
    }

    /** One point text as the servers' points are hashed: {@code 10.0.0.17:11211-23}, 20 bytes. */
    @State(Scope.Thread)
    public static class PointTextState {
        final byte[] text = "10.0.0.17:11211-23".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        final byte[] out = new byte[16];
        final java.security.MessageDigest md5;
        int prefix = Crc32.update(Crc32.INITIAL, text, 0, 15);
        int previous = 0x12345678;

        public PointTextState() {
            try {
                md5 = java.security.MessageDigest.getInstance("MD5", "SUN");
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * What the MD5 styles pay per digest of a point text (four points, or one for unweighted
     * libmemcached), as core hashes it: the JDK's MD5 (an intrinsic) on a reused digest.
     */
    @Benchmark
    public byte[] pointMd5(PointTextState t) throws java.security.DigestException {
        t.md5.update(t.text, 0, t.text.length);
        t.md5.digest(t.out, 0, 16);
        return t.out;
    }

    /** What unweighted libmemcached-ketama pays per point: Bob Jenkins' one-at-a-time hash of the point text. */
    @Benchmark
    public int pointOneAtATime(PointTextState t) {
        int h = 0;
        for (byte b : t.text) {
            h += b;
            h += h << 10;
            h ^= h >>> 6;
        }
        h += h << 3;
        h ^= h >>> 11;
        h += h << 15;
        return h;
    }

    /** What v1 pays per point: the server's CRC-32 prefix, extended by the previous point's four bytes. */
    @Benchmark
    public int pointCrc32(PointTextState t) {
        t.previous = Crc32.finish(Crc32.extendLittleEndian(t.prefix, t.previous));
        return t.previous;
    }
}
