package io.ketama.router.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A network partition (issue 25, item 7): three {@code java -jar} members, each in a network
 * namespace of its own on a cluster bridge, with a second bridge for the test's own requests (made
 * through an {@link HttpAgent} in a client namespace, so nothing is added to the root namespace's
 * network). The third member's cluster link is set down until both sides have dropped each other
 * from their rings, a migration change is made on the majority side meanwhile, and the link is set
 * up again: Hazelcast merges the sides, and then every member must hold all three on its rings and
 * agree on the owners of a sample of keys and on the migration generation, without a ring rebuild
 * for {@link #STABLE}, within {@link #AGREE_BOUND} of the heal; the generation must be the
 * majority's change (the larger side's state is kept).
 *
 * <p>Needs root and {@code ip netns} (iproute2); elsewhere it is skipped, saying why. On main before
 * the fix of the merged member's identity this fails: after the merge the merged member writes its
 * board entry under the member id it had before, the others see it join and leave the board every
 * second, and the rings are rebuilt for as long as one watches.
 */
class PartitionIT {

    private static final String CLUSTER_NET = "10.79.0.";
    private static final String CLIENT_NET = "10.80.0.";
    /** Both sides drop each other: the failure timeout and 10 s to see it on a loaded machine. */
    private static final Duration DROP_BOUND = Duration.ofSeconds(PauseIT.FAILURE_SECONDS + 10);
    /** Merge: twice the merge interval and 10 s for the merging member to serve again; agreement: 10 s after that. */
    private static final Duration AGREE_BOUND = Duration.ofSeconds(2 * PauseIT.MERGE_SECONDS + 10 + 10);
    private static final Duration STABLE = Duration.ofSeconds(5);
    private static final String TOKEN = "partition-it-" + UUID.randomUUID();
    private static final List<String> KEYS = List.of("part-0", "part-1", "part-2", "part-3", "part-4", "part-5", "part-6", "part-7");
    private static final Namespaces NAMESPACES = new Namespaces("kit" + ProcessHandle.current().pid());
    private static final List<JarMember> STARTED = new ArrayList<>();
    private static NamespaceHttp agent;

    @AfterAll
    static void removeAll() {
        STARTED.forEach(JarMember::stop);
        for (JarMember m : STARTED) {
            try {
                m.process().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (agent != null) {
            agent.close();
        }
        NAMESPACES.close();
    }

    private static String clusterAddress(int i) {
        return CLUSTER_NET + (10 + i);
    }

    @Test
    void anIsolatedMemberIsDroppedAndAfterTheHealEveryMemberAgreesAgain() throws Exception {
        String unavailable = Namespaces.unavailable();
        assumeTrue(unavailable == null, () -> "PartitionIT skipped: " + unavailable);
        assertThat(JarMember.JAR).as("the packaged application (mvn package)").exists();
        Path logs = Files.createDirectories(Path.of("target", "partition-it"));

        NAMESPACES.hub();
        String client = NAMESPACES.add("cl");
        NAMESPACES.attach(client, "cl", "l0", "brl", CLIENT_NET + "2");
        String list = java.util.stream.IntStream.rangeClosed(1, 3).mapToObj(i -> clusterAddress(i) + ":5701").collect(Collectors.joining(","));
        String cluster = "ketama-partition-it-" + UUID.randomUUID();
        List<JarMember> members = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            String ns = NAMESPACES.add("m" + i);
            NAMESPACES.attach(ns, "m" + i + "c", "c0", "brc", clusterAddress(i));
            NAMESPACES.attach(ns, "m" + i + "l", "l0", "brl", CLIENT_NET + (10 + i));
            List<String> options = new ArrayList<>(List.of(
                    // every address of the member's own namespace: its cluster and client addresses and its loopback
                    "-Dquarkus.http.host=0.0.0.0", "-Dquarkus.http.port=8080",
                    "-Dquarkus.management.host=0.0.0.0", "-Dquarkus.management.port=9000",
                    "-Dketama.router.forward.binary.host=" + clusterAddress(i),
                    "-Dquarkus.ketama.hazelcast.cluster-name=" + cluster, "-Dquarkus.ketama.hazelcast.interface=" + clusterAddress(i),
                    "-Dquarkus.ketama.hazelcast.port=5701", "-Dquarkus.ketama.hazelcast.port-auto-increment=false",
                    "-Dquarkus.ketama.hazelcast.members=" + list, "-Dquarkus.ketama.hazelcast.member-allowlist=" + CLUSTER_NET + "*",
                    "-Dquarkus.ketama.migration.mode=split"));
            options.addAll(PauseIT.faultSettings());
            JarMember m = JarMember.start(i, clusterAddress(i) + ":5701", CLIENT_NET + (10 + i), NAMESPACES.exec(ns), options,
                    logs.resolve("member-" + i + ".log"), TOKEN);
            STARTED.add(m);
            m.awaitStarted(Duration.ofSeconds(180)); // one after another: JVMs starting at once on two cores miss heartbeats
            members.add(m);
        }
        agent = new NamespaceHttp(client, JarMember.JAVA);
        Set<String> all = members.stream().map(JarMember::clusterAddress).collect(Collectors.toCollection(TreeSet::new));
        Settle.within(() -> MemberState.readAll(agent, members, KEYS), s -> MemberState.agree(s, all), Duration.ofSeconds(2),
                Duration.ofSeconds(120), "three members on every ring, agreeing");

        JarMember isolated = members.get(2);
        List<JarMember> majority = members.subList(0, 2);
        Set<String> two = majority.stream().map(JarMember::clusterAddress).collect(Collectors.toCollection(TreeSet::new));
        NAMESPACES.link("m3c", false);
        long dropped = Settle.within(() -> MemberState.readAll(agent, members, KEYS),
                s -> MemberState.dropped(s.subList(0, 2), two) && MemberState.dropped(s.subList(2, 3), Set.of(isolated.clusterAddress())),
                Duration.ofMillis(500), DROP_BOUND.plusSeconds(30), "both sides dropping each other from their rings");
        MigrationChange change = MigrationChange.make(agent, majority.get(0), 40, TOKEN);

        NAMESPACES.link("m3c", true);
        long agreed = Settle.within(() -> MemberState.readAll(agent, members, KEYS), s -> MemberState.agree(s, all), STABLE,
                AGREE_BOUND.plusSeconds(60), "all three on every ring after the heal, agreeing on owners and the migration generation");
        boolean merged = isolated.logText().contains("is merging") || majority.stream().anyMatch(m -> m.logText().contains("is merging"));
        List<MemberState> end = MemberState.readAll(agent, members, KEYS);
        System.out.printf("PartitionIT: both sides dropped each other %d ms after the cut; the majority's change answered %d; every "
                + "member agreed %d ms after the heal (Hazelcast merge logged: %s)%n", dropped, change.status(), agreed, merged);
        assertThat(change.appliedBy(end)).as("every member applies the majority's change (%s):%s", change, MemberState.describe(end))
                .isTrue();
        assertThat(Duration.ofMillis(dropped)).as("both sides dropped each other after").isLessThanOrEqualTo(DROP_BOUND);
        assertThat(Duration.ofMillis(agreed)).as("every member agreed after the heal").isLessThanOrEqualTo(AGREE_BOUND);
        for (JarMember m : members) {
            assertThat(m.process().isAlive()).as(m.name() + " still runs; log " + m.log()).isTrue();
        }
    }
}
