package io.ketama.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * How servers and keys are hashed onto the circle: the one knob that says which client family a
 * ring agrees with. Every member of a cluster must use the same style, or they build different rings.
 *
 * <p>{@link #NGINX} and {@link #PINGORA} only say how a server's address becomes its
 * {@link HashIdentity}; the ring is then built by a {@link RingVersion} (CRC-32 points and keys).
 * Every other style is a client's or proxy's whole ring and decides everything, so its rings are
 * built with {@link KetamaRing#build(HashStyle, java.util.List)} (or with {@link Options}): the
 * memcached ketama family (spymemcached, hashring, twemproxy, libmemcached, Dubbo, xmemcached),
 * each of whose constants states, with the program and version it matches:
 * <ul>
 *   <li>the server text hashed for points ({@code text-i}, {@code text + i} for Dubbo; see {@link #identity});</li>
 *   <li>points: MD5 of that text, four little-endian 32-bit points per digest (one point per text for
 *       unweighted libmemcached);</li>
 *   <li>points per server, from the weights;</li>
 *   <li>which server keeps a point that several generate;</li>
 *   <li>the key hash: the first 4 bytes of MD5(key), little-endian, or twemproxy's {@code fnv1a_64},
 *       or libmemcached's one-at-a-time;</li>
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
    HASHRING,
    /**
     * twemproxy (nutcracker) 0.5.0, {@code distribution: ketama}, {@code hash: fnv1a_64}
     * ({@code nc_ketama.c}, {@code nc_conf.c}, {@code nc_server.c}, {@code nc_fnv.c}).
     * <ul>
     *   <li>Hashed for points: the server's name, {@code name-i} for {@code i} from 0. A server
     *       written {@code host:port:weight name} is named {@code name}; without a name it is
     *       {@code host} when the port is 11211 and {@code host:port} otherwise
     *       ({@link #identity}).</li>
     *   <li>Points: {@code 4 × ⌊w/W × 160/4 × N⌋}, in {@code float} as {@code ketama_update}
     *       computes it (25 equal servers get 156 each, not 160), four little-endian words per MD5
     *       digest of {@code name-i}.</li>
     *   <li>Ties: twemproxy sorts the pool's servers by name (shorter first, then bytes unsigned;
     *       {@code string_compare}) and sorts the continuum stably by value, so of servers making
     *       one point the one whose name sorts first keeps it.</li>
     *   <li>Keys: {@code hash_fnv1a_64}, which is a 32-bit FNV-1a with the 64-bit offset basis and
     *       prime truncated to 32 bits ({@code 0x84222325}, {@code 0x1b3}), each byte sign-extended
     *       ({@link KeyHashes}); an empty key hashes to 0. With a {@code hash_tag} of two characters
     *       ({@link Options#hashTag}), only the part of the key between the first of the first
     *       character and the next of the second is hashed, when both are found and something lies
     *       between them.</li>
     *   <li>Failover: with {@code auto_eject_hosts} an ejected server leaves the continuum, which is
     *       rebuilt over the live servers with their new weight total: the second candidate is the
     *       owner on the ring without the first, and so on.</li>
     * </ul>
     */
    TWEMPROXY_FNV1A_64,
    /** {@link #TWEMPROXY_FNV1A_64} with {@code hash: md5}: keys by the first four MD5 bytes, little-endian (an empty key by 0). */
    TWEMPROXY_MD5,
    /**
     * libmemcached 1.1.4 with {@code MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED} (the libketama-compatible
     * setting; {@code hosts.cc}, {@code hash.cc}).
     * <ul>
     *   <li>Hashed for points: {@code host-i} when the port is 11211, {@code host:port-i}
     *       otherwise, {@code i} from 0, the host as given ({@link #identity}).</li>
     *   <li>Points: {@code 4 × ⌊w/W × 160/4 × N⌋} in {@code float}, four per MD5 digest.</li>
     *   <li>Ties: {@code continuum_item_cmp} orders equal values by server index, so the server
     *       added first keeps the point.</li>
     *   <li>Keys: the first four MD5 bytes, little-endian.</li>
     *   <li>Failover: auto-ejection rebuilds the continuum over the live servers, with their new
     *       weight total (as {@link #TWEMPROXY_FNV1A_64}).</li>
     * </ul>
     */
    LIBMEMCACHED_WEIGHTED,
    /**
     * libmemcached 1.1.4 with {@code MEMCACHED_BEHAVIOR_KETAMA} and the default key hash
     * (one-at-a-time): 100 points per server whatever its weight, point {@code i} the
     * one-at-a-time hash of {@code host-i} ({@code host:port-i} when the port is not 11211);
     * keys by one-at-a-time, each byte sign-extended ({@link KeyHashes}); ties to the server added
     * first; failover walks the ring (rebuilding without a server leaves the others' points as
     * they are, so it is the same). A server of weight above 1 makes libmemcached's
     * {@code server_add} turn the continuum weighted, key hash unchanged: then points and failover
     * are {@link #LIBMEMCACHED_WEIGHTED}'s.
     */
    LIBMEMCACHED_KETAMA,
    /**
     * {@link #LIBMEMCACHED_KETAMA} with {@code MEMCACHED_BEHAVIOR_HASH} set to MD5: each point, and
     * each key, is the first four MD5 bytes (little-endian) of its text.
     */
    LIBMEMCACHED_KETAMA_MD5,
    /**
     * libmemcached 1.1.4 with {@code MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA_SPY} and key hash MD5
     * (the spymemcached-compatible setting; the distribution leaves the weighted flag as it was):
     * point {@code i} (from 0) is the first four MD5 bytes of {@code /host:port-i} (always the
     * port, as Java writes a socket address), 100 points per server; keys by MD5; ties to the
     * server added first; failover walks the ring. As for {@link #LIBMEMCACHED_KETAMA}, a server of
     * weight above 1 turns the continuum weighted: {@code 4 × ⌊w/W × 160/4 × N⌋} points in
     * {@code float}, four per MD5 digest, and failover by rebuilding.
     */
    LIBMEMCACHED_SPYMEMCACHED,
    /**
     * Apache Dubbo 3.3.5's {@code ConsistentHashLoadBalance}.
     * <ul>
     *   <li>Hashed for points: the provider URL's address {@code host:port} followed by the point
     *       number with no separator ({@code address + i}), so {@code 127.0.0.1:2088} + {@code 10}
     *       and {@code 127.0.0.1:20881} + {@code 0} are one text and make the same points.</li>
     *   <li>Points: {@code hash.nodes / 4} MD5 digests of four points (160 by default;
     *       {@link Options#hashNodes}; 50 gives 48), whatever the weight.</li>
     *   <li>Ties: a {@code TreeMap.put} replaces, so the provider listed last keeps a shared point.</li>
     *   <li>Keys: the first four MD5 bytes, little-endian, of the key text in the JVM's default
     *       charset (UTF-8 on JDK 18 and later, which is what is hashed here).</li>
     *   <li>Failover: Dubbo's cluster re-selects over the providers not yet tried, a selector built
     *       over them: the same points without the tried ones', so the walk of the ring from the key,
     *       with each provider of a shared point in tie order.</li>
     * </ul>
     */
    DUBBO,
    /**
     * xmemcached 2.4.8's {@code KetamaMemcachedSessionLocator} (default: {@code KETAMA_HASH}, no
     * nginx or Whalin compatibility).
     * <ul>
     *   <li>Hashed for points: the session's address text as Java writes an
     *       {@code InetSocketAddress}, leading {@code /} included ({@code /10.0.0.1:11211}, or
     *       {@code name/10.0.0.1:11211} for a resolved name), then {@code -i}.</li>
     *   <li>Points: {@code 160 × weight}, four per MD5 digest, no normalising.</li>
     *   <li>Ties: every session of a shared point is kept in a list sorted by that text; a lookup
     *       landing there takes entry {@code hash mod size} (a session that made the point twice is
     *       in it twice).</li>
     *   <li>Keys: the first four MD5 bytes of the UTF-8 key, little-endian.</li>
     *   <li>Failover: {@code nextHash}: probe {@code t} (from 1 up to the number of servers) is
     *       probe {@code t − 1} plus the MD5 hash of {@code t} written in decimal followed by the key,
     *       mod 2^32; the distinct owners of these probes, in order.</li>
     * </ul>
     */
    XMEMCACHED;

    /**
     * The options some styles take.
     *
     * @param hashTag   twemproxy's {@code hash_tag}: two characters (ASCII), or null for none
     * @param hashNodes Dubbo's {@code hash.nodes}, from 4 to {@link KetamaRing#MAX_POINTS_PER_WEIGHT}
     */
    public record Options(String hashTag, int hashNodes) {

        /** No hash tag, Dubbo's default 160 nodes. */
        public static final Options DEFAULTS = new Options(null, 160);

        public Options {
            if (hashTag != null && (hashTag.length() != 2 || hashTag.charAt(0) >= 0x80 || hashTag.charAt(1) >= 0x80)) {
                throw new IllegalArgumentException("a hash tag is two ASCII characters, as twemproxy's hash_tag; was '" + hashTag + "'");
            }
            if (hashNodes < 4 || hashNodes > KetamaRing.MAX_POINTS_PER_WEIGHT) {
                throw new IllegalArgumentException("hash.nodes must be an integer from 4 to "
                        + KetamaRing.MAX_POINTS_PER_WEIGHT + ", was " + hashNodes);
            }
        }

        public Options withHashTag(String tag) {
            return new Options(tag, hashNodes);
        }

        public Options withHashNodes(int nodes) {
            return new Options(hashTag, nodes);
        }
    }

    /**
     * Checks that this style takes {@code options}: a hash tag only twemproxy's styles, a
     * {@code hash.nodes} other than 160 only {@link #DUBBO}.
     *
     * @throws IllegalArgumentException naming the option and the styles that take it
     */
    public void requireTakes(Options options) {
        Objects.requireNonNull(options, "options");
        boolean twemproxy = this == TWEMPROXY_FNV1A_64 || this == TWEMPROXY_MD5;
        if (options.hashTag() != null && !twemproxy) {
            throw new IllegalArgumentException("a hash tag goes only with twemproxy-fnv1a-64 and twemproxy-md5, not " + label());
        }
        if (options.hashNodes() != Options.DEFAULTS.hashNodes() && this != DUBBO) {
            throw new IllegalArgumentException("hash.nodes goes only with dubbo, not " + label());
        }
    }

    /** The placement of this style with {@code options}; an option the style does not take is an error. */
    Placement placement(Options options) {
        requireTakes(options);
        switch (this) {
            case TWEMPROXY_FNV1A_64:
            case TWEMPROXY_MD5:
                return new TwemproxyPlacement(this, options.hashTag());
            case LIBMEMCACHED_WEIGHTED:
            case LIBMEMCACHED_KETAMA:
            case LIBMEMCACHED_KETAMA_MD5:
            case LIBMEMCACHED_SPYMEMCACHED:
                return new LibmemcachedPlacement(this);
            case DUBBO:
                return new DubboPlacement(options.hashNodes());
            case XMEMCACHED:
                return new XmemcachedPlacement();
            default:
                return new MemcachedPlacement(this);
        }
    }

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
            case TWEMPROXY_FNV1A_64:
            case TWEMPROXY_MD5:
                return HashIdentity.text(twemproxyName(server));
            case LIBMEMCACHED_WEIGHTED:
            case LIBMEMCACHED_KETAMA:
            case LIBMEMCACHED_KETAMA_MD5:
                return HashIdentity.text(libmemcachedText(server));
            case LIBMEMCACHED_SPYMEMCACHED:
                return HashIdentity.text("/" + hostPort(server));
            case DUBBO:
                return HashIdentity.text(dubboAddress(server));
            case XMEMCACHED: {
                String text = spymemcachedText(server);
                return HashIdentity.text(text.indexOf('/') >= 0 ? text : "/" + text);
            }
            default:
                return HashIdentity.text(spymemcachedText(server));
        }
    }

    /**
     * twemproxy's server name from {@code host:port[:weight] [name]}: the name when given, else
     * {@code host} for port 11211 and {@code host:port} for any other.
     */
    private static String twemproxyName(String server) {
        String text = server.strip();
        int space = text.indexOf(' ');
        if (space >= 0) {
            String name = text.substring(space + 1).strip();
            if (name.isEmpty()) {
                throw new IllegalArgumentException("server '" + server + "' has an empty name");
            }
            return name;
        }
        if (text.indexOf(':') < 0 && !text.isEmpty()) {
            return text; // a server name alone (an extension member's node id, say)
        }
        String[] parts = text.split(":", -1);
        if (parts.length < 2 || parts.length > 3 || parts[0].isEmpty() || !isDecimal(parts[1])) {
            throw new IllegalArgumentException("'" + server + "' is not a twemproxy server: host:port:weight [name]");
        }
        return Integer.parseInt(parts[1]) == 11211 ? parts[0] : parts[0] + ":" + parts[1];
    }

    /** {@code host:port}, with port 11211 when none is written. */
    private static String hostPort(String server) {
        String text = server.strip();
        int colon = text.lastIndexOf(':');
        if (colon > 0 && isDecimal(text.substring(colon + 1))) {
            return text.substring(0, colon) + ":" + Integer.parseInt(text.substring(colon + 1));
        }
        if (text.isEmpty() || colon >= 0) {
            throw new IllegalArgumentException("'" + server + "' is not a server: host[:port]");
        }
        return text + ":11211";
    }

    /** libmemcached's {@code sort_host}: {@code host} when the port is 11211, else {@code host:port}. */
    private static String libmemcachedText(String server) {
        String hp = hostPort(server);
        return hp.endsWith(":11211") ? hp.substring(0, hp.length() - 6) : hp;
    }

    /** A Dubbo provider URL's {@code getAddress()}: {@code host:port}, any scheme, path and parameters left off. */
    private static String dubboAddress(String server) {
        String text = server.strip();
        int scheme = text.indexOf("://");
        if (scheme >= 0) {
            text = text.substring(scheme + 3);
        }
        int end = text.length();
        for (char c : new char[] {'/', '?'}) {
            int at = text.indexOf(c);
            if (at >= 0) {
                end = Math.min(end, at);
            }
        }
        text = text.substring(0, end);
        if (text.isEmpty()) {
            throw new IllegalArgumentException("'" + server + "' has no address: host:port");
        }
        return text;
    }

    private static boolean isDecimal(String text) {
        if (text.isEmpty() || text.length() > 5) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(text) <= 65535;
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

    /**
     * {@code nginx}, {@code pingora}, {@code spymemcached}, {@code spymemcached-weighted},
     * {@code hashring}, {@code twemproxy-fnv1a-64}, {@code twemproxy-md5},
     * {@code libmemcached-weighted}, {@code libmemcached-ketama}, {@code libmemcached-ketama-md5},
     * {@code libmemcached-spymemcached}, {@code dubbo} or {@code xmemcached} ({@link EnumLabels}).
     */
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
        // twemproxy spells its hash fnv1a_64: take that spelling too
        String t = text != null && text.strip().regionMatches(true, 0, "twemproxy-", 0, 10) ? text.replace('_', '-') : text;
        return EnumLabels.parse(HashStyle.class, t, what);
    }
}
