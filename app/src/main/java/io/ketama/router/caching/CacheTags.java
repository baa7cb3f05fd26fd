package io.ketama.router.caching;

import java.util.ArrayList;
import java.util.List;

/**
 * The purge tags an answer carries: {@code Surrogate-Key} (Fastly's form, tags separated by
 * spaces) and {@code Cache-Tag} (Cloudflare's, separated by commas), every field line of both read,
 * duplicates once. A tag is what lies between separators, case kept (both CDNs match tags exactly).
 * Answers without either field, most of them, cost one scan of their field names and no allocation.
 */
public final class CacheTags {

    public static final String SURROGATE_KEY = "Surrogate-Key";
    public static final String CACHE_TAG = "Cache-Tag";
    /** Tags read from one answer at most; the rest are ignored (a purge by them misses that answer). */
    public static final int MAX_TAGS = 256;

    private CacheTags() {
    }

    /** The tags of {@code fields}, in the order they appear; empty when none. */
    public static List<String> of(HttpFields fields) {
        List<String> tags = List.of();
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            boolean spaces = HttpFields.sameName(name, SURROGATE_KEY);
            if (!spaces && !HttpFields.sameName(name, CACHE_TAG)) {
                continue;
            }
            if (tags.isEmpty()) {
                tags = new ArrayList<>(4);
            }
            split(fields.value(i), spaces, tags);
        }
        return tags;
    }

    /** Whether {@code fields} names a tag of the field lists. */
    public static boolean tagged(HttpFields fields) {
        return fields.has(SURROGATE_KEY) || fields.has(CACHE_TAG);
    }

    private static void split(String value, boolean spaces, List<String> into) {
        int n = value.length();
        int i = 0;
        while (i < n && into.size() < MAX_TAGS) {
            while (i < n && separator(value.charAt(i), spaces)) {
                i++;
            }
            int start = i;
            while (i < n && !separator(value.charAt(i), spaces)) {
                i++;
            }
            if (i > start) {
                String tag = spaces ? value.substring(start, i) : value.substring(start, i).trim();
                if (!tag.isEmpty() && !into.contains(tag)) {
                    into.add(tag);
                }
            }
        }
    }

    private static boolean separator(char c, boolean spaces) {
        return spaces ? c == ' ' || c == '\t' : c == ',';
    }
}
