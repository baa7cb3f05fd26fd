package io.ketama.core;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The one grammar of a feature tag, for the tags a node (a cluster member) advertises and for
 * the tags a request requires: a tag a member may advertise is exactly a tag a request may ask
 * for, so no member can carry a capability nobody can select, and no request can name a tag no
 * member could ever have.
 *
 * <p>A tag is 1 to {@value #MAX_LENGTH} characters from {@code A-Z a-z 0-9 . _ : + -}, starting
 * with a letter or digit; tags are case-sensitive. That leaves out what would make a tag
 * ambiguous in the places it is written: commas (the list separator), white space (trimmed
 * around list items), quotes and control characters (headers, logs, JSON), and anything beyond
 * ASCII (one tag, one spelling). A list of tags is written comma-separated, blanks around each
 * tag ignored, and the empty (or blank) text is no tags.
 */
public final class FeatureTags {

    /** Longest tag, in characters. */
    public static final int MAX_LENGTH = 64;

    /** The grammar of one tag, for messages. */
    public static final String TAG_RULE = "1 to " + MAX_LENGTH
            + " characters from A-Z a-z 0-9 . _ : + - starting with a letter or digit";

    /** The grammar of a list of tags, for messages. */
    public static final String LIST_RULE = "comma-separated non-empty tags, each " + TAG_RULE;

    private FeatureTags() {
    }

    /** Whether {@code tag} is a tag. */
    public static boolean isTag(String tag) {
        return tag != null && problem(tag) == null;
    }

    /**
     * What is wrong with {@code tag} ({@code "is empty"}, {@code "is 70 characters long"},
     * {@code "has a character that is not allowed"}), or null when it is a tag.
     */
    public static String problem(String tag) {
        Objects.requireNonNull(tag, "tag");
        if (tag.isEmpty()) {
            return "is empty";
        }
        if (tag.length() > MAX_LENGTH) {
            return "is " + tag.length() + " characters long";
        }
        if (!letterOrDigit(tag.charAt(0))) {
            return "has a character that is not allowed";
        }
        for (int i = 1; i < tag.length(); i++) {
            char c = tag.charAt(i);
            if (!letterOrDigit(c) && c != '.' && c != '_' && c != ':' && c != '+' && c != '-') {
                return "has a character that is not allowed";
            }
        }
        return null;
    }

    /**
     * {@code tag} itself when it is a tag.
     *
     * @param what names where the tag was written, for the message
     * @throws IllegalArgumentException "{@code what} tag '…' is empty / has a character that is not allowed …; allowed: …"
     */
    public static String require(String tag, String what) {
        String problem = tag == null ? "is missing" : problem(tag);
        if (problem != null) {
            throw new IllegalArgumentException(what + " tag '" + printable(tag) + "' " + problem + "; allowed: " + TAG_RULE);
        }
        return tag;
    }

    /**
     * The tags of a comma-separated list, in the order written, each once; blanks around tags are
     * ignored and a blank text is no tags.
     *
     * @param what names the list (a configuration key, a member attribute), for the message
     * @throws IllegalArgumentException naming {@code what}, the offending tag and {@link #LIST_RULE}
     */
    public static Set<String> parseList(String text, String what) {
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String tag = part.strip();
            if (tag.isEmpty()) {
                throw new IllegalArgumentException(what + " has an empty feature in '" + printable(text) + "'; allowed: " + LIST_RULE
                        + ", or nothing for no features");
            }
            String problem = problem(tag);
            if (problem != null) {
                throw new IllegalArgumentException(what + " has feature '" + printable(tag) + "' that " + problem + "; allowed: "
                        + LIST_RULE + ", or nothing for no features");
            }
            out.add(tag);
        }
        return Collections.unmodifiableSet(out);
    }

    /** {@code text} with control characters as {@code ?} and cut at 80 characters, safe to put in a message or a log line. */
    public static String printable(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), 81));
        for (int i = 0; i < text.length() && out.length() < 80; i++) {
            char c = text.charAt(i);
            out.append(c < 0x20 || c == 0x7F ? '?' : c);
        }
        if (text.length() > 80) {
            out.append('…');
        }
        return out.toString();
    }

    private static boolean letterOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}
