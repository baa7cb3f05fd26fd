package io.ketama.router;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The {@code X-Ketama-Features} request header: the features a key's server must have, as
 * comma-separated tags ({@code a,b}; blanks around tags ignored; repeated headers add up).
 */
final class FeaturesHeader {

    static final String NAME = "X-Ketama-Features";
    static final int MAX_FEATURES = 16;
    static final int MAX_TAG_LENGTH = 64;
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:+-]*");
    private static final String ALLOWED = "comma-separated tags of 1 to " + MAX_TAG_LENGTH
            + " characters from A-Z a-z 0-9 . _ : + - (starting with a letter or digit), at most " + MAX_FEATURES + " tags";

    private FeaturesHeader() {
    }

    /**
     * The required features; none when the header is absent or blank.
     *
     * @throws ProblemException naming the offending tag and what is allowed
     */
    static Set<String> parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            return Set.of();
        }
        String joined = String.join(",", values);
        if (joined.isBlank()) {
            return Set.of();
        }
        TreeSet<String> tags = new TreeSet<>();
        String[] parts = joined.split(",", -1);
        for (int i = 0; i < parts.length; i++) {
            String tag = parts[i].strip();
            if (tag.isEmpty()) {
                throw malformed("tag " + (i + 1) + " of '" + shorten(joined) + "' is empty");
            }
            if (tag.length() > MAX_TAG_LENGTH) {
                throw malformed("tag " + (i + 1) + " is " + tag.length() + " characters long");
            }
            if (!TAG.matcher(tag).matches()) {
                throw malformed("tag '" + shorten(tag) + "' has a character that is not allowed");
            }
            tags.add(tag);
        }
        if (tags.size() > MAX_FEATURES) {
            throw malformed(tags.size() + " distinct tags");
        }
        return Collections.unmodifiableSet(tags);
    }

    private static ProblemException malformed(String what) {
        return new ProblemException(ProblemType.MALFORMED_FEATURES, NAME + ": " + what + "; allowed: " + ALLOWED);
    }

    private static String shorten(String s) {
        String printable = s.codePoints()
                .map(c -> c < 0x20 || c == 0x7F ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        return printable.length() <= 80 ? printable : printable.substring(0, 80) + "…";
    }
}
