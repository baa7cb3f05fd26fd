package io.ketama.k8s;

import static io.ketama.k8s.K8s.at;
import static io.ketama.k8s.K8s.map;
import static io.ketama.k8s.K8s.maps;
import static io.ketama.k8s.K8s.named;
import static io.ketama.k8s.K8s.selects;
import static io.ketama.k8s.K8s.str;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every overlay of k8s/, rendered the way this machine can (kubectl kustomize, else the built-in
 * renderer), must pass the Kubernetes schema offline and hold the properties the cluster relies on.
 */
class OverlayManifestsTest {
    private static final Map<String, List<Map<String, Object>>> RENDERED = new ConcurrentHashMap<>();
    private static final Renderer RENDERER = Renderer.forThisMachine();
    /** The management interface's port (app's quarkus.management.port): metrics and the admin plane. */
    private static final int MANAGEMENT_PORT = 9000;
    /** The Hazelcast member port (QUARKUS_KETAMA_HAZELCAST_PORT in the ConfigMap, the headless Service's port). */
    private static final int HAZELCAST_PORT = 5701;

    static List<String> overlays() {
        return K8s.overlays();
    }

    @BeforeAll
    static void sayHowTheOverlaysAreRendered() {
        System.out.println("k8s-check: rendering " + overlays() + " with " + RENDERER.name());
    }

    private static List<Map<String, Object>> rendered(String overlay) {
        return RENDERED.computeIfAbsent(overlay, o -> RENDERER.render(K8s.overlay(o)));
    }

    private static Map<String, Object> statefulSet(String overlay) {
        List<Map<String, Object>> sets = K8s.ofKind(rendered(overlay), "StatefulSet");
        assertThat(sets).as("%s: exactly one StatefulSet of members", overlay).hasSize(1);
        return sets.get(0);
    }

    private static Map<String, Object> container(String overlay) {
        List<Map<String, Object>> containers = maps(statefulSet(overlay), "spec", "template", "spec", "containers");
        assertThat(containers).as("%s: one container per member pod", overlay).hasSize(1);
        return containers.get(0);
    }

    private static Map<String, Object> podLabels(String overlay) {
        return map(statefulSet(overlay), "spec", "template", "metadata", "labels");
    }

    private static Map<String, Object> configMap(String overlay) {
        List<Map<String, Object>> refs = maps(container(overlay), "envFrom");
        assertThat(refs).as("%s: settings come from one ConfigMap by envFrom", overlay).hasSize(1);
        String name = str(refs.get(0), "configMapRef", "name");
        return K8s.find(rendered(overlay), "ConfigMap", name)
                .orElseThrow(() -> new AssertionError(overlay + ": envFrom names ConfigMap " + name + ", not rendered"));
    }

    private static String env(String overlay, String name) {
        return named(maps(container(overlay), "env"), name).map(e -> str(e, "value")).orElse(null);
    }

