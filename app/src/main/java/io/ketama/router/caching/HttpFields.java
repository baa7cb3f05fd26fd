package io.ketama.router.caching;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The header fields of one HTTP message, immutable, in the order received, each line kept apart
 * (two {@code Age} lines stay two lines: RFC 9111 §4.2.3 reads the first). Names compare without
 * regard to ASCII case (RFC 9110 §5.1); values are kept byte for byte, one char per byte
 * (ISO-8859-1), as Netty reads a message off the wire and writes it back, so a value with
 * obs-text round-trips unchanged.
 *
 * <p>Held as one flat array of names and values ({@code name0, value0, name1, value1, ...}): a
 * message carries a dozen fields or so, where a linear scan beats a map and the array is the only
 * object beside the strings. A store makes the names and the values of fields that repeat across
 * answers shared instances ({@link #shared}), so a cache of many answers holds one
 * {@code "Content-Type"} and one {@code "text/html"}, not one each; fields only read in passing (a
 * request's, say) are never shared, so a client cannot fill the shared instances with its own.
 */
public final class HttpFields {

    private static final String[] NONE = new String[0];

    public static final HttpFields EMPTY = new HttpFields(NONE);

    /**
     * The hop-by-hop fields of RFC 9110 §7.6.1 (and the obsolete {@code Proxy-Connection}, and the
     * proxy authentication fields, which concern the next hop only, §11.7): never stored, never
     * forwarded. {@code Connection} also names further fields to drop ({@link #endToEnd}).
     */
    private static final String[] HOP_BY_HOP = {"Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding",
            "Upgrade", "Trailer", "Proxy-Authenticate", "Proxy-Authorization", "Proxy-Authentication-Info"};

    /** Names and values alternating; never written after construction. */
    private final String[] pairs;

    private HttpFields(String[] pairs) {
        this.pairs = pairs;
    }

    /**
     * Fields from names and values alternating: {@code of("Content-Type", "text/plain", "ETag", "\"a\"")}.
     *
     * @throws IllegalArgumentException when the count is odd or a name is empty
     * @throws NullPointerException     when a name or value is null
     */
    public static HttpFields of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must alternate: an odd count " + namesAndValues.length);
        }
        Builder b = builder(namesAndValues.length / 2);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            b.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return b.build();
    }

    public static Builder builder() {
        return new Builder(8);
    }

    /** A builder with room for {@code fields} fields before it grows. */
    public static Builder builder(int fields) {
        return new Builder(Math.max(1, fields));
    }

    /** Lines of fields (a field sent twice counts twice). */
    public int size() {
        return pairs.length / 2;
    }

    public boolean isEmpty() {
        return pairs.length == 0;
    }

    /** The name of line {@code i}, as received. */
    public String name(int i) {
        return pairs[2 * i];
    }

    /** The value of line {@code i}, as received. */
    public String value(int i) {
        return pairs[2 * i + 1];
    }

    /** Whether a line named {@code name} is present. */
    public boolean has(String name) {
        return indexOf(name, 0) >= 0;
    }

    /** The value of the first line named {@code name}, or null. */
    public String first(String name) {
        int i = indexOf(name, 0);
        return i < 0 ? null : pairs[i + 1];
    }

    /** The values of every line named {@code name}, in order; empty when there is none. */
    public List<String> all(String name) {
        List<String> values = null;
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 2)) {
            if (values == null) {
                values = new ArrayList<>(2);
            }
            values.add(pairs[i + 1]);
        }
        return values == null ? List.of() : values;
    }

    /**
     * Every line named {@code name} combined into one value, joined by {@code ", "} (RFC 9110 §5.3:
     * a list field's lines may be combined in order); null when there is none.
     */
    public String combined(String name) {
        int i = indexOf(name, 0);
        if (i < 0) {
            return null;
        }
        int next = indexOf(name, i + 2);
        if (next < 0) {
            return pairs[i + 1];
        }
        StringBuilder out = new StringBuilder(pairs[i + 1]);
        for (; next >= 0; next = indexOf(name, next + 2)) {
            out.append(", ").append(pairs[next + 1]);
        }
        return out.toString();
    }

    /** These fields without any line whose name is one of {@code names}. */
    public HttpFields without(String... names) {
        int keep = 0;
        boolean[] drop = new boolean[size()];
        for (int i = 0; i < size(); i++) {
            drop[i] = matchesAny(name(i), names);
            if (!drop[i]) {
                keep++;
            }
        }
        if (keep == size()) {
            return this;
        }
        String[] out = new String[2 * keep];
        int o = 0;
        for (int i = 0; i < size(); i++) {
            if (!drop[i]) {
                out[o++] = pairs[2 * i];
                out[o++] = pairs[2 * i + 1];
            }
        }
        return new HttpFields(out);
    }

    /** These fields with one more line, {@code name: value}, at the end. */
    public HttpFields with(String name, String value) {
        String[] out = Arrays.copyOf(pairs, pairs.length + 2);
        out[pairs.length] = checkName(name);
        out[pairs.length + 1] = Objects.requireNonNull(value, "value");
        return new HttpFields(out);
    }

    /** These fields with every line named {@code name} replaced by one line {@code name: value}, at the end. */
    public HttpFields replacing(String name, String value) {
        return without(name).with(name, value);
    }

    /**
     * These fields without the hop-by-hop ones (RFC 9110 §7.6.1): {@link #isHopByHop} and every
     * field the {@code Connection} lines name.
     */
    public HttpFields endToEnd() {
        boolean any = false;
        for (int i = 0; i < size() && !any; i++) {
            any = isHopByHop(name(i));
        }
        if (!any) {
            return this;
        }
        List<String> listed = new ArrayList<>(List.of(HOP_BY_HOP));
        for (String line : all("Connection")) {
            for (String option : line.split(",")) {
                String named = option.trim();
                if (!named.isEmpty()) {
                    listed.add(named);
                }
            }
        }
        return without(listed.toArray(new String[0]));
    }

    /** Whether {@code name} is a hop-by-hop field whatever {@code Connection} says (RFC 9110 §7.6.1). */
    public static boolean isHopByHop(String name) {
        return matchesAny(name, HOP_BY_HOP);
    }

    /** Whether two field names are the same name (ASCII case ignored). */
    public static boolean sameName(String a, String b) {
        return a.length() == b.length() && a.regionMatches(true, 0, b, 0, a.length());
    }

    private int indexOf(String name, int from) {
        for (int i = from; i < pairs.length; i += 2) {
            if (sameName(pairs[i], name)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean matchesAny(String name, String[] names) {
        for (String n : names) {
            if (sameName(name, n)) {
                return true;
            }
        }
        return false;
    }

    private static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a field name must not be empty");
        }
        return name;
    }

    /**
     * These fields with their names, and the values of the fields whose values repeat, as the instances
     * {@code strings} keeps ({@link SharedStrings}); the same instance when they are already.
     */
    public HttpFields shared(SharedStrings strings) {
        String[] out = null;
        for (int i = 0; i < pairs.length; i += 2) {
            String name = strings.name(pairs[i]);
            String value = strings.value(pairs[i], pairs[i + 1]);
            if (out == null && (name != pairs[i] || value != pairs[i + 1])) {
                out = pairs.clone();
            }
            if (out != null) {
                out[i] = name;
                out[i + 1] = value;
            }
        }
        return out == null ? this : new HttpFields(out);
    }

    /**
     * The heap these fields take beyond what {@code strings} shares (for a cache's byte bound): the
     * array, and every string that is not one of its instances, as {@code stringBytes} counts it.
     *
     * @param arrayBytes  the heap of an array of {@code n} references: {@code arrayBytes.applyAsLong(n)}
     * @param stringBytes the heap of one string of its own
     */
    public long heapBytes(SharedStrings strings, java.util.function.LongUnaryOperator arrayBytes,
                          java.util.function.ToLongFunction<String> stringBytes) {
        long bytes = arrayBytes.applyAsLong(pairs.length);
        for (String s : pairs) {
            if (!strings.keeps(s)) {
                bytes += stringBytes.applyAsLong(s);
            }
        }
        return bytes;
    }

    /** Equal when they hold the same lines in the same order (names compared without case). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HttpFields other) || other.pairs.length != pairs.length) {
            return false;
        }
        for (int i = 0; i < pairs.length; i += 2) {
            if (!sameName(pairs[i], other.pairs[i]) || !pairs[i + 1].equals(other.pairs[i + 1])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = 0; i < pairs.length; i += 2) {
            h = 31 * h + pairs[i].toLowerCase(Locale.ROOT).hashCode();
            h = 31 * h + pairs[i + 1].hashCode();
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < pairs.length; i += 2) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(pairs[i]).append(": ").append(pairs[i + 1]);
        }
        return out.append(']').toString();
    }

    /** Collects lines in order. Not thread-safe. */
    public static final class Builder {
        private String[] pairs;
        private int length;

        private Builder(int fields) {
            this.pairs = new String[2 * fields];
        }

        /**
         * One more line.
         *
         * @throws IllegalArgumentException when {@code name} is empty
         * @throws NullPointerException     when either is null
         */
        public Builder add(String name, String value) {
            Objects.requireNonNull(value, "value");
            if (length == pairs.length) {
                pairs = Arrays.copyOf(pairs, Math.max(4, 2 * pairs.length));
            }
            pairs[length++] = checkName(name);
            pairs[length++] = value;
            return this;
        }

        /** Every line of {@code fields}, in order. */
        public Builder addAll(HttpFields fields) {
            for (int i = 0; i < fields.size(); i++) {
                add(fields.name(i), fields.value(i));
            }
            return this;
        }

        public int size() {
            return length / 2;
        }

        /** The lines added so far; the builder starts empty again. */
        public HttpFields build() {
            HttpFields fields = length == 0 ? EMPTY : new HttpFields(length == pairs.length ? pairs : Arrays.copyOf(pairs, length));
            pairs = NONE;
            length = 0;
            return fields;
        }
    }
}
