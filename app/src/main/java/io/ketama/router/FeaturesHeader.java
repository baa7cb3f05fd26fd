package io.ketama.router;

import io.ketama.core.FeatureTags;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code X-Ketama-Features} request header: the features a key's server must have, as
 * comma-separated tags ({@code a,b}; blanks around tags ignored; repeated headers add up). A tag
 * follows {@link FeatureTags}, the grammar of the tags members advertise, so every tag a member
 * may have can be asked for and nothing else.
 */
final class FeaturesHeader {

    static final String NAME = "X-Ketama-Features";
    /** Distinct tags one request may require: a bound on the work of resolving one request's set. */
    static final int MAX_FEATURES = 16;
    private static final String ALLOWED = "comma-separated tags of " + FeatureTags.TAG_RULE + ", at most " + MAX_FEATURES + " tags";

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
            String problem = FeatureTags.problem(tag);
            if (problem != null) {
                throw malformed(tag.isEmpty() ? "tag " + (i + 1) + " of '" + FeatureTags.printable(joined) + "' is empty"
                        : tag.length() > FeatureTags.MAX_LENGTH ? "tag " + (i + 1) + " " + problem
                        : "tag '" + FeatureTags.printable(tag) + "' " + problem);
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
}
