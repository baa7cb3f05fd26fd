package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rules every module takes from core: the feature-tag grammar, the weight bound, the address text. */
class RulesTest {

    /** Every ASCII character alone, each allowed one inside a tag, boundary lengths, some non-ASCII, random strings. */
    static List<String> candidates() {
        List<String> out = new ArrayList<>(List.of("", " ", "a", "A", "0", "pci", "eu-west-1", "ssd:nvme", "v1.2+b_c",
                "-a", ".a", "_a", ":a", "+a", "a b", "a,b", "a;b", "a\"b", "a'b", "a\tb", "a\nb", "é", "aé", "ü1", "日本",
                "a".repeat(FeatureTags.MAX_LENGTH), "a".repeat(FeatureTags.MAX_LENGTH + 1), " a", "a "));
        for (char c = 0; c < 128; c++) {
            out.add(String.valueOf(c));
            out.add("a" + c);
        }
        Random rnd = new Random(12);
        String alphabet = "abcXYZ019._:+- ,;/\\\"'é\t";
        for (int i = 0; i < 2000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = rnd.nextInt(6); n >= 0; n--) {
                s.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            out.add(s.toString());
        }
        return out;
    }

    static boolean grammar(String s) {
        return s.matches("[A-Za-z0-9][A-Za-z0-9._:+-]{0," + (FeatureTags.MAX_LENGTH - 1) + "}");
    }

    @Test
    void aTagIsOneToSixtyFourCharactersFromTheAllowedSetStartingWithALetterOrDigit() {
        for (String s : candidates()) {
            assertThat(FeatureTags.isTag(s)).as("'%s'", s).isEqualTo(grammar(s));
            assertThat(FeatureTags.problem(s) == null).as("'%s'", s).isEqualTo(grammar(s));
        }
        assertThat(FeatureTags.problem("")).isEqualTo("is empty");
        assertThat(FeatureTags.problem("a".repeat(65))).isEqualTo("is 65 characters long");
        assertThat(FeatureTags.problem("a b")).isEqualTo("has a character that is not allowed");
    }

    @Test
    void aNodeCarriesExactlyTheTagsOfTheGrammar() {
        for (String s : candidates()) {
            boolean accepted;
            try {
                new Node<>(HashIdentity.of("h", "1"), 1, Set.of(s), null);
                accepted = true;
            } catch (IllegalArgumentException e) {
                assertThat(e).hasMessageContaining("node h:1").hasMessageContaining(FeatureTags.TAG_RULE);
                accepted = false;
            }
            assertThat(accepted).as("'%s'", s).isEqualTo(grammar(s));
        }
    }

    @Test
    void aListAcceptsExactlyTagsOfTheGrammarEachTrimmed() {
        for (String s : candidates()) {
            if (s.indexOf(',') >= 0 || s.isBlank()) {
                continue; // a comma splits the list; a blank text is the empty list
            }
            boolean accepted;
            try {
                assertThat(FeatureTags.parseList(s, "k")).containsExactly(s.strip());
                accepted = true;
            } catch (IllegalArgumentException e) {
                assertThat(e).hasMessageStartingWith("k has ").hasMessageContaining("allowed: " + FeatureTags.LIST_RULE);
                accepted = false;
            }
            assertThat(accepted).as("'%s'", s).isEqualTo(grammar(s.strip()));
        }
        assertThat(FeatureTags.parseList(" pci , ssd,pci", "k")).containsExactly("pci", "ssd");
        assertThat(FeatureTags.parseList("  ", "k")).isEmpty();
        assertThatThrownBy(() -> FeatureTags.parseList("ssd,,pci", "k"))
                .hasMessage("k has an empty feature in 'ssd,,pci'; allowed: " + FeatureTags.LIST_RULE + ", or nothing for no features");
        assertThatThrownBy(() -> FeatureTags.parseList("ssd,a b", "k"))
                .hasMessageStartingWith("k has feature 'a b' that has a character that is not allowed; allowed: comma-separated");
    }

