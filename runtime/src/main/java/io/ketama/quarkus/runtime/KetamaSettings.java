package io.ketama.quarkus.runtime;

import io.ketama.core.HashStyle;
import io.ketama.quarkus.KetamaConfig;
import io.ketama.quarkus.MigrationSettings;

import io.quarkus.runtime.configuration.ConfigurationException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@link KetamaConfig} after validation: every value in range, parsed into the types the
 * extension uses. {@link #from} reports every invalid key at once, each with what is allowed.
 *
 * @param migrationDatacenters the split-mode allowlist, or null for every data centre
 * @param nodeId               null when unset
 * @param listIndex            {@code member.list-index}, or null when unset
 */
record KetamaSettings(String datacenter, RingSettings ring, int weight, List<String> features, String nodeId, Integer listIndex,
                      MigrationSettings migration, Set<String> migrationDatacenters, Duration coalesceDelay,
                      HazelcastSettings hazelcast) {

    static final String PREFIX = "quarkus.ketama.";
    static final Duration MAX_COALESCE_DELAY = Duration.ofMinutes(1);

    /** Validated {@code quarkus.ketama.hazelcast.*}; each value is null when unset. */
    record HazelcastSettings(String clusterName, Integer port, Boolean portAutoIncrement, List<String> members,
                             String interfaceAddress, Boolean kubernetes, String serviceDns, String configFile,
                             Duration failureTimeout, Duration mergeInterval) {
    }

    static final Duration MIN_FAILURE_TIMEOUT = Duration.ofSeconds(3);
    static final Duration MIN_MERGE_INTERVAL = Duration.ofSeconds(1);
    static final Duration MAX_FAULT_TIMING = Duration.ofMinutes(10);

    /** Whether split mode applies in this member's data centre. */
    boolean splitAllowedHere() {
        return migrationDatacenters == null || migrationDatacenters.contains(datacenter);
    }

    /**
     * Validates {@code config}.
     *
     * @throws ConfigurationException listing every invalid {@code quarkus.ketama.*} key, this group's and the
     *                                others' ({@link SettingsCheck#requireValid}), with its value and what is allowed
     */
    static KetamaSettings from(KetamaConfig config) {
        SettingsCheck.requireValid(config);
        return from(config, new ArrayList<>());
    }

    /** Validates {@code config}, adding one line per invalid key to {@code problems}; null when any was added. */
    static KetamaSettings from(KetamaConfig config, List<String> problems) {
        int before = problems.size();
        String datacenter = check(problems, () -> MemberParser.datacenter(PREFIX + "datacenter", config.datacenter()));
        RingSettings ring = check(problems, () -> new RingSettings(config.hashStyle(), hashOptions(config), config.v2().pointsPerWeight()));
        Integer weight = check(problems, () -> MemberParser.weight(PREFIX + "member.weight",
                Integer.toString(config.member().weight())));
        List<String> features = check(problems, () -> List.copyOf(MemberParser.features(PREFIX + "member.features",
                config.member().features().orElse(""))));
        String nodeId = config.member().nodeId().map(String::trim).filter(s -> !s.isEmpty()).orElse(null);
        Integer listIndex = config.member().listIndex().isPresent()
                ? check(problems, () -> MemberParser.listIndex(PREFIX + "member.list-index", Integer.toString(config.member().listIndex().getAsInt())))
                : null;

        KetamaConfig.Migration m = config.migration();
        MigrationSettings migration = check(problems, () -> new MigrationSettings(m.mode(), m.v2Share(), m.shadow()));
        Set<String> allowlist = check(problems, () -> m.datacenters().map(list -> names(PREFIX + "migration.datacenters", list))
                .orElse(null));

        Duration delay = config.rebuild().coalesceDelay();
        if (delay.isNegative() || delay.compareTo(MAX_COALESCE_DELAY) > 0) {
            problems.add(PREFIX + "rebuild.coalesce-delay must be from 0 to " + MAX_COALESCE_DELAY.toSeconds()
                    + "s (e.g. 200ms), was " + delay);
        }
        HazelcastSettings hazelcast = hazelcast(config.hazelcast(), problems);

        if (problems.size() > before) {
            return null;
        }
        return new KetamaSettings(datacenter, ring, weight, features, nodeId, listIndex, migration, allowlist, delay, hazelcast);
    }

    /**
     * {@code hash-tag} and {@code hash-nodes}; whether the style takes them is {@link RingSettings}'s check.
     *
     * @throws IllegalArgumentException naming the key, its value and what is allowed
     */
    private static HashStyle.Options hashOptions(KetamaConfig config) {
        HashStyle.Options options = HashStyle.Options.DEFAULTS;
        try {
            if (config.hashTag().isPresent()) {
                options = options.withHashTag(config.hashTag().get());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(RingSettings.HASH_TAG_KEY + ": " + e.getMessage(), e);
        }
        try {
            if (config.hashNodes().isPresent()) {
                options = options.withHashNodes(config.hashNodes().getAsInt());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(RingSettings.HASH_NODES_KEY + ": " + e.getMessage(), e);
        }
        return options;
    }

    private static HazelcastSettings hazelcast(KetamaConfig.Hazelcast h, List<String> problems) {
        String hz = PREFIX + "hazelcast.";
        String clusterName = h.clusterName().map(String::trim).orElse(null);
        if (clusterName != null && clusterName.isEmpty()) {
            problems.add(hz + "cluster-name must be non-blank when set");
        }
        Integer port = h.port().orElse(null);
        if (port != null && (port < 1 || port > 65535)) {
            problems.add(hz + "port must be from 1 to 65535, was " + port);
        }
        List<String> members = h.members().map(list -> list.stream().map(String::trim).toList()).orElse(null);
        for (String member : members == null ? List.<String>of() : members) {
            String problem = memberAddressProblem(member.trim());
            if (problem != null) {
                problems.add(hz + "members entry '" + member + "' " + problem
                        + "; allowed: host or host:port (IPv6 as [addr]:port), listed one by one");
            }
        }
        String iface = h.interfaceAddress().map(String::trim).orElse(null);
        if (iface != null && iface.isEmpty()) {
            problems.add(hz + "interface must be an IP address of this host (wildcards * allowed) when set");
        }
        String dns = h.kubernetes().serviceDns().map(String::trim).filter(s -> !s.isEmpty()).orElse(null);
        String file = h.configFile().map(String::trim).filter(s -> !s.isEmpty()).orElse(null);
        if (file != null && !Files.isReadable(Path.of(file))
                && Thread.currentThread().getContextClassLoader().getResource(file) == null) {
            problems.add(hz + "config-file '" + file + "' is neither a readable file nor a class-path resource");
        }
        Duration failureTimeout = wholeSeconds(problems, hz + "failure-timeout", h.failureTimeout().orElse(null),
                MIN_FAILURE_TIMEOUT, "10s");
        Duration mergeInterval = wholeSeconds(problems, hz + "merge-interval", h.mergeInterval().orElse(null),
                MIN_MERGE_INTERVAL, "10s");
        return new HazelcastSettings(clusterName, port, h.portAutoIncrement().orElse(null), members, iface,
                h.kubernetes().enabled().orElse(null), dns, file, failureTimeout, mergeInterval);
    }

    /** {@code value} when null or whole seconds from {@code min} to {@link #MAX_FAULT_TIMING}; else a problem, and null. */
    private static Duration wholeSeconds(List<String> problems, String key, Duration value, Duration min, String example) {
        if (value == null) {
            return null;
        }
        if (value.compareTo(min) < 0 || value.compareTo(MAX_FAULT_TIMING) > 0 || value.toNanos() % 1_000_000_000L != 0) {
            problems.add(key + " must be whole seconds from " + min.toSeconds() + "s to " + MAX_FAULT_TIMING.toSeconds()
                    + "s (e.g. " + example + "), was " + value);
            return null;
        }
        return value;
    }

    /** Null when {@code text} is a usable TCP/IP member address, else what is wrong with it. */
    static String memberAddressProblem(String text) {
        if (text.isEmpty()) {
            return "is empty";
        }
        String port = null;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                return "has no closing ']'";
            }
            if (close + 1 < text.length()) {
                if (text.charAt(close + 1) != ':') {
                    return "has text after ']' that is not ':port'";
                }
                port = text.substring(close + 2);
            }
        } else {
            int colon = text.indexOf(':');
            if (colon >= 0) {
                if (text.indexOf(':', colon + 1) >= 0) {
                    return "is an IPv6 address without brackets";
                }
                port = text.substring(colon + 1);
            }
        }
        if (port == null) {
            return null;
        }
        if (port.indexOf('-') >= 0) {
            return "is a port range, which Hazelcast rejects";
        }
        try {
            int p = Integer.parseInt(port);
            return p >= 1 && p <= 65535 ? null : "has port " + p + " outside 1..65535";
        } catch (NumberFormatException e) {
            return "has port '" + port + "' that is not a number";
        }
    }

    private static Set<String> names(String key, List<String> list) {
        Set<String> out = new LinkedHashSet<>();
        for (String name : list) {
            out.add(MemberParser.datacenter(key, name));
        }
        return Set.copyOf(out);
    }

    private static <T> T check(List<String> problems, Supplier<T> value) {
        try {
            return value.get();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return null;
        }
    }
}
