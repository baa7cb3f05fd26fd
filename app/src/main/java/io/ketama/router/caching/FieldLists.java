package io.ketama.router.caching;

import java.util.ArrayList;
import java.util.List;

/**
 * The list syntax of RFC 9110 §5.6.1 ({@code #element}): elements separated by commas, with optional
 * whitespace around them and empty elements tolerated, as a recipient must. Commas inside a
 * quoted-string (§5.6.4) do not separate: {@code If-None-Match: "a,b", "c"} is two entity-tags.
 */
final class FieldLists {

    private FieldLists() {
    }

    /** The non-empty elements of every line named {@code name}, trimmed, in order. */
    static List<String> elements(HttpFields headers, String name) {
        List<String> out = new ArrayList<>(4);
        for (int i = 0; i < headers.size(); i++) {
            if (HttpFields.sameName(headers.name(i), name)) {
                split(headers.value(i), out);
            }
        }
        return out;
    }

    /** The non-empty elements of one value, trimmed. */
    static List<String> elements(String value) {
        List<String> out = new ArrayList<>(4);
        split(value, out);
        return out;
    }

    private static void split(String value, List<String> out) {
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quoted && c == '\\') {
                i++; // quoted-pair: the next char is taken as is
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                add(value, start, i, out);
                start = i + 1;
            }
        }
        add(value, start, value.length(), out);
    }

    private static void add(String value, int from, int to, List<String> out) {
        while (from < to && isWhitespace(value.charAt(from))) {
            from++;
        }
        while (to > from && isWhitespace(value.charAt(to - 1))) {
            to--;
        }
        if (to > from) {
            out.add(value.substring(from, to));
        }
    }

    static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t';
    }

    /** Whether {@code c} may appear in a token (RFC 9110 §5.6.2). */
    static boolean isTchar(char c) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    /** Whether {@code name} is a token, as a field name must be. */
    static boolean isToken(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTchar(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
