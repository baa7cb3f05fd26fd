package io.ketama.router.caching;

import java.util.List;
import java.util.Map;

/**
 * Targeted cache-control fields (RFC 9213), such as {@code CDN-Cache-Control}: directives aimed at a
 * class of caches, which, when one applies, replace {@code Cache-Control} and {@code Expires} for that
 * cache (§2.1, §2.2).
 *
 * <p>A field is used only when valid: a Structured Field Dictionary (RFC 8941) whose known directives
 * have the types RFC 9213 §2.1 infers from RFC 9111 (Integers of at least 0 for the delta-seconds
 * directives, Booleans for the flags). Otherwise it is ignored as a whole and the next field of the
 * list is tried (§2.1: "SHOULD NOT consume values that violate these inferred constraints"). Two
 * exceptions err on the side of not serving: {@code private} and {@code no-cache} with any non-Boolean
 * value count as their unqualified forms, since ignoring the field would let {@code Cache-Control}
 * cache what the origin meant to keep out.
 */
final class TargetedFields {

    private TargetedFields() {
    }

    /**
     * The directives of the first field of {@code names} that {@code headers} carries and that is valid,
     * or null when there is none.
     */
    static CacheControl select(HttpFields headers, List<String> names) {
        for (String name : names) {
            String value = headers.combined(name);
            if (value == null || value.isBlank()) {
                continue; // an empty field is ignored (RFC 9213 §2.1)
            }
            Map<String, Object> members = StructuredDictionary.parse(value);
            if (members == null || members.isEmpty()) {
                continue;
            }
            CacheControl directives = directives(members);
            if (directives != null) {
                return directives;
            }
        }
        return null;
    }

    /** The directives of a parsed field, or null when a known directive has the wrong type. */
    static CacheControl directives(Map<String, Object> members) {
        CacheControl.Builder b = new CacheControl.Builder();
        for (Map.Entry<String, Object> member : members.entrySet()) {
            Object v = member.getValue();
            String key = member.getKey();
            switch (key) {
                case "max-age", "s-maxage", "stale-while-revalidate", "stale-if-error" -> {
                    long seconds = seconds(v);
                    if (seconds == DeltaSeconds.INVALID) {
                        return null;
                    }
                    switch (key) {
                        case "max-age" -> b.maxAge = seconds;
                        case "s-maxage" -> b.sMaxage = seconds;
                        case "stale-while-revalidate" -> b.staleWhileRevalidate = seconds;
                        default -> b.staleIfError = seconds;
                    }
                }
                case "no-store", "public", "must-revalidate", "proxy-revalidate", "must-understand" -> {
                    if (!(v instanceof Boolean set)) {
                        return null;
                    }
                    switch (key) {
                        case "no-store" -> b.noStore = set;
                        case "public" -> b.isPublic = set;
                        case "must-revalidate" -> b.mustRevalidate = set;
                        case "proxy-revalidate" -> b.proxyRevalidate = set;
                        default -> b.mustUnderstand = set;
                    }
                }
                case "no-cache" -> b.noCache = !Boolean.FALSE.equals(v);
                case "private" -> b.isPrivate = !Boolean.FALSE.equals(v);
                default -> {
                    // other directives (RFC 9111 §5.2.3) and extensions are ignored, whatever their type
                }
            }
        }
        return b.build();
    }

    /** An Integer of at least 0, capped at 2^31 (RFC 9111 §1.2.2); {@link DeltaSeconds#INVALID} otherwise. */
    private static long seconds(Object v) {
        if (v instanceof Long l && l >= 0) {
            return Math.min(l, DeltaSeconds.MAX);
        }
        return DeltaSeconds.INVALID;
    }
}