    @Test
    void weightsRunFromOneToOneThousandWhereverWritten() {
        assertThat(Node.MAX_WEIGHT).isEqualTo(1000);
        for (int w : new int[] {1, 2, 999, 1000}) {
            assertThat(Node.isWeight(w)).isTrue();
            assertThat(Node.parseWeight(Integer.toString(w))).isEqualTo(w);
            assertThat(Node.of(HashIdentity.of("h", "1"), w, null).weight()).isEqualTo(w);
        }
        for (int w : new int[] {Integer.MIN_VALUE, -1, 0, 1001, Integer.MAX_VALUE}) {
            assertThat(Node.isWeight(w)).isFalse();
            assertThat(Node.parseWeight(Integer.toString(w))).isEqualTo(-1);
            assertThatThrownBy(() -> Node.of(HashIdentity.of("h", "1"), w, null))
                    .hasMessage("weight of node h:1 must be an integer from 1 to 1000, was " + w);
        }
        assertThat(Node.parseWeight(" 7 ")).isEqualTo(7);
        assertThat(Node.parseWeight("0007")).isEqualTo(7);
        for (String bad : new String[] {"", " ", "abc", "1.5", "+5", "1e3", "99999999999999999999", "１"}) {
            assertThat(Node.parseWeight(bad)).as("'%s'", bad).isEqualTo(-1);
        }
    }

    @Test
    void pointsPerWeightRunFromOneToOneMillionForEveryRingVersion() {
        List<Node<String>> one = List.of(Node.of(HashIdentity.of("10.0.0.1", "80"), 1, "a"));
        for (RingVersion version : RingVersion.values()) {
            for (int k : new int[] {Integer.MIN_VALUE, -1, 0, 1_000_001, Integer.MAX_VALUE}) {
                assertThatThrownBy(() -> KetamaRing.build(version, k, one))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("points per weight must be an integer from 1 to 1000000, was " + k);
            }
        }
        assertThat(KetamaRing.build(RingVersion.V2, 1_000_000, one).points().generatedPointsOf(0)).isEqualTo(1_000_000);
        assertThat(KetamaRing.MAX_POINTS_PER_WEIGHT).isEqualTo(1_000_000);
        assertThat(KetamaRing.POINTS_PER_WEIGHT_RULE).isEqualTo("an integer from 1 to 1000000");
        assertThat(KetamaRing.isPointsPerWeight(1)).isTrue();
        assertThat(KetamaRing.isPointsPerWeight(1_000_000)).isTrue();
        assertThat(KetamaRing.isPointsPerWeight(0)).isFalse();
        assertThat(KetamaRing.isPointsPerWeight(1_000_001)).isFalse();
        // the reason for the bound: the heaviest node alone fits a ring at any allowed value
        assertThat((long) Node.MAX_WEIGHT * KetamaRing.MAX_POINTS_PER_WEIGHT).isLessThanOrEqualTo(KetamaRing.MAX_POINTS);
        assertThat((long) Node.MAX_WEIGHT * KetamaRing.MAX_POINTS_PER_WEIGHT * 10).isGreaterThan(KetamaRing.MAX_POINTS);
    }

    @Test
    void anAddressIsHostColonPortWithBareIpv6InBracketsAndNoZone() {
        assertThat(HashIdentity.addressText("10.0.0.1", "5701")).isEqualTo("10.0.0.1:5701");
        assertThat(HashIdentity.addressText("cache-a", "80")).isEqualTo("cache-a:80");
        assertThat(HashIdentity.addressText("::1", "5701")).isEqualTo("[::1]:5701");
        assertThat(HashIdentity.addressText("fe80::1%eth0", "5701")).isEqualTo("[fe80::1]:5701");
        assertThat(HashIdentity.addressText("[::1]", "5701")).isEqualTo("[::1]:5701");
        assertThat(HashIdentity.addressText("cache-a", "")).isEqualTo("cache-a");
        assertThat(HashIdentity.addressText("::1", "")).as("a memcached server text stays as written").isEqualTo("::1");
        assertThat(HashIdentity.of("::1", "80")).hasToString("[::1]:80");
        assertThat(HashIdentity.nginx("[::1]:9001")).hasToString("[::1]:9001");
    }
}
