package io.ketama.router;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a request's cache key is made ({@code ketama.router.cache.key}), in nginx's notation: text
 * with variables, {@code $request_uri} (the request target as the mount sees it: everything after
 * {@code /cache/} there, the whole target at the root), {@code $host} (the {@code Host} field, lower
 * case, without a port it does not name), {@code $scheme} ({@code http} or {@code https}) and
 * {@code $request_method} ({@code GET} for a {@code HEAD}, which a {@code GET}'s stored answer
 * serves). The default, {@code $request_uri}, is nginx's {@code hash $request_uri consistent}: the
 * ring places each key where nginx would. Whatever the template, the ring routes by the key it makes.
 *
 * <p>It must name {@code $request_uri}: without it, different targets would share one stored answer.
 */
final class KeyTemplate {

    private enum Part { TEXT, REQUEST_URI, HOST, SCHEME, METHOD }

    private static final String[] NAMES = {"$request_uri", "$request_method", "$scheme", "$host"};
    private static final Part[] PARTS = {Part.REQUEST_URI, Part.METHOD, Part.SCHEME, Part.HOST};

    private final String text;
    private final Part[] parts;
    private final String[] literals;

    private KeyTemplate(String text, Part[] parts, String[] literals) {
        this.text = text;
        this.parts = parts;
        this.literals = literals;
    }

    /**
     * @throws IllegalArgumentException naming what is wrong and what is allowed: an unknown variable,
     *                                  or no {@code $request_uri}
     */
    static KeyTemplate parse(String template) {
        List<Part> parts = new ArrayList<>();
        List<String> literals = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        boolean target = false;
        for (int i = 0; i < template.length(); ) {
            if (template.charAt(i) != '$') {
                literal.append(template.charAt(i++));
                continue;
            }
            int matched = -1;
            for (int n = 0; n < NAMES.length && matched < 0; n++) {
                if (template.startsWith(NAMES[n], i)) {
                    matched = n;
                }
            }
            if (matched < 0) {
                int end = i + 1;
                while (end < template.length() && (Character.isLetterOrDigit(template.charAt(end)) || template.charAt(end) == '_')) {
                    end++;
                }
                throw new IllegalArgumentException("'" + template + "' names " + template.substring(i, end)
                        + ", which is not a key variable; allowed: " + String.join(", ", NAMES) + " and plain text");
            }
            if (literal.length() > 0) {
                parts.add(Part.TEXT);
                literals.add(literal.toString());
                literal.setLength(0);
            }
            parts.add(PARTS[matched]);
            literals.add(null);
            target |= PARTS[matched] == Part.REQUEST_URI;
            i += NAMES[matched].length();
        }
        if (literal.length() > 0) {
            parts.add(Part.TEXT);
            literals.add(literal.toString());
        }
        if (!target) {
            throw new IllegalArgumentException("'" + template + "' does not name $request_uri: every target would share "
                    + "one stored answer; e.g. $request_uri (the default) or $host$request_uri");
        }
        return new KeyTemplate(template, parts.toArray(new Part[0]), literals.toArray(new String[0]));
    }

    /** Whether the key is the target alone (the default: nothing to build). */
    boolean targetOnly() {
        return parts.length == 1;
    }

    /**
     * The key of a request.
     *
     * @param requestUri the target as the mount sees it
     * @param host       the {@code Host} field as sent, or null
     */
    String key(String requestUri, String method, String scheme, String host) {
        if (parts.length == 1) {
            return requestUri;
        }
        StringBuilder key = new StringBuilder(requestUri.length() + 32);
        for (int i = 0; i < parts.length; i++) {
            switch (parts[i]) {
                case TEXT -> key.append(literals[i]);
                case REQUEST_URI -> key.append(requestUri);
                case METHOD -> key.append(method.equals("HEAD") ? "GET" : method);
                case SCHEME -> key.append(scheme);
                case HOST -> key.append(host(host, scheme));
            }
        }
        return key.toString();
    }

    /** {@code Host} lower-cased, its port dropped where it is the scheme's default. */
    private static String host(String host, String scheme) {
        if (host == null) {
            return "";
        }
        String h = host.trim().toLowerCase(Locale.ROOT);
        String defaultPort = scheme.equals("https") ? ":443" : ":80";
        return h.endsWith(defaultPort) ? h.substring(0, h.length() - defaultPort.length()) : h;
    }

    @Override
    public String toString() {
        return text;
    }
}
