package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Feature-constrained lookups must answer exactly what a ring built from only the qualifying
 * nodes answers. Every test compares against such dedicated rings, built by the ordinary
 * {@link KetamaRing#build} from the filtered node list.
 */
class FeatureRingsTest {

    private static final List<String> TAGS = List.of("ssd", "eu", "pci", "gpu");
    /** Tag probabilities: from common to rare, so some sets walk and some get dedicated rings. */
    private static final double[] TAG_ODDS = {0.6, 0.5, 0.3, 0.12};
    private static final int KEYS = 100_000;

    // ---------------------------------------------------------------- fixtures

    static List<Set<String>> allSubsets(List<String> tags) {
        List<Set<String>> out = new ArrayList<>();
        for (int m = 0; m < 1 << tags.size(); m++) {
            Set<String> s = new TreeSet<>();
            for (int i = 0; i < tags.size(); i++) {
                if ((m >>> i & 1) != 0) {
                    s.add(tags.get(i));
                }
            }
            out.add(Set.copyOf(s));
        }
        return out;
    }

    static Set<String> randomTags(Random rnd) {
        Set<String> f = new HashSet<>();
        for (int t = 0; t < TAGS.size(); t++) {
            if (rnd.nextDouble() < TAG_ODDS[t]) {
                f.add(TAGS.get(t));
            }
        }
        return f;
    }

    /** {@code count} distinct random IPv4 nodes on port 6443, weights 1..maxWeight, random tags; payload = input index. */
    static List<Node<Integer>> randomNodes(Random rnd, int count, int maxWeight) {
        Set<String> seen = new HashSet<>();
        List<Node<Integer>> nodes = new ArrayList<>();
        while (nodes.size() < count) {
            String host = (1 + rnd.nextInt(223)) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + (1 + rnd.nextInt(254));
            if (seen.add(host)) {
                nodes.add(new Node<>(HashIdentity.of(host, "6443"), 1 + rnd.nextInt(maxWeight), randomTags(rnd), nodes.size()));
            }
        }
        return nodes;
    }

    static int[] randomKeyHashes(Random rnd, int n) {
        int[] out = new int[n];
        byte[] key = new byte[30];
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < key.length; j++) {
                key[j] = (byte) alphabet.charAt(rnd.nextInt(alphabet.length()));
            }
            out[i] = Crc32.hash(key);
        }
        return out;
    }

    static <T> KetamaRing<T> dedicated(KetamaRing<T> ring, Set<String> required) {
        List<Node<T>> chosen = new ArrayList<>();
        for (Node<T> n : ring.nodes()) {
            if (n.hasAll(required)) {
                chosen.add(n);
            }
        }
        return KetamaRing.build(ring.version(), ring.pointsPerWeight(), chosen);
    }

    /**
     * For every set, every hash: owner identical to the dedicated ring's; every
     * {@code candidatesEvery}-th hash: the first 4 failover candidates identical too.
     * Returns how many lookups were compared.
     */
    static <T> long assertMatchesDedicated(FeatureRings<T> fr, List<Set<String>> sets, int[] hashes, int candidatesEvery) {
        KetamaRing<T> ring = fr.ring();
        long compared = 0;
        for (Set<String> s : sets) {
            KetamaRing<T> d = dedicated(ring, s);
            int mismatches = 0;
            String first = null;
            for (int i = 0; i < hashes.length; i++) {
                int h = hashes[i];
                Node<T> expected = d.locateHash(h);
                int idx = fr.nodeIndexForHash(h, s);
                Node<T> actual = idx < 0 ? null : ring.node(idx);
                if (expected != actual) {
                    mismatches++;
                    if (first == null) {
                        first = "hash " + Integer.toUnsignedString(h) + ": expected " + expected + ", got " + actual;
                    }
                }
                if (candidatesEvery > 0 && i % candidatesEvery == 0) {
                    List<Node<T>> want = d.candidatesForHash(h, 4);
                    List<Node<T>> got = fr.candidatesForHash(h, s, 4);
                    if (!want.equals(got)) {
                        mismatches++;
                        if (first == null) {
                            first = "candidates of " + Integer.toUnsignedString(h) + ": expected " + want + ", got " + got;
                        }
                    }
                }
                compared++;
            }
            assertThat(mismatches).as("set %s (%d qualifying nodes): %s", s, d.nodeCount(), first).isZero();
        }
        return compared;
    }

    // ---------------------------------------------------------------- random feature assignments

    @ParameterizedTest(name = "{0}/{1} budget={2}")
    @CsvSource({
            "V1, 160, default", "V1, 160, 0", "V1, 160, unlimited",
            "V2, 160, default", "V2, 16, 0", "V2, 16, unlimited"})
    void constrainedLookupsEqualDedicatedRings(RingVersion version, int pointsPerWeight, String budget) {
        Random rnd = new Random(42 + pointsPerWeight + budget.hashCode());
        KetamaRing<Integer> ring = KetamaRing.build(version, pointsPerWeight, randomNodes(rnd, 150, 3));
        FeatureRings<Integer> fr = switch (budget) {
            case "default" -> FeatureRings.of(ring);
            case "unlimited" -> FeatureRings.of(ring, Long.MAX_VALUE);
            default -> FeatureRings.of(ring, Long.parseLong(budget));
        };
        long compared = assertMatchesDedicated(fr, allSubsets(TAGS), randomKeyHashes(rnd, KEYS), 50);
        assertThat(compared).isEqualTo(16L * KEYS);
        if (budget.equals("0")) {
            assertThat(fr.materialisedCount()).isZero();
        } else if (budget.equals("unlimited")) {
            // sets holding < 1/4 of the points get dedicated rings, the others are walked
            assertThat(fr.isMaterialised(Set.of("gpu"))).isTrue();
            assertThat(fr.isMaterialised(Set.of("pci", "gpu"))).isTrue();
            assertThat(fr.isMaterialised(Set.of("ssd"))).isFalse();
        } else {
            assertThat(fr.materialisedCount()).isPositive();
        }
        assertThat(fr.materialisedBytes()).isLessThanOrEqualTo(fr.memoryBudgetBytes());
    }

    @Test
    void byteAndTextKeysAgreeWithHashes() {
        Random rnd = new Random(7);
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V1, randomNodes(rnd, 60, 2));
        FeatureRings<Integer> fr = FeatureRings.of(ring);
        for (Set<String> s : allSubsets(TAGS)) {
            KetamaRing<Integer> d = dedicated(ring, s);
            for (int i = 0; i < 2_000; i++) {
                String key = "/obj/" + rnd.nextLong();
                assertThat(fr.locate(key, s)).isSameAs(d.locate(key));
                assertThat(fr.locate(key.getBytes(StandardCharsets.UTF_8), s)).isSameAs(d.locate(key));
            }
        }
    }

    @Test
    void fullFailoverOrderEqualsDedicatedRing() {
        Random rnd = new Random(11);
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V2, 16, randomNodes(rnd, 40, 2));
        for (FeatureRings<Integer> fr : List.of(FeatureRings.of(ring, 0), FeatureRings.of(ring, Long.MAX_VALUE))) {
            for (Set<String> s : allSubsets(TAGS)) {
                KetamaRing<Integer> d = dedicated(ring, s);
                for (int i = 0; i < 300; i++) {
                    int h = rnd.nextInt();
                    List<Node<Integer>> want = new ArrayList<>();
                    d.failoverForHash(h).forEachRemaining(want::add);
                    List<Node<Integer>> got = new ArrayList<>();
                    fr.failoverForHash(h, s).forEachRemaining(got::add);
                    assertThat(got).as("set %s hash %d", s, h).isEqualTo(want);
                }
            }
        }
    }

    // ---------------------------------------------------------------- collisions

    /**
     * Forged nodes whose first point equals a point of another node (two- and three-way
     * collisions, winners and losers both with and without the required tags), and a node listed
     * twice under one identity (every point collides). The comparisons run at exactly the colliding
     * hashes, where a dedicated ring differs from the full ring.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"V1", "V2"})
    void forcedCollisionsAreResolvedAsADedicatedRingResolvesThem(RingVersion version) {
        Random rnd = new Random(99);
        List<Node<Integer>> base = new ArrayList<>(randomNodes(rnd, 30, 2));
        Node<Integer> untagged = base.get(3);
        base.set(3, new Node<>(untagged.identity(), untagged.weight(), Set.of(), untagged.payload()));
        KetamaRing<Integer> baseRing = KetamaRing.build(version, 160, base);
        int[] basePoints = baseRing.points().hashes();
        List<Node<Integer>> nodes = new ArrayList<>();
        List<Node<Integer>> forged = new ArrayList<>();
        List<Integer> targets = new ArrayList<>();
        for (int c = 0; c < 40; c++) {
            int target = basePoints[rnd.nextInt(basePoints.length)];
            targets.add(target);
            int ways = c % 3 == 0 ? 2 : 1; // every third target collides three ways
            for (int w = 0; w < ways; w++) {
                String host = CrcForge.hostWithFirstPoint("forged-" + c + "-" + w + "-", "6443", target);
                forged.add(new Node<>(HashIdentity.of(host, "6443"), 1, randomTags(rnd), 1000 + forged.size()));
            }
        }
        // in v1 input order decides: forged nodes before half of the base nodes win there, lose elsewhere
        nodes.addAll(base.subList(0, 15));
        nodes.addAll(forged);
        nodes.addAll(base.subList(15, 30));
        Node<Integer> twin = base.get(3);
        nodes.add(new Node<>(twin.identity(), twin.weight(), Set.of("gpu", "pci"), 5000)); // every point collides with base[3]
        KetamaRing<Integer> ring = KetamaRing.build(version, 160, nodes);

        // one lost point per forged node, and every point of the twin
        assertThat(ring.collidingPointCount()).isGreaterThanOrEqualTo(forged.size() + twin.weight() * 160L);
        CollisionTable table = ring.collisions();
        assertThat(table.size()).isGreaterThanOrEqualTo(new HashSet<>(targets).size());

        List<Integer> probe = new ArrayList<>();
        for (int t : targets) {
            probe.add(t);
            probe.add(t - 1);
        }
        for (int i = 0; i < table.size(); i++) {
            probe.add(ring.points().hashAt(table.position(i)));
        }
        int[] random = randomKeyHashes(rnd, KEYS);
        for (int h : random) {
            probe.add(h);
        }
        int[] hashes = probe.stream().mapToInt(Integer::intValue).toArray();
        List<Set<String>> sets = allSubsets(TAGS);
        for (FeatureRings<Integer> fr : List.of(FeatureRings.of(ring, 0), FeatureRings.of(ring, Long.MAX_VALUE))) {
            assertMatchesDedicated(fr, sets, hashes, 20);
        }

        // the comparison above must have exercised losers: find a set whose answer at a colliding
        // hash is a node the full ring does not place there
        FeatureRings<Integer> walked = FeatureRings.of(ring, 0);
        int answeredByLoser = 0;
        for (Set<String> s : sets) {
            for (int i = 0; i < table.size(); i++) {
                int h = ring.points().hashAt(table.position(i));
                int idx = walked.nodeIndexForHash(h, s);
                if (idx >= 0 && idx != ring.nodeIndexForHash(h)) {
                    int[] losers = table.losersAt(i);
                    for (int l : losers) {
                        if (l == idx) {
                            answeredByLoser++;
                        }
                    }
                }
            }
        }
        assertThat(answeredByLoser).isGreaterThan(100);
        // the twin's points all lost to base[3]; with {gpu, pci} it must still own its share
        int twinIndex = nodes.size() - 1;
        long twinHits = 0;
        for (int h : random) {
            if (walked.nodeIndexForHash(h, Set.of("gpu", "pci")) == twinIndex) {
                twinHits++;
            }
        }
        assertThat(twinHits).isPositive();
    }

    /** 2048 nodes × weight 10 × 160 points: about 1,300 natural collisions among 3.3 M points. */
    @Test
    void naturalCollisionsInALargeRing() {
        Random rnd = new Random(2048);
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V1, randomNodes(rnd, 2048, 1).stream()
                .map(n -> new Node<>(n.identity(), 10, n.features(), n.payload())).toList());
        CollisionTable table = ring.collisions();
        assertThat(table.size()).isGreaterThan(800);
        int[] hashes = new int[table.size() * 2 + KEYS];
        for (int i = 0; i < table.size(); i++) {
            int h = ring.points().hashAt(table.position(i));
            hashes[2 * i] = h;
            hashes[2 * i + 1] = h - 1;
        }
        System.arraycopy(randomKeyHashes(rnd, KEYS), 0, hashes, table.size() * 2, KEYS);
        assertMatchesDedicated(FeatureRings.of(ring), allSubsets(TAGS), hashes, 500);
    }

    // ---------------------------------------------------------------- no node

    @Test
    void unsatisfiableSetsAnswerNoNode() {
        Random rnd = new Random(5);
        List<Node<Integer>> nodes = new ArrayList<>();
        for (Node<Integer> n : randomNodes(rnd, 50, 2)) {
            Set<String> f = new HashSet<>(n.features());
            if (f.contains("pci")) {
                f.remove("gpu"); // no node has both pci and gpu
            }
            nodes.add(new Node<>(n.identity(), n.weight(), f, n.payload()));
        }
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V2, nodes);
        FeatureRings<Integer> fr = FeatureRings.of(ring);
        assertThat(fr.knownFeatures()).containsExactly("eu", "gpu", "pci", "ssd");
        Set<String> hashSet = new HashSet<>(List.of("ssd", "nope"));
        for (Set<String> s : List.of(Set.of("pci", "gpu"), Set.of("nope"), hashSet, Set.of("ssd", "eu", "pci", "gpu"))) {
            for (int i = 0; i < 1_000; i++) {
                int h = rnd.nextInt();
                assertThat(fr.nodeIndexForHash(h, s)).as("%s", s).isEqualTo(-1);
                assertThat(fr.failoverForHash(h, s)).isExhausted();
                assertThat(fr.candidatesForHash(h, s, 3)).isEmpty();
            }
            assertThat(fr.locate("key", s)).isNull();
            assertThat(fr.locate(new byte[] {1, 2, 3}, s)).isNull();
        }
        // the empty set is the full ring
        for (int i = 0; i < 1_000; i++) {
            int h = rnd.nextInt();
            assertThat(fr.nodeIndexForHash(h, Set.of())).isEqualTo(ring.nodeIndexForHash(h));
        }
    }

    @Test
    void emptyRingAndRingWithoutFeatures() {
        FeatureRings<String> empty = FeatureRings.of(KetamaRing.build(RingVersion.V1, List.of()));
        assertThat(empty.locate("k", Set.of())).isNull();
        assertThat(empty.locate("k", Set.of("ssd"))).isNull();
        assertThat(empty.failoverForHash(1, Set.of())).isExhausted();
        assertThat(empty.knownFeatures()).isEmpty();

        KetamaRing<String> plain = KetamaRing.build(RingVersion.V1,
                List.of(Node.of(HashIdentity.nginx("a:1"), 1, "a"), Node.of(HashIdentity.nginx("b:1"), 1, "b")));
        FeatureRings<String> fr = FeatureRings.of(plain);
        assertThat(fr.locate("k", Set.of("ssd"))).isNull();
        assertThat(fr.locate("k", Set.of())).isSameAs(plain.locate("k"));
    }

    @Test
    void badArgumentsAreNamed() {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, List.of(Node.of(HashIdentity.nginx("a:1"), 1, "a")));
        assertThatThrownBy(() -> FeatureRings.of(ring, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory budget must be >= 0 bytes")
                .hasMessageContaining("-1");
        FeatureRings<String> fr = FeatureRings.of(ring);
        assertThatThrownBy(() -> fr.locate("k", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("required feature set");
    }

    /** More than 63 distinct tags: masks span several words. */
    @Test
    void manyDistinctTags() {
        Random rnd = new Random(64);
        List<String> tags = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            tags.add("t" + i);
        }
        List<Node<Integer>> nodes = new ArrayList<>();
        for (Node<Integer> n : randomNodes(rnd, 120, 2)) {
            Set<String> f = new HashSet<>(n.features());
            for (int i = 0; i < 30; i++) {
                f.add(tags.get(rnd.nextInt(tags.size())));
            }
            nodes.add(new Node<>(n.identity(), n.weight(), f, n.payload()));
        }
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V1, nodes);
        FeatureRings<Integer> fr = FeatureRings.of(ring, Long.MAX_VALUE);
        assertThat(fr.knownFeatures()).hasSizeGreaterThan(100);
        List<Set<String>> sets = new ArrayList<>(allSubsets(TAGS));
        for (int i = 0; i < 20; i++) {
            Set<String> s = new LinkedHashSet<>();
            s.add(tags.get(rnd.nextInt(tags.size())));
            if (i % 2 == 0) {
                s.add(TAGS.get(rnd.nextInt(TAGS.size())));
            }
            sets.add(s);
        }
        sets.add(Set.of("t1", "unknown"));
        assertMatchesDedicated(fr, sets, randomKeyHashes(rnd, 20_000), 100);
    }

    /** Far more distinct sets than plans kept: old plans are dropped and re-planned, answers stay exact. */
    @Test
    void plansStayBoundedWithManyDistinctSets() {
        Random rnd = new Random(600);
        List<String> tags = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            tags.add("f" + i);
        }
        List<Node<Integer>> nodes = new ArrayList<>();
        for (Node<Integer> n : randomNodes(rnd, 300, 1)) {
            Set<String> f = new HashSet<>();
            for (String t : tags) {
                if (rnd.nextDouble() < 0.7) {
                    f.add(t);
                }
            }
            nodes.add(new Node<>(n.identity(), n.weight(), f, n.payload()));
        }
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V2, 16, nodes);
        FeatureRings<Integer> fr = FeatureRings.of(ring);
        List<Set<String>> sets = allSubsets(tags); // 4,096 sets
        int[] hashes = randomKeyHashes(rnd, 50);
        int maxPlans = 0;
        for (int round = 0; round < 2; round++) {
            for (Set<String> s : sets) {
                for (int h : hashes) {
                    fr.nodeIndexForHash(h, s);
                }
                maxPlans = Math.max(maxPlans, fr.planCount());
            }
        }
        assertThat(maxPlans).isLessThanOrEqualTo(FeatureSetCache.MAX_PLANS + 1);
        assertThat(fr.materialisedBytes()).isLessThanOrEqualTo(fr.memoryBudgetBytes());
        List<Set<String>> sample = new ArrayList<>();
        for (int i = 0; i < sets.size(); i += 97) {
            sample.add(sets.get(i));
        }
        assertMatchesDedicated(fr, sample, randomKeyHashes(rnd, 2_000), 50);
    }

    @Test
    void aRotationOfMoreSetsThanPlansKeptDoesNotBuildARingPerLookup() {
        // 364 sets of three of 14 tags, each tag on a quarter of the nodes: every set is small enough
        // for a ring of its own, and the budget holds a few. Past MAX_PLANS, dropped plans are planned
        // anew on their next lookup; an evicted set must still earn its next ring by walking
        Random rnd = new Random(700);
        List<Node<Integer>> nodes = new ArrayList<>();
        for (Node<Integer> n : randomNodes(rnd, 1024, 1)) {
            Set<String> f = new HashSet<>();
            for (int t = 0; t < 14; t++) {
                if (rnd.nextInt(4) == 0) {
                    f.add("t" + t);
                }
            }
            nodes.add(new Node<>(n.identity(), n.weight(), f, n.payload()));
        }
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V2, 16, nodes);
        List<Set<String>> sets = new ArrayList<>();
        for (int a = 0; a < 14; a++) {
            for (int b = a + 1; b < 14; b++) {
                for (int c = b + 1; c < 14; c++) {
                    sets.add(Set.of("t" + a, "t" + b, "t" + c));
                }
            }
        }
        assertThat(sets).hasSizeGreaterThan(FeatureSetCache.MAX_PLANS);
        FeatureRings<Integer> fr = FeatureRings.of(ring, 10_000);
        int builds = 0;
        for (int round = 0; round < 4; round++) {
            builds = 0;
            for (Set<String> s : sets) {
                boolean before = fr.isMaterialised(s);
                fr.nodeIndexForHash(rnd.nextInt(), s);
                builds += !before && fr.isMaterialised(s) ? 1 : 0;
            }
        }
        assertThat(fr.materialisedCount()).isPositive();
        assertThat(builds).as("rings built in the 4th round of %d lookups", sets.size()).isZero();
        assertMatchesDedicated(fr, sets.subList(0, 40), randomKeyHashes(rnd, 500), 20);
    }

    // ---------------------------------------------------------------- memory budget

    private static long dedicatedBytes(KetamaRing<?> ring, Set<String> s) {
        KetamaRing<?> d = dedicated(ring, s);
        return d.retainedBytes() + PointTable.arrayBytes(d.nodeCount(), 4);
    }

    @Test
    void leastRecentlyUsedRingIsEvictedFirst() {
        Random rnd = new Random(3);
        List<Node<Integer>> nodes = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            // three disjoint small groups of 4 nodes, the rest untagged
            Set<String> f = i < 4 ? Set.of("a") : i < 8 ? Set.of("b") : i < 12 ? Set.of("c") : Set.of();
            nodes.add(new Node<>(HashIdentity.of("10.0.0." + (i + 1), "6443"), 1, f, i));
        }
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V1, nodes);
        Set<String> a = Set.of("a");
        Set<String> b = Set.of("b");
        Set<String> c = Set.of("c");
        long ra = dedicatedBytes(ring, a);
        long rb = dedicatedBytes(ring, b);
        long rc = dedicatedBytes(ring, c);
        long budget = ra + Math.max(rb, rc);
        assertThat(ra + rb + rc).isGreaterThan(budget);
        FeatureRings<Integer> fr = FeatureRings.of(ring, budget);

        fr.locate("x", a);
        fr.locate("x", b);
        assertThat(fr.isMaterialised(a)).isTrue();
        assertThat(fr.isMaterialised(b)).isTrue();
        assertThat(fr.materialisedBytes()).isEqualTo(ra + rb);
        fr.locate("y", a); // a is now more recent than b
        fr.locate("x", c);
        assertThat(fr.isMaterialised(c)).isTrue();
        assertThat(fr.isMaterialised(a)).isTrue();
        assertThat(fr.isMaterialised(b)).as("least recently used").isFalse();
        assertThat(fr.materialisedBytes()).isEqualTo(ra + rc).isLessThanOrEqualTo(budget);
        // the evicted set still answers exactly, by walking
        assertMatchesDedicated(fr, List.of(a, b, c), randomKeyHashes(rnd, 10_000), 10);
        assertThat(fr.retainedBytes()).isEqualTo(ring.retainedBytes() + PointTable.arrayBytes(64, 8)
                + 3 * (PointTable.arrayBytes(1, 8) + PointTable.arrayBytes(1, 8)) + fr.materialisedBytes());
    }

    @Test
    void aRingLargerThanTheBudgetIsNeverBuilt() {
        Random rnd = new Random(8);
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V1, randomNodes(rnd, 100, 1));
        Set<String> rare = Set.of("gpu");
        FeatureRings<Integer> fr = FeatureRings.of(ring, dedicatedBytes(ring, rare) - 1);
        assertMatchesDedicated(fr, List.of(rare), randomKeyHashes(rnd, 5_000), 0);
        assertThat(fr.isMaterialised(rare)).isFalse();
        assertThat(fr.materialisedBytes()).isZero();
    }

    /**
     * Many threads, every set, a budget that holds about two rings and a set readmitted after 16
     * walks: rings are built and evicted all along. Every answer must stay exact and the
     * materialised bytes must never exceed the budget.
     */
    @Test
    void budgetHoldsUnderConcurrentChurn() throws Exception {
        Random rnd = new Random(17);
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V2, 160, randomNodes(rnd, 200, 2));
        List<Set<String>> sets = allSubsets(TAGS);
        long budget = dedicatedBytes(ring, Set.of("gpu")) + dedicatedBytes(ring, Set.of("pci", "eu"));
        FeatureRings<Integer> fr = FeatureRings.of(ring, budget, 16);
        int[] hashes = randomKeyHashes(rnd, 20_000);
        int[][] expected = new int[sets.size()][hashes.length];
        for (int s = 0; s < sets.size(); s++) {
            KetamaRing<Integer> d = dedicated(ring, sets.get(s));
            for (int i = 0; i < hashes.length; i++) {
                Node<Integer> n = d.locateHash(hashes[i]);
                expected[s][i] = n == null ? -1 : n.payload();
            }
        }
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    long wrong = 0;
                    long overBudget = 0;
                    for (int i = 0; i < 200_000; i++) {
                        int s = r.nextInt(sets.size());
                        int k = r.nextInt(hashes.length);
                        int idx = fr.nodeIndexForHash(hashes[k], sets.get(s));
                        int got = idx < 0 ? -1 : ring.node(idx).payload();
                        if (got != expected[s][k]) {
                            wrong++;
                        }
                        if (fr.materialisedBytes() > budget) {
                            overBudget++;
                        }
                    }
                    return new long[] {wrong, overBudget};
                }));
            }
            for (Future<long[]> f : results) {
                long[] r = f.get(5, TimeUnit.MINUTES);
                assertThat(r[0]).as("wrong answers").isZero();
                assertThat(r[1]).as("observations above the budget").isZero();
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
        assertThat(fr.materialisedCount()).isPositive();
        assertThat(fr.materialisedBytes()).isLessThanOrEqualTo(budget);
    }

    @Test
    void defaultBudgetKeepsEverythingWithinOneAndAHalfRings() {
        Random rnd = new Random(1);
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V2, 16, randomNodes(rnd, 2048, 10));
        FeatureRings<Integer> fr = FeatureRings.of(ring);
        assertThat(fr.memoryBudgetBytes()).isGreaterThan(ring.retainedBytes() / 3).isLessThanOrEqualTo(ring.retainedBytes() / 2);
        int[] hashes = randomKeyHashes(rnd, 1_000);
        for (Set<String> s : allSubsets(TAGS)) {
            for (int h : hashes) {
                fr.nodeIndexForHash(h, s);
            }
        }
        assertThat(fr.materialisedCount()).isPositive();
        assertThat(fr.retainedBytes()).isLessThanOrEqualTo(ring.retainedBytes() * 3 / 2);
    }
}
