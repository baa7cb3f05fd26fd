package io.ketama.core;

/**
 * How a server's address text becomes the {@link HashIdentity} its points are hashed from. Every
 * member of a cluster must use the same style, or they build different rings.
 */
public enum HashStyle {
    /**
     * The address as an nginx {@code server} line writes it: {@code host}, 0x00, {@code port}, with
     * brackets kept around IPv6 ({@link HashIdentity#nginx(String)}). Rings match nginx's
     * {@code hash $key consistent} over the same server list.
     */
    NGINX,
    /**
     * The canonical text of the socket address (RFC 5952 IPv6 without brackets), as pingora-ketama
     * hashes it ({@link HashIdentity#pingora(String)}). Needs IP addresses, not host names.
     */
    PINGORA;

    /**
     * The identity of {@code address} in this style.
     *
     * @throws IllegalArgumentException when the style cannot hash the address (pingora: not an IP socket address)
     */
    public HashIdentity identity(String address) {
        return this == NGINX ? HashIdentity.nginx(address) : HashIdentity.pingora(address);
    }

    /** {@code nginx} or {@code pingora} ({@link EnumLabels}). */
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
