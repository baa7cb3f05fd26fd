package io.ketama.quarkus;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The admin plane's one check of a caller's token ({@code quarkus.ketama.admin.token}), for the
 * extension's own calls and an application's that act for the cluster (the service's purges): an
 * {@code Authorization: Bearer <token>} header, compared in constant time so that the time an
 * answer takes says nothing of how much of a guess was right.
 */
public final class AdminToken {

    private AdminToken() {
    }

    /** Whether {@code authorization} (the header's value, or null) is {@code Bearer <expected>}; the scheme's case does not count. */
    public static boolean matches(String authorization, String expected) {
        if (authorization == null || authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, expected.getBytes(StandardCharsets.UTF_8));
    }
}
