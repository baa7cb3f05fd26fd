package io.ketama.core.cli;

import io.ketama.core.HashIdentity;
import java.util.Locale;

/** How a server's address text becomes the identity its points are hashed from. */
enum HashStyle {
    /** The text as written in an nginx {@code server} line ({@link HashIdentity#nginx(String)}). */
    NGINX,
    /** The canonical text of an IP socket address, as pingora-ketama hashes it ({@link HashIdentity#pingora(String)}). */
    PINGORA;

    HashIdentity identity(String address) {
        return this == NGINX ? HashIdentity.nginx(address) : HashIdentity.pingora(address);
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static HashStyle parse(String text) throws CliException {
        for (HashStyle s : values()) {
            if (s.label().equals(text)) {
                return s;
            }
        }
        throw new CliException("unknown hash style '" + text + "'; allowed: nginx, pingora");
    }
}
