package io.ketama.router.caching;

import java.util.List;

/**
 * Entity-tags (RFC 9110 §8.8.3) and their comparison (§8.8.3.2).
 *
 * <p>Lenient where it costs nothing: an unquoted tag compares by its text as a quoted one would
 * ({@code abcdef} matches {@code "abcdef"}), and two values that are byte for byte the same match
 * weakly whatever their shape ({@code W\"a"} with {@code W\"a"}). Origins do send such tags, and a
 * request that repeats one back is asking about exactly that value.
 */
final class EntityTags {

    private EntityTags() {
    }

    /** Whether {@code tag} is weak: it starts with {@code W/} (case ignored). */
    static boolean isWeak(String tag) {
        return tag.length() >= 2 && (tag.charAt(0) == 'W' || tag.charAt(0) == 'w') && tag.charAt(1) == '/';
    }

    /** The opaque-tag without weakness flag or quotes. */
    static String opaque(String tag) {
        String t = isWeak(tag) ? tag.substring(2) : tag;
        if (t.length() >= 2 && t.charAt(0) == '"' && t.charAt(t.length() - 1) == '"') {
            return t.substring(1, t.length() - 1);
        }
        return t;
    }

    /** Weak comparison: the same opaque-tag, weak or not. */
    static boolean weakMatch(String a, String b) {
        return a.equals(b) || opaque(a).equals(opaque(b));
    }

    /** Strong comparison: neither weak, the same opaque-tag. */
    static boolean strongMatch(String a, String b) {
        return !isWeak(a) && !isWeak(b) && opaque(a).equals(opaque(b));
    }

    /**
     * Whether the list {@code candidates} (of {@code If-Match} or {@code If-None-Match}) matches
     * {@code etag}: {@code *} matches any current representation; otherwise one of the tags must
     * match {@code etag} (null: the representation has none, so only {@code *} matches).
     */
    static boolean anyMatches(List<String> candidates, String etag, boolean strong) {
        for (String candidate : candidates) {
            if (candidate.equals("*")) {
                return true;
            }
            if (etag != null && (strong ? strongMatch(candidate, etag) : weakMatch(candidate, etag))) {
                return true;
            }
        }
        return false;
    }
}
