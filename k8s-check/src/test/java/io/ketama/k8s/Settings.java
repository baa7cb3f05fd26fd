package io.ketama.k8s;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The configuration contract of the extension and the service (the keys the runtime and app modules
 * implement), to catch misspelt keys and bad values in k8s/ and config/ before anything starts.
 */
final class Settings {
    private Settings() {
    }

    static final List<String> KEYS = List.of(
            "quarkus.ketama.datacenter",
            "quarkus.ketama.hash-style",
            "quarkus.ketama.member.weight",
            "quarkus.ketama.member.features",
            "quarkus.ketama.member.node-id",
            "quarkus.ketama.migration.mode",
            "quarkus.ketama.migration.v2-share",
            "quarkus.ketama.migration.datacenters",
            "quarkus.ketama.migration.shadow",
            "quarkus.ketama.v2.points-per-weight",
            "quarkus.ketama.rebuild.coalesce-delay",
            "quarkus.ketama.hazelcast.cluster-name",
            "quarkus.ketama.hazelcast.port",
            "quarkus.ketama.hazelcast.port-auto-increment",
            "quarkus.ketama.hazelcast.members",
            "quarkus.ketama.hazelcast.interface",
            "quarkus.ketama.hazelcast.kubernetes.enabled",
            "quarkus.ketama.hazelcast.kubernetes.service-dns",
            "quarkus.ketama.hazelcast.config-file",
            "ketama.router.cache.max-bytes",
            "ketama.router.origin.base-url",
            "ketama.router.origin.demo-delay",
            "quarkus.http.port");

    /** The environment variable of a property, as MicroProfile Config maps it. */
    static String envName(String property) {
        return property.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    static final Set<String> ENV_NAMES = KEYS.stream().map(Settings::envName).collect(Collectors.toUnmodifiableSet());

    /** Whether a key in the extension's or the service's namespace is one of the contract's. */
    static boolean known(String propertyOrEnv) {
        return ENV_NAMES.contains(envName(propertyOrEnv));
    }

    static boolean ownNamespace(String propertyOrEnv) {
        String env = envName(propertyOrEnv);
        return env.startsWith("QUARKUS_KETAMA_") || env.startsWith("KETAMA_");
    }

    private static final Pattern DURATION = Pattern.compile("[0-9]+(ms|s|m|h|d)?|P[0-9A-Z.]+");
    private static final Pattern MEMORY = Pattern.compile("[0-9]+[KkMmGgTt]?");
    private static final Pattern TAGS = Pattern.compile("|[a-z0-9][a-z0-9_-]*(,[a-z0-9][a-z0-9_-]*)*");
    private static final Pattern HOST_PORTS = Pattern.compile("[^,\\s]+:[0-9]{1,5}(,[^,\\s]+:[0-9]{1,5})*");

    /** Adds a line to {@code problems} for each value the extension would refuse at start-up. */
    static void problems(Map<String, ?> settings, List<String> problems) {
        settings.forEach((key, raw) -> {
            String v = raw == null ? "" : raw.toString().trim();
            String problem = switch (envName(key)) {
                case "QUARKUS_KETAMA_HASH_STYLE" -> oneOf(v, "nginx", "pingora");
                case "QUARKUS_KETAMA_MIGRATION_MODE" -> oneOf(v, "v1", "v2", "split");
                case "QUARKUS_KETAMA_MIGRATION_SHADOW", "QUARKUS_KETAMA_HAZELCAST_PORT_AUTO_INCREMENT",
                        "QUARKUS_KETAMA_HAZELCAST_KUBERNETES_ENABLED" -> oneOf(v, "true", "false");
                case "QUARKUS_KETAMA_MEMBER_WEIGHT", "QUARKUS_KETAMA_V2_POINTS_PER_WEIGHT" -> intIn(v, 1, Integer.MAX_VALUE);
                case "QUARKUS_KETAMA_HAZELCAST_PORT", "QUARKUS_HTTP_PORT" -> intIn(v, 1, 65535);
                case "QUARKUS_KETAMA_MIGRATION_V2_SHARE" -> percent(v);
                case "QUARKUS_KETAMA_REBUILD_COALESCE_DELAY", "KETAMA_ROUTER_ORIGIN_DEMO_DELAY" ->
                        DURATION.matcher(v).matches() ? null : "must be a duration like 200ms, 2s or PT0.2S";
                case "KETAMA_ROUTER_CACHE_MAX_BYTES" ->
                        MEMORY.matcher(v).matches() ? null : "must be a size in bytes or like 64M";
                case "QUARKUS_KETAMA_MEMBER_FEATURES", "QUARKUS_KETAMA_MIGRATION_DATACENTERS" ->
                        TAGS.matcher(v).matches() ? null : "must be a comma list of lower-case names";
                case "QUARKUS_KETAMA_HAZELCAST_MEMBERS" ->
                        HOST_PORTS.matcher(v).matches() ? null : "must list members one by one as host:port,host:port";
                default -> null;
            };
            if (problem != null) {
                problems.add(key + "=" + raw + ": " + problem);
            }
        });
    }

    private static String oneOf(String v, String... allowed) {
        return List.of(allowed).contains(v) ? null : "must be one of " + List.of(allowed);
    }

    private static String intIn(String v, int min, int max) {
        try {
            int n = Integer.parseInt(v);
            return n >= min && n <= max ? null : "must be between " + min + " and " + max;
        } catch (NumberFormatException e) {
            return "must be an integer";
        }
    }

    private static String percent(String v) {
        try {
            BigDecimal p = new BigDecimal(v);
            return p.signum() >= 0 && p.compareTo(BigDecimal.valueOf(100)) <= 0 ? null : "must be 0 to 100 (percent)";
        } catch (NumberFormatException e) {
            return "must be a number of percent, 0 to 100";
        }
    }
}
