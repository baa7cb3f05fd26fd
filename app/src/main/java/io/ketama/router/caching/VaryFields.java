package io.ketama.router.caching;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Secondary keys (RFC 9111 §4.1): which request fields a response's {@code Vary} names, and the
 * normalised values of those fields in a request, so that requests that differ only in ways that do
 * not change the selection (whitespace, how lines are split, the order and case of languages) share
 * a stored response.
 */
final class VaryFields {

    /** The names a response's {@code Vary} lines list, and whether any of them is {@code *}. */
    record Vary(String[] names, boolean star) {
        static final Vary NONE = new Vary(null, false);
    }

    private VaryFields() {
    }

    /** The distinct names (first spelling kept, in order) of every {@code Vary} line. */
    static Vary vary(HttpFields headers) {
        if (!headers.has("Vary")) {
            return Vary.NONE;
        }
        List<String> names = new ArrayList<>(4);
        boolean star = false;
        for (String element : FieldLists.elements(headers, "Vary")) {
            if (element.equals("*")) {
                star = true;
            } else if (names.stream().noneMatch(n -> HttpFields.sameName(n, element))) {
                names.add(element);
            }
        }
        return names.isEmpty() && !star ? Vary.NONE : new Vary(names.toArray(new String[0]), star);
    }

    /**
     * The value of field {@code name} in {@code request} as compared for selection: every line's list
     * elements trimmed, empty ones dropped, joined by {@code ","}; for {@code Accept-Language}, also
     * lower-cased and sorted (language ranges compare without case, RFC 4647 §2, and their order
     * carries no meaning once q-values are equal). Null when the request has no such field, which
     * matches only a request that has none either.
     */
    static String normalised(HttpFields request, String name) {
        if (!request.has(name)) {
            return null;
        }
        List<String> elements = FieldLists.elements(request, name);
        if (HttpFields.sameName(name, "Accept-Language")) {
            String[] sorted = new String[elements.size()];
            for (int i = 0; i < sorted.length; i++) {
                sorted[i] = elements.get(i).toLowerCase(Locale.ROOT);
            }
            Arrays.sort(sorted);
            return String.join(",", sorted);
        }
        return String.join(",", elements);
    }
}
