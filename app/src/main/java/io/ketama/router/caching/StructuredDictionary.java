package io.ketama.router.caching;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Structured Field Dictionary (RFC 8941 §3.2, parsed as §4.2.2 says), the syntax of the targeted
 * cache-control fields (RFC 9213 §2.1). Strict, as §4.2 requires: any error fails the whole field.
 * Parameters are parsed and dropped (RFC 9213 §2.1 ignores them). Members map to:
 * {@link Long} (Integer), {@link Decimal}, {@link Str} (String), {@link Token}, {@link Binary},
 * {@link Boolean} and {@link InnerList}. Where a key repeats, the last value wins (RFC 8941 §4.2.2).
 */
final class StructuredDictionary {

    record Decimal(String text) {
    }

    record Str(String value) {
    }

    record Token(String value) {
    }

    record Binary(String base64) {
    }

    record InnerList(List<Object> items) {
    }

    private final String s;
    private int i;

    private StructuredDictionary(String s) {
        this.s = s;
    }

    /** The members of {@code value}, in order; null when it is not a valid Dictionary. */
    static Map<String, Object> parse(String value) {
        try {
            return new StructuredDictionary(value).dictionary();
        } catch (IllegalArgumentException invalid) {
            return null;
        }
    }

    private Map<String, Object> dictionary() {
        Map<String, Object> members = new LinkedHashMap<>();
        skipSp();
        while (i < s.length()) {
            String key = key();
            Object value;
            if (peek() == '=') {
                i++;
                value = peek() == '(' ? innerList() : item();
            } else {
                value = Boolean.TRUE;
                parameters();
            }
            members.remove(key); // last wins, at the place of the last
            members.put(key, value);
            skipOws();
            if (i == s.length()) {
                return members;
            }
            expect(',');
            skipOws();
            if (i == s.length()) {
                throw fail("a trailing comma");
            }
        }
        return members;
    }

    private Object item() {
        Object value = bareItem();
        parameters();
        return value;
    }

    private InnerList innerList() {
        expect('(');
        List<Object> items = new ArrayList<>();
        while (i < s.length()) {
            skipSp();
            if (peek() == ')') {
                i++;
                parameters();
                return new InnerList(items);
            }
            items.add(item());
            char c = peek();
            if (c != ' ' && c != ')') {
                throw fail("an inner list item not followed by a space or ')'");
            }
        }
        throw fail("an unterminated inner list");
    }

    private void parameters() {
        while (peek() == ';') {
            i++;
            skipSp();
            key();
            if (peek() == '=') {
                i++;
                bareItem();
            }
        }
    }

    private String key() {
        int start = i;
        char c = peek();
        if (!(c >= 'a' && c <= 'z' || c == '*')) {
            throw fail("a key not starting with lcalpha or '*'");
        }
        i++;
        while (i < s.length()) {
            c = s.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*') {
                i++;
            } else {
                break;
            }
        }
        return s.substring(start, i);
    }

    private Object bareItem() {
        char c = peek();
        if (c == '-' || c >= '0' && c <= '9') {
            return number();
        }
        if (c == '"') {
            return string();
        }
        if (c == '*' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
            return token();
        }
        if (c == ':') {
            return binary();
        }
        if (c == '?') {
            i++;
            char b = peek();
            if (b != '0' && b != '1') {
                throw fail("a boolean other than ?0 or ?1");
            }
            i++;
            return b == '1';
        }
        throw fail("an item of unknown type");
    }

    private Object number() {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        int digitsStart = i;
        int dot = -1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                i++;
            } else if (c == '.' && dot < 0) {
                dot = i++;
            } else {
                break;
            }
            if (dot < 0 && i - digitsStart > 15 || dot >= 0 && i - digitsStart > 16) {
                throw fail("a number too long");
            }
        }
        if (i == digitsStart || !Character.isDigit(s.charAt(digitsStart))) {
            throw fail("a number without digits");
        }
        if (dot < 0) {
            return Long.parseLong(s, start, i, 10);
        }
        if (dot - digitsStart > 12 || i - dot - 1 < 1 || i - dot - 1 > 3) {
            throw fail("a decimal of more than 12 integer or 3 fraction digits");
        }
        return new Decimal(s.substring(start, i));
    }

    private Str string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '\\') {
                char next = peek();
                if (next != '"' && next != '\\') {
                    throw fail("an escape of other than '\"' or '\\'");
                }
                out.append(next);
                i++;
            } else if (c == '"') {
                return new Str(out.toString());
            } else if (c < 0x20 || c > 0x7e) {
                throw fail("a string with a char out of VCHAR and SP");
            } else {
                out.append(c);
            }
        }
        throw fail("an unterminated string");
    }

    private Token token() {
        int start = i++;
        while (i < s.length() && (FieldLists.isTchar(s.charAt(i)) || s.charAt(i) == ':' || s.charAt(i) == '/')) {
            i++;
        }
        return new Token(s.substring(start, i));
    }

    private Binary binary() {
        expect(':');
        int start = i;
        while (i < s.length() && s.charAt(i) != ':') {
            char c = s.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=')) {
                throw fail("a byte sequence with a char out of base64");
            }
            i++;
        }
        expect(':');
        return new Binary(s.substring(start, i - 1));
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw fail("'" + c + "' expected");
        }
        i++;
    }

    private void skipSp() {
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
    }

    private void skipOws() {
        while (i < s.length() && FieldLists.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException(what + " at " + i);
    }
}
