package io.ketama.load.faults;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The paused master with plain Hazelcast, no extension (issue 40, point 3): one member of a cluster
 * of N on 127.0.0.1 that writes its member list to a status file every 200 ms, and the analysis of
 * those files after one member was paused ({@code kill -STOP}) and resumed. {@code paused-master.sh}
 * starts the members, pauses one and calls the analysis.
 *
 * <pre>
 * member  &lt;index 0..N-1&gt; &lt;N&gt; &lt;base port&gt; &lt;cluster name&gt; &lt;status file&gt;
 * analyze &lt;status dir&gt; &lt;N&gt; &lt;base port&gt; &lt;paused port&gt; &lt;STOP epoch ms&gt; &lt;CONT epoch ms&gt; &lt;failure timeout s&gt;
 * </pre>
 *
 * The member joins by TCP/IP with the N addresses {@code 127.0.0.1:<base port + i>}, multicast and
 * auto-detection off, listening on 127.0.0.1 only. Every {@code hazelcast.*} property under test is
 * a system property ({@code -Dhazelcast.max.no.heartbeat.seconds=10}), which Hazelcast reads when the
 * configuration does not set it; the member prints the ones it was given. A status line is
 * {@code <epoch ms> <own address> <member list, the master first, comma-separated>}.
 *
 * <p>The analysis prints one tab-separated line: the paused member, whether it was the master, each
 * survivor's drop time (ms after STOP; {@code never} when it kept the paused member until CONT),
 * whether the survivors stayed one cluster for the whole pause (no status of one lacks the other),
 * when the survivors first held the same member list without the paused member, when the cluster
 * was whole again after CONT (every member the same list of N), and whether the run met the target:
 * every survivor dropped the paused member within failure timeout + 5 s and the survivors stayed one.
 */
public final class PausedMasterRepro {

    private static final long STATUS_PERIOD_MS = 200;

