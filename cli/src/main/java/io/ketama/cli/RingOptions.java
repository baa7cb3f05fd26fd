package io.ketama.cli;

import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How to build one ring from a servers file: {@code --servers FILE [--ring v1|v2]
 * [--points-per-weight N] [--hash-style nginx|pingora|spymemcached|spymemcached-weighted|hashring]}.
 * Defaults: v1, nginx style, and the version's default points per weight (160 for v1, 16 for v2).
 * A memcached style fixes the whole ring, so {@code --ring} and {@code --points-per-weight} do not
 * go with it.
 *
 * @param servers         the servers file
 * @param version         ring version, or null for a memcached style
 * @param pointsPerWeight points per weight unit (160 nominal points per server for a memcached style)
 * @param style           how addresses (and, for a memcached style, keys) are hashed
 * @param hashTag         twemproxy's {@code hash_tag} ({@code --hash-tag XY}), or null
 * @param syntax          whose syntax the servers file is in: the style, or for {@code diff --against FILE --ring v2}
 *                        after a client's style, that client's (its servers then hashed by address, nginx style)
 */
record RingOptions(Path servers, RingVersion version, int pointsPerWeight, HashStyle style, String hashTag, HashStyle syntax) {

    static final String SERVERS = "--servers";
    static final String RING = "--ring";
    static final String POINTS = "--points-per-weight";
    static final String STYLE = "--hash-style";
    static final String HASH_TAG = "--hash-tag";

    /** The nominal points per server of the memcached clients (40 digests of 4 points), shared out by weight. */
    static final int MEMCACHED_POINTS_PER_SERVER = 160;

