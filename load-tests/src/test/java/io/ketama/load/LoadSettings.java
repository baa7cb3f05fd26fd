package io.ketama.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What every simulation shares: where the members are, how hard to push and with which keys.
 * Only loopback is ever addressed: members are given as ports on 127.0.0.1, never as hosts.
 *
 * @param ports        HTTP ports of the members serving from the start
 * @param standbyPorts HTTP ports of members that may join later (churn); used once they report ready
 * @param rate         requests started per second (open model: arrivals do not wait for answers)
 * @param seconds      how long the load runs
 * @param keys         size of the key set
 * @param zipfExponent skew of the key popularity (1.0: the classic Zipf law)
 * @param seed         seed of the key sequence, so two runs request the same keys in the same order
 * @param attempts     tries per request, each on the next member in service (1: no client failover)
 * @param jvmWarmupSeconds seconds of traffic before the measured load, on keys the measured load
 *                     never asks for: the members' JIT warms up, their caches stay cold
 * @param out          directory for CSV files and charts
 * @param managementOffset a member's management port (metrics, admin plane) is its HTTP port plus this
 */
record LoadSettings(List<Integer> ports, List<Integer> standbyPorts, double rate, int seconds, int keys,
                    double zipfExponent, long seed, int attempts, int jvmWarmupSeconds, Path out, int managementOffset) {

    static final String HOST = "127.0.0.1";

    LoadSettings {
        ports = List.copyOf(ports);
        standbyPorts = List.copyOf(standbyPorts);
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("load.ports lists no member; give at least one HTTP port, e.g. 8080,8081,8082");
        }
        for (Integer p : standbyPorts) {
            if (ports.contains(p)) {
                throw new IllegalArgumentException("port " + p + " is in both load.ports and load.standbyPorts; a port is one or the other");
            }
        }
    }

    /** Reads the {@code load.*} system properties, with defaults for a three-member cluster on 8080–8082. */
    static LoadSettings fromSystemProperties(String scenario) {
        Props props = Props.system();
        return new LoadSettings(
                props.intList("load.ports", "8080,8081,8082", 1, 65535),
                props.intList("load.standbyPorts", "", 1, 65535),
                props.doubleIn("load.rate", 100, 0, 5000),
                props.intIn("load.seconds", 60, 1, 3600),
                props.intIn("load.keys", 5000, 1, 10_000_000),
                props.doubleIn("load.zipf", 1.0, 0, 5),
                props.longValue("load.seed", 42),
                props.intIn("load.attempts", 1, 1, 5),
                props.intIn("load.jvmWarmupSeconds", 0, 0, 600),
                Path.of(props.optional("load.out") == null ? "target/load-results/" + scenario : props.optional("load.out")),
                props.intIn("load.managementOffset", 1000, 1, 50000));
    }

    /** The management ports of {@link #ports()}, in the same order. */
    List<Integer> managementPorts() {
        return ports.stream().map(p -> p + managementOffset).toList();
    }

    /**
     * The admin token the members were started with ({@code QUARKUS_KETAMA_ADMIN_TOKEN}), from the
     * environment variable {@code LOAD_ADMIN_TOKEN} (run.sh sets both), so it is on no command line.
     */
    static String adminToken() {
        String token = System.getenv("LOAD_ADMIN_TOKEN");
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("LOAD_ADMIN_TOKEN is not set: the migration scenario changes the cluster's state "
                    + "through PUT /q/ketama/migration, which needs the members' admin token (run.sh sets it)");
        }
        return token.trim();
    }

    /** Every member port this run may address: the initial ones, then the standbys. */
    List<Integer> allPorts() {
        List<Integer> all = new ArrayList<>(ports);
        all.addAll(standbyPorts);
        return all;
    }

    static String baseUrl(int port) {
        return "http://" + HOST + ":" + port;
    }
}
