package io.ketama.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The example configurations in config/: known keys, valid values, a comment on every key, loopback only. */
class ConfigExamplesTest {
    private static final Pattern IPV4 = Pattern.compile("\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b");

    static Path configDir() {
        return Path.of(System.getProperty("ketama.config.dir", "../config")).toAbsolutePath().normalize();
    }

    static List<String> examples() throws IOException {
        try (Stream<Path> files = Files.list(configDir())) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".properties")).sorted().toList();
        }
    }

    private static Map<String, String> load(String name) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(Files.readString(configDir().resolve(name))));
        Map<String, String> out = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    @Test
    void theExamplesTheReadmeDescribesExist() throws IOException {
        assertThat(examples()).contains("laptop-member-1.properties", "laptop-member-2.properties",
                "laptop-member-3.properties", "datacenter-rollout.properties", "shadow.properties",
                "feature-rings.properties");
        String readme = Files.readString(configDir().resolve("README.md"));
        for (String example : examples()) {
            assertThat(readme).as("config/README.md explains %s", example)
                    .contains(example.replaceAll("-[0-9]\\.properties$", "-1.properties"));
        }
    }

    /**
     * Issue 40: the laptop cluster (three members) and every other example leave the migration quorum
     * to the cluster (a majority of the members it expects), or set it no lower than a majority of
     * three.
     */
    @ParameterizedTest
    @MethodSource("examples")
    void noExampleLowersTheMigrationQuorum(String name) throws IOException {
        String minMembers = load(name).get("quarkus.ketama.migration.min-members");
        if (minMembers != null) {
            assertThat(Integer.parseInt(minMembers.strip())).as("%s: min-members, a majority of the laptop cluster's 3", name)
                    .isGreaterThanOrEqualTo(2);
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyKeyIsKnownValidAndCommented(String name) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> lines = Files.readAllLines(configDir().resolve(name));
        String previous = "";
        for (String line : lines) {
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("#") && !t.startsWith("!")) {
                String key = t.split("[=:]", 2)[0].strip();
                if (!previous.startsWith("#")) {
                    problems.add(key + " has no comment right above it");
                }
                if (Settings.ownNamespace(key) && !Settings.known(key)) {
                    problems.add(key + " is no setting of the extension or the service (misspelt?)");
                }
            }
            previous = t;
        }
        Settings.problems(load(name), problems);
        assertThat(problems).as(name).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void eachExampleOverridesThePackagedDefaultsButNotTheEnvironment(String name) throws IOException {
        int ordinal = Integer.parseInt(load(name).getOrDefault("config_ordinal", "400"));
        assertThat(ordinal).as("%s config_ordinal: above application.properties, below env vars", name)
                .isGreaterThan(250).isLessThan(300);
    }

    @Test
    void theLaptopClusterIsThreeMembersOnLoopbackListedOneByOne() throws IOException {
        Set<String> httpPorts = new TreeSet<>();
        Set<String> hazelcastPorts = new TreeSet<>();
        Set<String> managementPorts = new TreeSet<>();
        for (int i = 1; i <= 3; i++) {
            String name = "laptop-member-" + i + ".properties";
            Map<String, String> p = load(name);
            Matcher ips = IPV4.matcher(Files.readString(configDir().resolve(name)));
            while (ips.find()) {
                assertThat(ips.group()).as("%s: loopback only", name).isEqualTo("127.0.0.1");
            }
            assertThat(p).as(name).containsEntry("quarkus.http.host", "127.0.0.1")
                    .containsEntry("quarkus.management.host", "127.0.0.1")
                    .containsEntry("quarkus.ketama.hazelcast.interface", "127.0.0.1")
                    .containsEntry("quarkus.ketama.hazelcast.port-auto-increment", "false")
                    .containsEntry("quarkus.ketama.hazelcast.kubernetes.enabled", "false")
                    .containsEntry("quarkus.ketama.hazelcast.members", "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703");
            assertThat(p.get("quarkus.ketama.hazelcast.members")).contains("127.0.0.1:" + p.get(
                    "quarkus.ketama.hazelcast.port"));
            httpPorts.add(p.get("quarkus.http.port"));
            hazelcastPorts.add(p.get("quarkus.ketama.hazelcast.port"));
            managementPorts.add(p.get("quarkus.management.port"));
            Map<String, String> withoutPorts = new LinkedHashMap<>(p);
            withoutPorts.keySet().removeAll(Set.of("quarkus.http.port", "quarkus.ketama.hazelcast.port", "quarkus.management.port"));
            assertThat(withoutPorts).as("the members differ only in their ports").isEqualTo(
                    without(load("laptop-member-1.properties"), "quarkus.http.port", "quarkus.ketama.hazelcast.port",
                            "quarkus.management.port"));
        }
        assertThat(httpPorts).containsExactly("8080", "8081", "8082");
        assertThat(hazelcastPorts).containsExactly("5701", "5702", "5703");
        assertThat(managementPorts).containsExactly("9000", "9001", "9002");
    }

    @Test
    void theRolloutIsSplitAtOnePercentInOneDataCentre() throws IOException {
        Map<String, String> p = load("datacenter-rollout.properties");
        assertThat(p).containsEntry("quarkus.ketama.migration.mode", "split")
                .containsEntry("quarkus.ketama.migration.v2-share", "1");
        assertThat(p.get("quarkus.ketama.migration.datacenters").split(",")).hasSize(1)
                .containsExactly(p.get("quarkus.ketama.datacenter"));
    }

    @Test
    void shadowModeServesFromV1AndCountsDisagreements() throws IOException {
        Map<String, String> p = load("shadow.properties");
        assertThat(p).containsEntry("quarkus.ketama.migration.shadow", "true")
                .containsEntry("quarkus.ketama.migration.v2-share", "0");
    }

    @Test
    void theFeatureRingExampleUsesPciSsdAndEu() throws IOException {
        String features = load("feature-rings.properties").get("quarkus.ketama.member.features");
        assertThat(Arrays.stream(features.split(",")).map(String::strip).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("pci", "ssd", "eu");
    }

    private static Map<String, String> without(Map<String, String> p, String... keys) {
        Map<String, String> out = new LinkedHashMap<>(p);
        out.keySet().removeAll(List.of(keys));
        return out;
    }
}
