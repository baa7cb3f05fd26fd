package io.ketama.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * How servers and keys are hashed onto the circle: the one knob that says which client family a
 * ring agrees with. Every member of a cluster must use the same style, or they build different rings.
 *
 * <p>{@link #NGINX} and {@link #PINGORA} only say how a server's address becomes its
 * {@link HashIdentity}; the ring is then built by a {@link RingVersion} (CRC-32 points and keys).
 * The memcached styles decide everything, so their rings are built with
 * {@link KetamaRing#build(HashStyle, java.util.List)}:
 * <ul>
 *   <li>the server text hashed for points ({@code text-i}, as written; see {@link #identity});</li>
 *   <li>points: MD5 of {@code text-i}, four little-endian 32-bit points per digest;</li>
 *   <li>points per server, from the weights;</li>
 *   <li>which server keeps a point that several generate;</li>
 *   <li>the key hash: the first 4 bytes of MD5(key), little-endian;</li>
 *   <li>the failover order.</li>
 * </ul>
 * Lookups of every style go through the same compact point table and are allocation-free.
 */
public enum HashStyle {
    /** The address as written in an nginx {@code server} line ({@link HashIdentity#nginx(String)}). */
    NGINX,
    /** The canonical text of an IP socket address, as pingora-ketama hashes it ({@link HashIdentity#pingora(String)}). */
    PINGORA,
    /**
     * spymemcached 2.12.3's {@code KetamaNodeLocator} with its default configuration
     * ({@code KETAMA_HASH}, node keys {@code SPYMEMCACHED}, 160 repetitions). When every node's
     * weight is 1 the ring is the one built without a weight map: 40 digests (160 points) per
     * server. Otherwise it is the one built with a weight map of the nodes' weights: {@code
     * 4 × ⌊w/W × 160/4 × N⌋} points computed in {@code float}, as spymemcached does. Of points that
     * several servers generate, the <em>last</em> server in input order keeps it (a
     * {@code TreeMap.put} replaces). Failover is spymemcached's {@code getSequence}: seven probes,
     * probe {@code t+1} at {@code probe t + md5le("t" ‖ key)} mod 2^32, each answered by the ring;
     * the distinct servers of those probes, in probe order.
     */
    SPYMEMCACHED,
    /**
     * {@link #SPYMEMCACHED} with a weight map even when every weight is equal: spymemcached's
     * {@code float} arithmetic then gives some server counts fewer points than without a map (25
     * servers get 39 digests each instead of 40).
     */
    SPYMEMCACHED_WEIGHTED,
    /**
     * The libketama continuum as the {@code hashring} npm module 3.2.0 builds it (default options:
     * 40 vnodes, 4 replicas): server {@code i} of {@code N} with weight {@code w} out of {@code W}
     * gets {@code ⌊w/W × 40 × N⌋} digests of four points (in {@code double}, so 7 equal servers
     * get 39 each). The ring is sorted stably, so of equal points the <em>first</em> server in
     * input order owns the lookup. Failover is hashring's {@code range(key)}: the distinct servers
     * of the points from the key's position onwards, one turn, equal points included in input order.
     */
    HASHRING;

    /**
     * The identity of the server written as {@code server}:
     * <ul>
     *   <li>{@code nginx}, {@code pingora}: {@link HashIdentity#nginx}, {@link HashIdentity#pingora};</li>
     *   <li>{@code hashring}: the text exactly as written (hashring hashes {@code server + "-" + i});</li>
     *   <li>{@code spymemcached}: the text of {@code String.valueOf(InetSocketAddress)} without its
     *       leading {@code /}, which is what spymemcached hashes: {@code 10.0.0.1:11211} as written,
     *       {@code [::1]:11211} in Java's form {@code [0:0:0:0:0:0:0:1]:11211} (a zone id kept as
     *       written: {@code [fe80::1%3]:11211} is {@code [fe80:0:0:0:0:0:0:1%3]:11211}), an
     *       IPv4-mapped {@code [::ffff:10.0.0.1]:11211} as {@code 10.0.0.1:11211} (Java makes it an
     *       IPv4 address), and a resolved host name as {@code name/10.0.0.1:11211} or
     *       {@code name/[0:0:0:0:0:0:0:1]:11211}. Names are never resolved here, so write a named
     *       server in that {@code name/IP:port} form.</li>
     * </ul>
     *
     * @throws IllegalArgumentException when the text is empty or not a valid address for the style
     */
    public HashIdentity identity(String server) {
        Objects.requireNonNull(server, "server");
        switch (this) {
            case NGINX:
                return HashIdentity.nginx(server);
            case PINGORA:
                return HashIdentity.pingora(server);
            case HASHRING:
                return HashIdentity.text(server);
            default:
                return HashIdentity.text(spymemcachedText(server));
        }
    }

    private static String spymemcachedText(String server) {
        String text = server.startsWith("/") ? server.substring(1) : server;
        int slash = text.lastIndexOf('/');
        String name = text.substring(0, slash + 1); // "name/" of a resolved host name, or nothing
        String address = text.substring(slash + 1);
        int close = address.lastIndexOf("]:");
        if (address.startsWith("[") && close > 0) {
            String literal = address.substring(1, close);
            byte[] v6 = IpLiteral.parseIpv6(literal);
            if (v6 != null) {
                String port = address.substring(close + 1);
                if (isIpv4Mapped(v6)) {
                    return name + IpLiteral.format(Arrays.copyOfRange(v6, 12, 16)) + port; // Java makes it an Inet4Address
                }
                StringBuilder s = new StringBuilder(name).append('[');
                for (int g = 0; g < 8; g++) {
                    s.append(g == 0 ? "" : ":").append(Integer.toHexString((v6[2 * g] & 0xFF) << 8 | (v6[2 * g + 1] & 0xFF)));
                }
                int zone = literal.indexOf('%');
                return s.append(zone >= 0 ? literal.substring(zone) : "").append(']').append(port).toString();
            }
        }
        return text;
    }

    private static boolean isIpv4Mapped(byte[] v6) {
        for (int i = 0; i < 10; i++) {
            if (v6[i] != 0) {
                return false;
            }
        }
        return v6[10] == (byte) 0xFF && v6[11] == (byte) 0xFF;
    }

    /** Whether this style places keys by itself (a memcached style) rather than through a {@link RingVersion}. */
    public boolean placesKeys() {
        return this != NGINX && this != PINGORA;
    }

    /** {@code nginx}, {@code pingora}, {@code spymemcached}, {@code spymemcached-weighted} or {@code hashring} ({@link EnumLabels}). */
    public String label() {
        return EnumLabels.label(this);
    }

    /**
     * Parses a label, any case.
     *
     * @param what names the value in the error (a configuration key or an option)
     * @throws IllegalArgumentException naming {@code what} and the allowed values
     */
    public static HashStyle parse(String text, String what) {
        return EnumLabels.parse(HashStyle.class, text, what);
    }
}
