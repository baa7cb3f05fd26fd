package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import io.ketama.core.FeatureTags;
import io.ketama.quarkus.MemberAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A tag a member may advertise is exactly a tag a request may require: for every candidate, the
 * {@code X-Ketama-Features} header accepts it if and only if a member may publish it
 * ({@link MemberAttributes#publish}), and both if and only if it is a {@link FeatureTags} tag.
 */
class FeatureTagAgreementTest {

    static List<String> candidates() {
        List<String> out = new ArrayList<>(List.of("pci", "eu-west-1", "ssd:nvme", "v1.2+b_c", "-a", ".a", "a b", "a;b",
                "\u00fc", "a\u00e9", "\u65e5", "a".repeat(FeatureTags.MAX_LENGTH), "a".repeat(FeatureTags.MAX_LENGTH + 1), " a ", "a\tb"));
        for (char c = 1; c < 128; c++) {
            if (c != ',') {
                out.add(String.valueOf(c));
                out.add("a" + c);
                out.add(c + "a");
            }
        }
        Random rnd = new Random(7);
        String alphabet = "abcXYZ019._:+- ;/\\\"'\u00e9\t";
        for (int i = 0; i < 2000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = rnd.nextInt(6); n >= 0; n--) {
                s.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            out.add(s.toString());
        }
        out.removeIf(String::isBlank); // blank is "no tags" on both sides
        return out;
    }

    @Test
    void theHeaderAcceptsExactlyTheTagsAMemberMayAdvertise() {
        int accepted = 0;
        for (String s : candidates()) {
            boolean request = accepts(() -> FeaturesHeader.parse(List.of(s)));
            boolean member = accepts(() -> MemberAttributes.publish(new Config(), 1, List.of(s), "default", null));
            assertThat(request).as("'%s': header %s, member %s", s, request, member).isEqualTo(member);
            assertThat(request).as("'%s'", s).isEqualTo(FeatureTags.isTag(s.strip()));
            accepted += request ? 1 : 0;
        }
        assertThat(accepted).as("some candidates are tags, some are not").isBetween(100, candidates().size() - 100);
    }

    private static boolean accepts(Runnable r) {
        try {
            r.run();
            return true;
        } catch (ProblemException | IllegalArgumentException e) {
            return false;
        }
    }
}
