package io.ketama.quarkus.runtime;

import static io.ketama.quarkus.runtime.Members.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import io.ketama.core.FeatureTags;
import io.ketama.core.HashStyle;
import io.ketama.core.Node;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberAttributes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A member's attributes and configuration follow core's rules: the tag grammar, the weight bound, the address text. */
class MemberRulesTest {

    @Test
    void aMemberAdvertisesExactlyTheTagsOfTheGrammar() {
        for (String s : new String[] {"pci", "eu-west-1", "ssd:nvme", " v1.2+b_c ", "a b", "a;b", "-a", "\u00fc", "a\"b",
                "a".repeat(FeatureTags.MAX_LENGTH), "a".repeat(FeatureTags.MAX_LENGTH + 1)}) {
            boolean tag = FeatureTags.isTag(s.strip());
            boolean attribute = accepts(() -> MemberParser.parse(member("10.0.0.1", 5701, MemberAttributes.FEATURES, s), HashStyle.NGINX));
            boolean config = accepts(() -> MemberParser.features("quarkus.ketama.member.features", s));
            boolean published = accepts(() -> MemberAttributes.publish(new Config(), 1, List.of(s), "default", null));
            assertThat(List.of(attribute, config, published)).as("'%s'", s).containsOnly(tag);
        }
        assertThatThrownBy(() -> MemberParser.parse(member("10.0.0.1", 5701, MemberAttributes.FEATURES, "ssd,a b"), HashStyle.NGINX))
                .hasMessageStartingWith("ketama.features has feature 'a b' that has a character that is not allowed; allowed: "
                        + FeatureTags.LIST_RULE);
    }

    @Test
    void weightsFollowTheOneBound() {
        assertThat(MemberParser.weight("w", String.valueOf(Node.MAX_WEIGHT))).isEqualTo(Node.MAX_WEIGHT);
        assertThat(MemberParser.weight("w", " 1 ")).isEqualTo(1);
        assertThatThrownBy(() -> MemberParser.weight("w", String.valueOf(Node.MAX_WEIGHT + 1)))
                .hasMessage("w must be an integer from 1 to 1000, was '1001'");
        assertThatThrownBy(() -> MemberAttributes.publish(new Config(), 1001, List.of(), "default", null))
                .hasMessage("ketama.weight must be an integer from 1 to 1000, was '1001'");
    }

    @Test
    void aMembersAddressIsNamedAsCoreNamesServers() {
        assertThat(MemberAddress.of(member("10.0.0.1", 5701))).isEqualTo("10.0.0.1:5701");
        assertThat(MemberAddress.of(member("::1", 5701))).isEqualTo("[::1]:5701");
        assertThat(MemberParser.parse(member("::1", 5702), HashStyle.NGINX).info().address()).isEqualTo("[::1]:5702");
    }

    private static boolean accepts(Runnable r) {
        try {
            r.run();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