    private PausedMasterRepro() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 6 && args[0].equals("member")) {
            member(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4], Path.of(args[5]));
        } else if (args.length == 8 && args[0].equals("analyze")) {
            System.out.println(analyze(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]), Long.parseLong(args[5]), Long.parseLong(args[6]), Long.parseLong(args[7]) * 1000));
        } else {
            System.err.println("usage: member <index> <N> <base port> <cluster name> <status file>\n"
                    + "       analyze <status dir> <N> <base port> <paused port> <STOP ms> <CONT ms> <failure timeout s>");
            System.exit(2);
        }
    }

    private static void member(int index, int n, int basePort, String clusterName, Path status) throws Exception {
        Config config = new Config();
        config.setClusterName(clusterName);
        config.getNetworkConfig().setPort(basePort + index).setPortAutoIncrement(false);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int i = 0; i < n; i++) {
            join.getTcpIpConfig().addMember("127.0.0.1:" + (basePort + i));
        }
        Map<String, String> given = new TreeMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("hazelcast.")) {
                given.put(k.toString(), v.toString());
            }
        });
        System.out.println("PausedMasterRepro member " + index + " of " + n + ", Hazelcast properties given: " + given);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(config);
        String self = address(hz.getCluster().getLocalMember());
        try (Writer out = Files.newBufferedWriter(status, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            while (hz.getLifecycleService().isRunning()) {
                String members = hz.getCluster().getMembers().stream().map(PausedMasterRepro::address)
                        .collect(Collectors.joining(","));
                out.write(System.currentTimeMillis() + " " + self + " " + members + "\n");
                out.flush();
                Thread.sleep(STATUS_PERIOD_MS);
            }
        }
    }

    private static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    /** One status line: when, and the member list (the master first). */
    record Status(long at, List<String> members) {
    }

    static String analyze(Path dir, int n, int basePort, int pausedPort, long stop, long cont, long failureTimeoutMs) {
        String paused = "127.0.0.1:" + pausedPort;
        Map<String, List<Status>> byMember = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            String address = "127.0.0.1:" + (basePort + i);
            byMember.put(address, read(dir.resolve("status-" + (basePort + i) + ".txt")));
        }
        return analyze(byMember, paused, stop, cont, failureTimeoutMs);
    }

    static String analyze(Map<String, List<Status>> byMember, String paused, long stop, long cont, long failureTimeoutMs) {
        List<String> survivors = byMember.keySet().stream().filter(a -> !a.equals(paused)).toList();
        Status before = last(byMember.get(paused), stop);
        boolean wasMaster = before != null && before.members().get(0).equals(paused);
        List<String> drops = new ArrayList<>();
        long maxDrop = -1;
        boolean allDropped = true;
        boolean oneCluster = true;
        for (String s : survivors) {
            Long drop = null;
            for (Status st : byMember.get(s)) {
                if (st.at() < stop || st.at() > cont) {
                    continue;
                }
                if (drop == null && !st.members().contains(paused)) {
                    drop = st.at() - stop;
                }
                for (String other : survivors) {
                    if (!st.members().contains(other)) {
                        oneCluster = false;
                    }
                }
            }
            drops.add(drop == null ? "never" : Long.toString(drop));
            if (drop == null) {
                allDropped = false;
            } else {
                maxDrop = Math.max(maxDrop, drop);
            }
        }
        Long agreed = firstWhen(byMember, survivors, stop, cont, views -> {
            List<String> first = views.get(0).members();
            return !first.contains(paused) && first.size() == survivors.size()
                    && views.stream().allMatch(v -> v.members().equals(first));
        });
        Long whole = firstWhen(byMember, byMember.keySet().stream().toList(), cont, Long.MAX_VALUE, views -> {
            List<String> first = views.get(0).members();
            return first.size() == byMember.size() && views.stream().allMatch(v -> v.members().equals(first));
        });
        String newMaster = "-";
        for (Status st : byMember.get(survivors.get(0))) {
            if (st.at() >= stop && st.at() <= cont && !st.members().contains(paused)) {
                newMaster = st.members().get(0);
                break;
            }
        }
        boolean met = allDropped && maxDrop <= failureTimeoutMs + 5000 && oneCluster;
        return String.join("\t", "paused=" + paused, "master=" + (wasMaster ? "y" : "n"),
                "drop_ms=" + String.join(",", drops), "max_drop_ms=" + (allDropped ? Long.toString(maxDrop) : "never"),
                "survivors_one_cluster=" + (oneCluster ? "y" : "n"),
                "survivors_agree_ms=" + (agreed == null ? "never" : Long.toString(agreed - stop)),
                "new_master=" + newMaster,
                "whole_after_cont_ms=" + (whole == null ? "never" : Long.toString(whole - cont)),
                "target_met=" + (met ? "y" : "n"));
    }

    /**
     * The first status time in [from, to] of any of {@code members} at which every one's latest
     * status (none older than 1 s) passes {@code test}, or null.
     */
    private static Long firstWhen(Map<String, List<Status>> byMember, List<String> members, long from, long to,
            java.util.function.Predicate<List<Status>> test) {
        List<Long> times = members.stream().flatMap(m -> byMember.get(m).stream()).map(Status::at)
                .filter(t -> t >= from && t <= to).sorted().toList();
        for (long t : times) {
            List<Status> views = new ArrayList<>();
            for (String m : members) {
                Status st = last(byMember.get(m), t);
                if (st == null || t - st.at() > 1000) {
                    views = null;
                    break;
                }
                views.add(st);
            }
            if (views != null && test.test(views)) {
                return t;
            }
        }
        return null;
    }

    private static Status last(List<Status> statuses, long at) {
        Status found = null;
        for (Status st : statuses) {
            if (st.at() <= at) {
                found = st;
            }
        }
        return found;
    }

    private static List<Status> read(Path file) {
        try {
            List<Status> statuses = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] parts = line.trim().split(" ");
                if (parts.length == 3) {
                    statuses.add(new Status(Long.parseLong(parts[0]), Arrays.asList(parts[2].split(","))));
                }
            }
            return statuses;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