    /**
     * The options of {@code args}; options it lacks come from {@code inherited} when given, else
     * the defaults. A ring version or point count given here with an inherited memcached style
     * means an nginx-style ring (the inherited style cannot have them).
     */
    static RingOptions from(Arguments args, String serversOption, Arguments inherited) throws CliException {
        Path servers = Path.of(args.required(serversOption));
        boolean ownRing = args.has(RING) || args.has(POINTS);
        String styleText = args.has(STYLE) ? args.get(STYLE) : inherited != null ? inherited.get(STYLE) : null;
        HashStyle style;
        try {
            style = styleText == null ? HashStyle.NGINX : HashStyle.parse(styleText, STYLE);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
        String tag = args.has(HASH_TAG) ? args.get(HASH_TAG) : inherited != null && !args.has(STYLE) ? inherited.get(HASH_TAG) : null;
        if (tag != null && style != HashStyle.TWEMPROXY_FNV1A_64 && style != HashStyle.TWEMPROXY_MD5) {
            throw new CliException(HASH_TAG + " goes only with " + STYLE + " twemproxy-fnv1a-64 or twemproxy-md5 (twemproxy's hash_tag)");
        }
        if (tag != null) {
            try {
                HashStyle.Options.DEFAULTS.withHashTag(tag);
            } catch (IllegalArgumentException e) {
                throw new CliException(HASH_TAG + ": " + e.getMessage());
            }
        }
        HashStyle syntax = style;
        if (style.placesKeys()) {
            if (ownRing && args.has(STYLE)) {
                throw new CliException(STYLE + " " + style.label() + " fixes the points of the ring as its clients make them; "
                        + RING + " and " + POINTS + " go only with " + STYLE + " nginx or pingora");
            }
            if (!ownRing) {
                return new RingOptions(servers, null, MEMCACHED_POINTS_PER_SERVER, style, tag, style);
            }
            syntax = style; // the same file, read the client's way
            style = HashStyle.NGINX; // --against with its own --ring: an nginx-style ring unless it names a style
        }
        String ringText = args.has(RING) ? args.get(RING) : inherited != null ? inherited.get(RING) : null;
        RingVersion version;
        try {
            version = ringText == null ? RingVersion.V1 : RingVersion.parse(ringText, RING);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
        Arguments pointsSource = args.has(POINTS) || inherited == null ? args : inherited;
        int points = pointsSource.intValue(POINTS, 1, KetamaRing.MAX_POINTS_PER_WEIGHT, version.defaultPointsPerWeight());
        return new RingOptions(servers, version, points, style, null, syntax);
    }

    /** Why nginx stops at {@code address} in a server line ("invalid port"), or null when it takes it. */
    private static String nginxRefuses(String address, HashIdentity identity) {
        if (address.regionMatches(true, 0, "unix:", 0, 5)) {
            return null;
        }
        if (identity.host().indexOf(':') >= 0 && !identity.host().startsWith("[")) {
            // nginx reads the port from the first ':' of a host not in brackets
            return "server '" + address + "' is not an address nginx accepts: write an IPv6 address in brackets, as [::1]:PORT";
        }
        if (address.endsWith(":") || !identity.port().isEmpty() && !isPort(identity.port())) {
            return "port '" + identity.port() + "' of server '" + address + "' is not a port nginx accepts: an integer from 1 to 65535";
        }
        return null;
    }

    /** Whether {@code digits} (decimal, as {@link HashIdentity#nginx} takes a port) is a port from 1 to 65535. */
    private static boolean isPort(String digits) {
        String t = digits.replaceFirst("^0+", "");
        return !t.isEmpty() && t.length() <= 5 && Integer.parseInt(t) <= 65535;
    }

    /** {@code host:port} of a twemproxy line ({@code host:port:weight [name]}) or of a Dubbo provider URL. */
    private String plainAddress(String written) {
        String text = written.split("\\s+")[0];
        if (syntax == HashStyle.TWEMPROXY_FNV1A_64 || syntax == HashStyle.TWEMPROXY_MD5) {
            return text.substring(0, text.lastIndexOf(':'));
        }
        if (syntax == HashStyle.DUBBO) {
            int scheme = text.indexOf("://");
            text = scheme >= 0 ? text.substring(scheme + 3) : text;
            return text.split("[/?]")[0];
        }
        return text;
    }

    /** Reads the servers file and builds the ring; each node's payload is its address as written. */
    KetamaRing<String> build() throws CliException {
        List<Node<String>> nodes = nodes();
        try {
            return version == null ? KetamaRing.build(style, styleOptions(), nodes) : KetamaRing.build(version, pointsPerWeight, nodes);
        } catch (IllegalArgumentException ex) {
            throw new CliException(servers + ": " + ex.getMessage());
        } catch (OutOfMemoryError ex) {
            // one huge allocation failed: nothing else is left half-done, so say it in one line
            long points = 0;
            for (Node<String> n : nodes) {
                points += (long) n.weight() * pointsPerWeight;
            }
            throw new CliException(servers + ": not enough memory for a ring of " + points
                    + " points; use fewer points per weight or give the JVM more heap (-Xmx)");
        }
    }

    /**
     * The style's options: the hash tag, and for Dubbo the {@code hash.nodes} of the first
     * provider's URL (where Dubbo reads it), 160 without one.
     */
    HashStyle.Options styleOptions() throws CliException {
        HashStyle.Options options = HashStyle.Options.DEFAULTS.withHashTag(hashTag);
        if (style == HashStyle.DUBBO) {
            ServerEntry first = ServersFile.read(servers, style).get(0);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("[?&]hash\\.nodes=([^&]*)").matcher(first.address());
            if (m.find()) {
                try {
                    options = options.withHashNodes(Integer.parseInt(m.group(1)));
                } catch (IllegalArgumentException e) {
                    throw new CliException(servers + " line " + first.line() + ": hash.nodes=" + m.group(1)
                            + " is not an integer from 4 to " + KetamaRing.MAX_POINTS_PER_WEIGHT);
                }
            }
        }
        return options;
    }

    /** The servers file's nodes, each checked as the hash style takes it. */
    List<Node<String>> nodes() throws CliException {
        List<ServerEntry> entries = ServersFile.read(servers, syntax);
        List<Node<String>> nodes = new ArrayList<>(entries.size());
        Map<HashIdentity, Integer> seen = new HashMap<>();
        for (ServerEntry e : entries) {
            HashIdentity identity;
            try {
                identity = style.identity(style == syntax ? e.address() : plainAddress(e.address()));
            } catch (IllegalArgumentException ex) {
                throw new CliException(servers + " line " + e.line() + ": " + ex.getMessage() + " (--hash-style " + style.label() + ")");
            }
            String refused = style == HashStyle.NGINX ? nginxRefuses(e.address(), identity) : null;
            if (refused != null) {
                // no nginx has this upstream, so no ring of it is nginx's
                throw new CliException(servers + " line " + e.line() + ": " + refused);
            }
            Integer first = seen.putIfAbsent(identity, e.line());
            if (first != null) {
                throw new CliException(servers + " line " + e.line() + ": server '" + e.address()
                        + "' hashes the same as the server on line " + first + "; list each server once");
            }
            nodes.add(Node.of(identity, e.weight(), e.shown()));
        }
        return nodes;
    }
}