    @Test
    void thereAreDevAndProdOverlays() {
        assertThat(overlays()).contains("dev", "prod");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void everyRenderedObjectPassesTheKubernetesSchema(String overlay) {
        List<Map<String, Object>> objects = rendered(overlay);
        SchemaValidator.Result result = SchemaValidator.get()
                .validate(objects, K8s.renderWork().resolve(overlay + ".yaml"));
        assertThat(result.valid()).as("%s rendered by %s fails the Kubernetes schema:%n%s", overlay,
                RENDERER.name(), result.output()).isTrue();
        assertThat(result.output().lines().filter(l -> l.startsWith("OK ")).count())
                .as("every object checked:%n%s", result.output()).isEqualTo(objects.size());
        assertThat(objects.stream().map(o -> (String) o.get("kind")).collect(Collectors.toSet()))
                .contains("StatefulSet", "Service", "ConfigMap", "NetworkPolicy");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void membersAreAStatefulSetWhosePodNamesAreTheirNodeIds(String overlay) {
        Map<String, Object> sts = statefulSet(overlay);
        assertThat(selects(map(sts, "spec", "selector", "matchLabels"), podLabels(overlay)))
                .as("%s: the StatefulSet selector matches its pod labels", overlay).isTrue();
        assertThat(str(container(overlay), "image")).isEqualTo("ketama-router:0.1.0-SNAPSHOT");
        Map<String, Object> nodeId = named(maps(container(overlay), "env"), "QUARKUS_KETAMA_MEMBER_NODE_ID")
                .orElseThrow(() -> new AssertionError(overlay + ": no QUARKUS_KETAMA_MEMBER_NODE_ID env var"));
        assertThat(str(nodeId, "valueFrom", "fieldRef", "fieldPath"))
                .as("%s: the node id is the pod name, from the downward API", overlay).isEqualTo("metadata.name");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void hazelcastFindsMembersByDnsOnAHeadlessService(String overlay) {
        Map<String, Object> sts = statefulSet(overlay);
        String serviceName = str(sts, "spec", "serviceName");
        Map<String, Object> headless = K8s.find(rendered(overlay), "Service", serviceName)
                .orElseThrow(() -> new AssertionError(overlay + ": serviceName " + serviceName + " is not rendered"));
        assertThat(str(headless, "spec", "clusterIP")).as("headless").isEqualTo("None");
        assertThat(at(headless, "spec", "publishNotReadyAddresses"))
                .as("%s: members must find each other before they are ready", overlay).isEqualTo(true);
        assertThat(selects(map(headless, "spec", "selector"), podLabels(overlay))).isTrue();
        assertThat(maps(headless, "spec", "ports")).anySatisfy(p -> assertThat(p.get("port")).isEqualTo(5701));
        assertThat(maps(container(overlay), "ports")).anySatisfy(p -> {
            assertThat(p.get("containerPort")).isEqualTo(5701);
            assertThat(p.get("name")).isEqualTo("hazelcast");
        });

        Map<String, Object> settings = map(configMap(overlay), "data");
        assertThat(settings).containsEntry("QUARKUS_KETAMA_HAZELCAST_KUBERNETES_ENABLED", "true")
                .containsEntry("QUARKUS_KETAMA_HAZELCAST_PORT", "5701");
        String dns = env(overlay, "QUARKUS_KETAMA_HAZELCAST_KUBERNETES_SERVICE_DNS");
        if (dns == null) {
            dns = (String) settings.get("QUARKUS_KETAMA_HAZELCAST_KUBERNETES_SERVICE_DNS");
        }
        assertThat(dns).as("%s: the service DNS name is the headless Service's", overlay)
                .startsWith(serviceName + ".");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void envVarReferencesPointToEarlierVariables(String overlay) {
        // $(VAR) expands only if VAR is defined earlier in the list; a patch can reorder env.
        Set<String> defined = new HashSet<>();
        Pattern ref = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
        for (Map<String, Object> e : maps(container(overlay), "env")) {
            String value = str(e, "value");
            if (value != null) {
                Matcher m = ref.matcher(value);
                while (m.find()) {
                    assertThat(defined).as("%s: env %s refers to $(%s) before it is defined", overlay, e.get("name"),
                            m.group(1)).contains(m.group(1));
                }
            }
            defined.add((String) e.get("name"));
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theClientServiceServesHttp8080(String overlay) {
        List<Map<String, Object>> clientServices = K8s.ofKind(rendered(overlay), "Service").stream()
                .filter(s -> !"None".equals(str(s, "spec", "clusterIP")))
                .filter(s -> maps(s, "spec", "ports").stream().anyMatch(p -> Integer.valueOf(8080).equals(p.get("port"))))
                .toList();
        assertThat(clientServices).as("%s: a client Service on port 8080", overlay).isNotEmpty();
        assertThat(maps(container(overlay), "ports")).anySatisfy(p -> {
            assertThat(p.get("containerPort")).isEqualTo(8080);
            assertThat(p.get("name")).isEqualTo("http");
        });
        for (Map<String, Object> svc : K8s.ofKind(rendered(overlay), "Service")) {
            assertThat(selects(map(svc, "spec", "selector"), podLabels(overlay)))
                    .as("%s: %s selects the member pods", overlay, K8s.id(svc)).isTrue();
            for (Map<String, Object> port : maps(svc, "spec", "ports")) {
                Object target = port.getOrDefault("targetPort", port.get("port"));
                assertThat(maps(container(overlay), "ports"))
                        .as("%s: %s targets port %s, which the container declares", overlay, K8s.id(svc), target)
                        .anyMatch(p -> target.equals(p.get("name")) || target.equals(p.get("containerPort")));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void probesAndPrometheusScrapeAnnotations(String overlay) {
        Map<String, Object> c = container(overlay);
        assertThat(str(c, "livenessProbe", "httpGet", "path")).isEqualTo("/q/health/live");
        assertThat(str(c, "readinessProbe", "httpGet", "path")).isEqualTo("/q/health/ready");
        for (String probe : List.of("livenessProbe", "readinessProbe")) {
            Object port = at(c, probe, "httpGet", "port");
            assertThat(port).as("%s: %s port is HTTP 8080", overlay, probe).isIn("http", 8080);
        }
        assertThat(map(statefulSet(overlay), "spec", "template", "metadata", "annotations"))
                .containsEntry("prometheus.io/scrape", "true")
                .containsEntry("prometheus.io/port", String.valueOf(MANAGEMENT_PORT))
                .containsEntry("prometheus.io/path", "/q/metrics");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theImageRunsTheJarWhoseManifestGivesHazelcastItsModuleAccess(String overlay) throws Exception {
        String entrypoint = Files.readAllLines(K8s.k8sDir().resolve("Dockerfile")).stream()
                .filter(l -> l.startsWith("ENTRYPOINT")).findFirst().orElse("");
        assertThat(entrypoint).as("the image starts java -jar (the manifest carries Add-Opens)")
                .contains("\"-jar\", \"/deployments/quarkus-run.jar\"");
        String options = String.join(" ", nonNull(env(overlay, "JDK_JAVA_OPTIONS")), nonNull(env(overlay, "JAVA_OPTS")));
        assertThat(options).as("%s: module flags by hand would be a second place to keep them", overlay)
                .doesNotContain("--add-opens").doesNotContain("--add-exports");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theMigrationShareIsAnEnvVarOfThePods(String overlay) {
        String share = env(overlay, "QUARKUS_KETAMA_MIGRATION_V2_SHARE");
        assertThat(share).as("%s: QUARKUS_KETAMA_MIGRATION_V2_SHARE set on the container", overlay).isNotNull();
        assertThat(new BigDecimal(share)).isBetween(BigDecimal.ZERO, BigDecimal.valueOf(100));
        assertThat(map(configMap(overlay), "data"))
                .as("%s: the share lives in one place (an env var overrides the ConfigMap silently)", overlay)
                .doesNotContainKey("QUARKUS_KETAMA_MIGRATION_V2_SHARE");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void settingsAreKnownKeysWithValidValues(String overlay) {
        Map<String, Object> settings = new LinkedHashMap<>(map(configMap(overlay), "data"));
        for (Map<String, Object> e : maps(container(overlay), "env")) {
            if (e.containsKey("value")) {
                settings.put((String) e.get("name"), e.get("value"));
            }
        }
        List<String> problems = new ArrayList<>();
        settings.forEach((key, value) -> {
            if (Settings.ownNamespace(key) && !Settings.known(key)) {
                problems.add(key + " is no setting of the extension or the service (misspelt?)");
            }
            if (!(value instanceof String)) {
                problems.add(key + " must be a string, found " + value);
            }
        });
        Settings.problems(settings, problems);
        assertThat(problems).as("%s ConfigMap and env: %s", overlay, settings).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void onlyMemberPodsReachTheHazelcastPortWhileHttpStaysOpen(String overlay) {
        List<Map<String, Object>> policies = K8s.ofKind(rendered(overlay), "NetworkPolicy");
        assertThat(policies).as("%s: a NetworkPolicy", overlay).hasSize(1);
        Map<String, Object> np = policies.get(0);
        Map<String, Object> pods = podLabels(overlay);
        assertThat(selects(map(np, "spec", "podSelector", "matchLabels"), pods)).as("applies to the members").isTrue();
        assertThat(K8s.at(np, "spec", "policyTypes")).asList().contains("Ingress");
        boolean httpOpen = false;
        for (Map<String, Object> rule : maps(np, "spec", "ingress")) {
            List<Map<String, Object>> ports = maps(rule, "ports");
            boolean coversHazelcast = ports.isEmpty()
                    || ports.stream().anyMatch(p -> List.of(5701, "hazelcast", forwardPort(overlay), "forward").contains(p.get("port")));
            List<Map<String, Object>> from = maps(rule, "from");
            if (coversHazelcast) {
                assertThat(from).as("%s: a rule opening 5701 or the forward port must name its peers: %s", overlay, rule).isNotEmpty();
                for (Map<String, Object> peer : from) {
                    assertThat(peer.keySet()).as("%s: 5701 peers are pods of this namespace only: %s", overlay, peer)
                            .containsExactly("podSelector");
                    assertThat(selects(map(peer, "podSelector", "matchLabels"), pods))
                            .as("%s: 5701 peers are member pods: %s", overlay, peer).isTrue();
                    assertThat(map(peer, "podSelector", "matchLabels"))
                            .containsEntry("app.kubernetes.io/name", pods.get("app.kubernetes.io/name"));
                }
            }
            if (from.isEmpty() && ports.stream().anyMatch(p -> List.of(8080, "http").contains(p.get("port")))) {
                httpOpen = true;
            }
        }
        assertThat(httpOpen).as("%s: HTTP 8080 is open to every client", overlay).isTrue();
        // ... and the members do reach it: a rule opens 5701 (TCP) to member pods (README, Security)
        assertThat(maps(np, "spec", "ingress")).as("%s: a NetworkPolicy rule opens the Hazelcast port %d (TCP) to the member pods",
                overlay, HAZELCAST_PORT).anySatisfy(rule -> {
                    List<Map<String, Object>> ports = maps(rule, "ports");
                    assertThat(ports.isEmpty() || ports.stream().anyMatch(p -> List.of(HAZELCAST_PORT, "hazelcast").contains(p.get("port"))
                            && List.of("TCP").contains(p.getOrDefault("protocol", "TCP")))).as("opens %d over TCP: %s", HAZELCAST_PORT, rule)
                            .isTrue();
                    assertThat(maps(rule, "from")).as("from member pods: %s", rule).isNotEmpty()
                            .allSatisfy(peer -> assertThat(selects(map(peer, "podSelector", "matchLabels"), pods)).isTrue());
                });
    }

    /** The fixed port of the binary forward channel, from the ConfigMap. */
    private static int forwardPort(String overlay) {
        Object port = map(configMap(overlay), "data").get("KETAMA_ROUTER_FORWARD_BINARY_PORT");
        assertThat(port).as("%s: the binary forward channel has a fixed port (KETAMA_ROUTER_FORWARD_BINARY_PORT)", overlay)
                .isNotNull();
        return Integer.parseInt(port.toString());
    }

    /** The ingress rules of the one NetworkPolicy that open {@code port} (or every port). */
    private static List<Map<String, Object>> rulesOpening(String overlay, int port, String name) {
        Map<String, Object> np = K8s.ofKind(rendered(overlay), "NetworkPolicy").get(0);
        return maps(np, "spec", "ingress").stream()
                .filter(rule -> maps(rule, "ports").isEmpty()
                        || maps(rule, "ports").stream().anyMatch(p -> List.of(port, name).contains(p.get("port"))))
                .toList();
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void membersReachEachOthersForwardChannelOnAFixedPort(String overlay) {
        int forward = forwardPort(overlay);
        assertThat(forward).as("%s: a fixed port, not 0 (any free port cannot be named by a NetworkPolicy)", overlay)
                .isBetween(1, 65535);
        assertThat(maps(container(overlay), "ports")).as("%s: the container declares the forward port", overlay)
                .anySatisfy(p -> assertThat(p.get("containerPort")).isEqualTo(forward));
        List<Map<String, Object>> rules = rulesOpening(overlay, forward, "forward");
        assertThat(rules).as("%s: a NetworkPolicy rule opens the forward port %d to the members", overlay, forward).isNotEmpty();
        for (Map<String, Object> rule : rules) {
            assertThat(maps(rule, "from")).as("%s: the forward port is open to member pods only: %s", overlay, rule).isNotEmpty()
                    .allSatisfy(peer -> assertThat(selects(map(peer, "podSelector", "matchLabels"), podLabels(overlay))).isTrue());
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theManagementPortIsOpenOnlyToTheOperatingNamespace(String overlay) {
        assertThat(maps(container(overlay), "ports")).as("%s: the container declares the management port", overlay)
                .anySatisfy(p -> assertThat(p.get("containerPort")).isEqualTo(MANAGEMENT_PORT));
        Map<String, Object> settings = new LinkedHashMap<>(map(configMap(overlay), "data"));
        maps(container(overlay), "env").forEach(e -> settings.put((String) e.get("name"), e.get("value")));
        assertThat(settings.getOrDefault("QUARKUS_MANAGEMENT_PORT", String.valueOf(MANAGEMENT_PORT)))
                .as("%s: the management port is the one the policy names", overlay).isEqualTo(String.valueOf(MANAGEMENT_PORT));
        List<Map<String, Object>> rules = rulesOpening(overlay, MANAGEMENT_PORT, "management");
        assertThat(rules).as("%s: a NetworkPolicy rule opens the management port", overlay).isNotEmpty();
        for (Map<String, Object> rule : rules) {
            List<Map<String, Object>> from = maps(rule, "from");
            assertThat(from).as("%s: the management port is never open to every client: %s", overlay, rule).isNotEmpty();
            for (Map<String, Object> peer : from) {
                assertThat(peer.keySet()).as("%s: management peers are chosen by namespace: %s", overlay, peer)
                        .containsExactly("namespaceSelector");
                assertThat(map(peer, "namespaceSelector", "matchLabels"))
                        .as("%s: a namespace label chooses the operating namespace (an empty selector is every namespace)", overlay)
                        .isNotEmpty();
            }
        }
    }

    /**
     * Issue 40: a cluster deployed from the overlay refuses a migration change on the smaller side of
     * a partition. It does with the learned quorum, which needs no setting (a majority of the members
     * the cluster expects); a {@code min-members} set in a manifest would win over it, so it may only
     * be a majority of the replicas.
     */
    @ParameterizedTest
    @MethodSource("overlays")
    void aMigrationChangeNeedsAMajority(String overlay) {
        Map<String, Object> settings = new LinkedHashMap<>(map(configMap(overlay), "data"));
        for (Map<String, Object> e : maps(container(overlay), "env")) {
            settings.put((String) e.get("name"), e.containsKey("value") ? e.get("value") : "(from " + e.keySet() + ")");
        }
        Object minMembers = settings.get("QUARKUS_KETAMA_MIGRATION_MIN_MEMBERS");
        int replicas = (Integer) at(statefulSet(overlay), "spec", "replicas");
        if (minMembers != null) {
            assertThat(Integer.parseInt(String.valueOf(minMembers))).as("%s: min-members set, so a majority of %d replicas", overlay,
                    replicas).isGreaterThanOrEqualTo(replicas / 2 + 1);
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theAdminTokenComesFromASecret(String overlay) {
        comesFromASecret(overlay, "QUARKUS_KETAMA_ADMIN_TOKEN");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theForwardSecretComesFromASecret(String overlay) {
        comesFromASecret(overlay, "KETAMA_ROUTER_FORWARD_SECRET");
    }

    /**
     * prod's pods need the forward secret to start: without it a member serves forwards from anyone who
     * reaches its binary port or {@code /_ketama/forward/} (issue 25 item 6). dev may run without it.
     */
    @Test
    void prodRequiresTheForwardSecretAndDevMayGoWithout() {
        Map<String, Object> prod = named(maps(container("prod"), "env"), "KETAMA_ROUTER_FORWARD_SECRET").orElseThrow();
        assertThat(at(prod, "valueFrom", "secretKeyRef", "optional")).as("prod: a pod starts only with the forward secret")
                .isEqualTo(false);
        assertThat(str(prod, "valueFrom", "secretKeyRef", "name")).isEqualTo("ketama-router-forward");
        assertThat(str(prod, "valueFrom", "secretKeyRef", "key")).isEqualTo("secret");
        Map<String, Object> dev = named(maps(container("dev"), "env"), "KETAMA_ROUTER_FORWARD_SECRET").orElseThrow();
        assertThat(at(dev, "valueFrom", "secretKeyRef", "optional")).as("dev: the Secret may be missing").isEqualTo(true);
    }

    /** {@code variable} is set on the container from a Secret, never as a literal, and not in the ConfigMap. */
    private static void comesFromASecret(String overlay, String variable) {
        Map<String, Object> env = named(maps(container(overlay), "env"), variable)
                .orElseThrow(() -> new AssertionError(overlay + ": " + variable + " is not set on the container"));
        assertThat(env).as("%s: never a literal %s in a manifest", overlay, variable).doesNotContainKey("value");
        assertThat(str(env, "valueFrom", "secretKeyRef", "name")).isNotBlank();
        assertThat(map(configMap(overlay), "data")).doesNotContainKey(variable);
    }

    @Test
    void devRunsThreeMembers() {
        assertThat(at(statefulSet("dev"), "spec", "replicas")).isEqualTo(3);
    }

    @Test
    void prodRunsSixOrMoreMembersWithADisruptionBudgetAndResources() {
        assertThat((Integer) at(statefulSet("prod"), "spec", "replicas")).isGreaterThanOrEqualTo(6);
        List<Map<String, Object>> budgets = K8s.ofKind(rendered("prod"), "PodDisruptionBudget");
        assertThat(budgets).hasSize(1);
        Map<String, Object> pdb = budgets.get(0);
        assertThat(selects(map(pdb, "spec", "selector", "matchLabels"), podLabels("prod"))).isTrue();
        assertThat(map(pdb, "spec").keySet()).containsAnyOf("maxUnavailable", "minAvailable");
        Map<String, Object> resources = map(container("prod"), "resources");
        for (String kind : List.of("requests", "limits")) {
            assertThat(map(resources, kind)).as("prod %s", kind).containsKeys("cpu", "memory");
        }
        assertThat(Quantity.kubernetes(str(resources, "limits", "memory")))
                .isGreaterThanOrEqualTo(Quantity.kubernetes(str(resources, "requests", "memory")));
        // the local cache must fit in the heap the JVM gets from the memory limit
        String heapPercent = Pattern.compile("-XX:MaxRAMPercentage=([0-9.]+)").matcher(env("prod", "JDK_JAVA_OPTIONS"))
                .results().map(m -> m.group(1)).findFirst().orElse("25");
        double heap = Quantity.kubernetes(str(resources, "limits", "memory")) * Double.parseDouble(heapPercent) / 100;
        double cache = Quantity.quarkus((String) map(configMap("prod"), "data").get("KETAMA_ROUTER_CACHE_MAX_BYTES"));
        assertThat(cache).as("prod: cache max bytes within 3/4 of the heap (%s bytes)", (long) heap)
                .isLessThanOrEqualTo(heap * 0.75);
        // and the received bodies held at once beside it (unset, the service takes a quarter of the heap)
        Object buffered = map(configMap("prod"), "data").get("KETAMA_ROUTER_ADMISSION_MAX_BUFFERED_BYTES");
        double bodies = buffered == null ? heap / 4 : Quantity.quarkus((String) buffered);
        assertThat(cache + bodies).as("prod: cache and admission max buffered bytes within 3/4 of the heap (%s bytes)", (long) heap)
                .isLessThanOrEqualTo(heap * 0.75);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    /** Memory sizes in bytes: Kubernetes quantities (Mi = 2^20, M = 10^6) and Quarkus sizes (M = 2^20). */
    static final class Quantity {
        private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([kKMGT]i?)?B?");

        static double kubernetes(String text) {
            return bytes(text, true);
        }

        static double quarkus(String text) {
            return bytes(text, false);
        }

        private static double bytes(String text, boolean kubernetes) {
            Matcher m = FORM.matcher(text.trim());
            assertThat(m.matches()).as("a memory size: %s", text).isTrue();
            double n = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "" : m.group(2);
            if (unit.isEmpty()) {
                return n;
            }
            int power = "KMGT".indexOf(Character.toUpperCase(unit.charAt(0))) + 1;
            boolean binary = unit.endsWith("i") || !kubernetes;
            return n * Math.pow(binary ? 1024 : 1000, power);
        }
    }
}
