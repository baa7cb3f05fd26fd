package io.ketama.quarkus;

import java.util.Locale;

/**
 * How a member's address becomes its ring identity when it has no node id. Every member of a
 * cluster must use the same style, or they build different rings.
 */
public enum HashStyle {
    /**
     * The address as an nginx {@code server} line writes it: {@code host}, 0x00, {@code port}, with
     * brackets kept around IPv6. Rings match nginx's {@code hash $key consistent} over the same
     * server list.
     */
    NGINX,
    /**
     * The canonical text of the socket address (RFC 5952 IPv6 without brackets), as pingora-ketama
     * hashes it. Needs IP addresses, not host names.
     */
    PINGORA;

    /** Configuration key of the style. */
    public static final String KEY = "quarkus.ketama.hash-style";

    /** {@code nginx} or {@code pingora}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses {@code nginx} or {@code pingora} (any case).
     *
     * @throws IllegalArgumentException naming {@value #KEY} and the allowed values
     */
    public static HashStyle parse(String text) {
        String t = text == null ? "" : text.trim();
        for (HashStyle s : values()) {
            if (s.label().equalsIgnoreCase(t)) {
                return s;
            }
        }
        throw new IllegalArgumentException(KEY + " must be one of nginx, pingora, was '" + text + "'");
    }
}
