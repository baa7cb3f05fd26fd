package io.ketama.core;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a node's ring points are hashed from: a host text and a port text, hashed as
 * {@code host ‖ 0x00 ‖ port}, byte for byte as nginx hashes the address of a {@code server} line
 * and pingora-ketama hashes a socket address.
 *
 * <p>Two ways to make one from an address string:
 * <ul>
 *   <li>{@link #nginx(String)}: the text exactly as written in nginx ({@code [::1]:9001} hashes
 *       {@code [::1]}, 0x00, {@code 9001}; {@code cache-a} hashes {@code cache-a}, 0x00, nothing).</li>
 *   <li>{@link #pingora(String)}: the canonical text of a socket address (RFC 5952 for IPv6, no
 *       brackets, no scope id), which is what pingora-ketama hashes.</li>
 * </ul>
 * Host names are hashed as written and never resolved.
 *
 * <p>The natural order ({@link #compareTo}) decides v2 ties: IP literals first, ordered as Rust
 * orders socket addresses (every IPv4 before every IPv6, then address bytes unsigned, then port),
 * then every other identity by its bytes (and identities of equal bytes, which a NUL inside the
 * host or port or unpaired surrogates can make, by host then port text). The order is total and
 * consistent with {@code equals}.
 */
public final class HashIdentity implements Comparable<HashIdentity> {

    private final String host;
    private final String port;
    private final byte[] bytes;
    private final int prefixRegister;
    /** The host's address bytes when it is an IP literal (brackets allowed), else null. */
    private final byte[] ip;
    /** The port as a number, or -1 when empty or not a port number. */
    private final int portNumber;

    private HashIdentity(String host, String port) {
        this.host = Objects.requireNonNull(host, "host");
        this.port = Objects.requireNonNull(port, "port");
        byte[] h = host.getBytes(StandardCharsets.UTF_8);
        byte[] p = port.getBytes(StandardCharsets.UTF_8);
        this.bytes = new byte[h.length + 1 + p.length];
        System.arraycopy(h, 0, bytes, 0, h.length);
        System.arraycopy(p, 0, bytes, h.length + 1, p.length);
        this.prefixRegister = Crc32.update(Crc32.INITIAL, bytes, 0, bytes.length);
        String bare = host.length() > 2 && host.charAt(0) == '[' && host.charAt(host.length() - 1) == ']'
                ? host.substring(1, host.length() - 1) : host;
        this.ip = IpLiteral.parse(bare);
        this.portNumber = parsePort(port);
    }

    /** An identity from host and port texts taken as they are. */
    public static HashIdentity of(String host, String port) {
        return new HashIdentity(host, port);
    }

    /**
     * A whole server text as the host, with an empty port: how the memcached styles name a server
     * ({@link HashStyle#identity}), whose points hash {@code text-i}.
     *
     * @throws IllegalArgumentException when the text is empty
     */
    static HashIdentity text(String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("server address is empty");
        }
        return new HashIdentity(text, "");
    }

    /**
     * nginx style: the address as written in an nginx {@code server} line. The port is what
     * follows the last {@code :} when only digits follow it; otherwise the whole text is the host
     * and the port is empty. A {@code unix:} socket path hashes the path with an empty port, as
     * nginx does.
     */
    public static HashIdentity nginx(String serverText) {
        Objects.requireNonNull(serverText, "serverText");
        if (serverText.isEmpty()) {
            throw new IllegalArgumentException("server address is empty");
        }
        if (serverText.regionMatches(true, 0, "unix:", 0, 5)) {
            return new HashIdentity(serverText.substring(5), "");
        }
        for (int j = serverText.length() - 1; j >= 0; j--) {
            char c = serverText.charAt(j);
            if (c == ':') {
                return new HashIdentity(serverText.substring(0, j), serverText.substring(j + 1));
            }
            if (c < '0' || c > '9') {
                break;
            }
        }
        return new HashIdentity(serverText, "");
    }

    /**
     * pingora style: a socket address {@code a.b.c.d:port} or {@code [v6]:port} (brackets
     * required around IPv6, port 0..65535 required), hashed as its canonical text.
     *
     * @throws IllegalArgumentException when the text is not an IP socket address
     */
    public static HashIdentity pingora(String socketAddress) {
        Objects.requireNonNull(socketAddress, "socketAddress");
        int colon = socketAddress.lastIndexOf(':');
        if (colon <= 0 || colon == socketAddress.length() - 1) {
            throw notSocketAddress(socketAddress);
        }
        String hostPart = socketAddress.substring(0, colon);
        int port = parsePort(socketAddress.substring(colon + 1));
        byte[] address;
        if (hostPart.startsWith("[") && hostPart.endsWith("]")) {
            address = IpLiteral.parseIpv6(hostPart.substring(1, hostPart.length() - 1));
        } else {
            address = IpLiteral.parseIpv4(hostPart, 0, hostPart.length());
        }
        if (address == null || port < 0) {
            throw notSocketAddress(socketAddress);
        }
        return new HashIdentity(IpLiteral.format(address), Integer.toString(port));
    }

    /** pingora style from a resolved socket address (an unresolved one is an error: nothing is looked up). */
    public static HashIdentity pingora(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        if (ip == null) {
            throw new IllegalArgumentException("socket address " + address + " is unresolved; pingora style needs an IP address");
        }
        return new HashIdentity(IpLiteral.format(ip.getAddress()), Integer.toString(address.getPort()));
    }

    private static IllegalArgumentException notSocketAddress(String text) {
        return new IllegalArgumentException("'" + text + "' is not an IP socket address: expected a.b.c.d:PORT or [IPv6]:PORT with PORT 0..65535");
    }

    private static int parsePort(String text) {
        if (text.isEmpty() || text.length() > 5) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v <= 65535 ? v : -1;
    }

    public String host() {
        return host;
    }

    public String port() {
        return port;
    }

    /** A copy of the hashed bytes: host, 0x00, port. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Length of the hashed bytes: host, 0x00, port. */
    int byteCount() {
        return bytes.length;
    }

    /** Copies the hashed bytes into {@code out} from {@code at}; returns the index after them. */
    int copyBytesTo(byte[] out, int at) {
        System.arraycopy(bytes, 0, out, at, bytes.length);
        return at + bytes.length;
    }

    /** Length of the port's UTF-8 bytes (the hashed bytes end with them). */
    int portByteCount() {
        return port.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Whether decoding the hashed host and port bytes gives back these texts (not so with unpaired surrogates). */
    boolean roundTrips() {
        int portBytes = portByteCount();
        int hostBytes = bytes.length - 1 - portBytes;
        return new String(bytes, 0, hostBytes, StandardCharsets.UTF_8).equals(host)
                && new String(bytes, hostBytes + 1, portBytes, StandardCharsets.UTF_8).equals(port);
    }

    /** The CRC-32 register after {@code host ‖ 0x00 ‖ port}: every point extends it. */
    int prefixRegister() {
        return prefixRegister;
    }

    @Override
    public int compareTo(HashIdentity o) {
        if (ip != null && o.ip != null) {
            if (ip.length != o.ip.length) {
                return ip.length - o.ip.length;
            }
            int c = Arrays.compareUnsigned(ip, o.ip);
            if (c != 0) {
                return c;
            }
            c = Integer.compare(portNumber, o.portNumber);
            if (c != 0) {
                return c;
            }
        } else if (ip != null) {
            return -1;
        } else if (o.ip != null) {
            return 1;
        }
        int c = Arrays.compareUnsigned(bytes, o.bytes);
        if (c != 0) {
            return c;
        }
        // the same bytes from other texts (a NUL inside host or port, unpaired surrogates that both
        // encode as '?'): they make the same points, so v2 needs an order that does not depend on input order
        c = host.compareTo(o.host);
        return c != 0 ? c : port.compareTo(o.port);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HashIdentity other && host.equals(other.host) && port.equals(other.port);
    }

    @Override
    public int hashCode() {
        return host.hashCode() * 31 + port.hashCode();
    }

    /** {@link #addressText(String, String) The address text} of this host and port. */
    @Override
    public String toString() {
        return addressText(host, port);
    }

    /** The server text the memcached styles hash ({@code text-i}): {@link #toString()}. */
    String serverText() {
        return toString();
    }

    /**
     * How a server or member is named wherever it is shown (a response header, JSON, a metric
     * tag, a log line, a message): {@code host:port}; a bare IPv6 host in brackets without its
     * zone id ({@code fe80::1%eth0}, port 5701 is {@code [fe80::1]:5701}: a zone id only means
     * something on the host that wrote it); a host already in brackets, or any other host, as it
     * is; just the host, as it is, when the port is empty (a memcached-style server text).
     */
    public static String addressText(String host, String port) {
        if (port.isEmpty()) {
            return host;
        }
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            int zone = host.indexOf('%');
            return "[" + (zone >= 0 ? host.substring(0, zone) : host) + "]:" + port;
        }
        return host + ":" + port;
    }
}
