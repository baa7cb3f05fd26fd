package io.ketama.router.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One member: a JVM of the packaged service ({@code java -jar quarkus-run.jar}, prod profile), its
 * output in a log file. Its HTTP and management ports are read from the start-up line Quarkus
 * logs; {@code reachHost} is the address the test reaches them on (127.0.0.1, or the member's
 * address in its namespace when it listens on every address there).
 */
final class JarMember {

    static final Path JAR = Path.of(System.getProperty("ketama.app.jar", "target/quarkus-app/quarkus-run.jar"));
    static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final Pattern STARTED = Pattern.compile(
            "started in .*Listening on: http://[^:/]+:(\\d+)\\. Management interface listening on http://[^:/]+:(\\d+)");

    private final int index;
    private final String clusterAddress;
    private final String reachHost;
    private final Process process;
    private final Path log;
    private volatile int httpPort;
    private volatile int managementPort;

    private JarMember(int index, String clusterAddress, String reachHost, Process process, Path log) {
        this.index = index;
        this.clusterAddress = clusterAddress;
        this.reachHost = reachHost;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts member {@code index}: {@code launcher} runs before java (e.g. {@code ip netns exec ns}),
     * {@code options} are its {@code -D} options, {@code token} its admin token (in the environment).
     */
    static JarMember start(int index, String clusterAddress, String reachHost, List<String> launcher, List<String> options, Path log,
            String token) {
        List<String> command = new ArrayList<>(launcher);
        command.add(JAVA.toString());
        command.addAll(List.of("-Xmx192m", "-XX:+UseSerialGC"));
        command.addAll(options);
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("QUARKUS_KETAMA_ADMIN_TOKEN", token);
        try {
            return new JarMember(index, clusterAddress, reachHost, builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start member " + index + ": " + command, e);
        }
    }

    /**
     * Starts {@code count} members on 127.0.0.1 one after another (three JVMs starting at once on two
     * cores miss heartbeats), each waited for, joined into a cluster of their own by an explicit
     * member list, with the fault tests' Hazelcast settings ({@link PauseIT#faultSettings}: the
     * learned quorum, 2 of the 3 these tests start) and {@code extra} options; each is added to
     * {@code started} as it starts, for the test's clean-up. Logs under {@code target/<name>/}.
     */
    static List<JarMember> startLoopback(String name, int count, List<String> extra, String token, List<JarMember> started)
            throws IOException, InterruptedException {
        return startLoopback(name, java.util.Collections.nCopies(count, 0), extra, token, started);
    }

    /**
     * {@link #startLoopback(String, int, List, String, List)} with member i's HTTP port {@code httpPorts.get(i)}
     * (0: any free port, which the member then cannot publish as its {@code ketama-router.http-port}).
     */
    static List<JarMember> startLoopback(String name, List<Integer> httpPorts, List<String> extra, String token, List<JarMember> started)
            throws IOException, InterruptedException {
        Path logs = Files.createDirectories(Path.of("target", name));
        List<Integer> ports = io.ketama.testing.FreePorts.take(httpPorts.size());
        String cluster = "ketama-" + name + "-" + java.util.UUID.randomUUID();
        List<JarMember> members = new ArrayList<>();
        for (int i = 0; i < httpPorts.size(); i++) {
            List<String> options = new ArrayList<>(loopbackOptions(cluster, ports, i, httpPorts.get(i)));
            options.addAll(extra);
            options.addAll(PauseIT.faultSettings());
            JarMember m = start(i, "127.0.0.1:" + ports.get(i), "127.0.0.1", List.of(), options, logs.resolve("member-" + i + ".log"),
                    token);
            started.add(m);
            m.awaitStarted(Duration.ofSeconds(180));
            members.add(m);
        }
        return members;
    }

    /**
     * The options that put member {@code index} of cluster {@code cluster} on 127.0.0.1: Hazelcast on
     * {@code hazelcastPorts.get(index)} joining every port of the list, HTTP on {@code httpPort} (0: any),
     * management on any port.
     */
    static List<String> loopbackOptions(String cluster, List<Integer> hazelcastPorts, int index, int httpPort) {
        String list = String.join(",", hazelcastPorts.stream().map(p -> "127.0.0.1:" + p).toList());
        return List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + httpPort,
                "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=0",
                "-Dquarkus.ketama.hazelcast.cluster-name=" + cluster, "-Dquarkus.ketama.hazelcast.interface=127.0.0.1",
                "-Dquarkus.ketama.hazelcast.port=" + hazelcastPorts.get(index), "-Dquarkus.ketama.hazelcast.port-auto-increment=false",
                "-Dquarkus.ketama.hazelcast.members=" + list);
    }

    /** Waits until the member logged that it started; fails if it exited or failed first. */
    void awaitStarted(Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!started()) {
            if (!process.isAlive() || logText().contains("Failed to start application")) {
                throw new AssertionError(name() + " did not start; log " + log + ":\n" + tail(30));
            }
            if (System.nanoTime() > end) {
                throw new AssertionError(name() + " did not start within " + deadline + "; log " + log);
            }
            Thread.sleep(200);
        }
    }

    private boolean started() {
        if (managementPort != 0) {
            return true;
        }
        Matcher m = STARTED.matcher(logText());
        if (m.find()) {
            httpPort = Integer.parseInt(m.group(1));
            managementPort = Integer.parseInt(m.group(2));
        }
        return managementPort != 0;
    }

    String logText() {
        try {
            return Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    String tail(int lines) {
        List<String> all = logText().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** Sends {@code signal} (STOP, CONT, KILL) to the member's process. */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).redirectErrorStream(true).start();
        String out = new String(kill.getInputStream().readAllBytes());
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed: " + out);
        }
    }

    void stop() {
        try {
            signal("CONT"); // a stopped process acts on nothing else
        } catch (IOException | InterruptedException | AssertionError e) {
            // already gone
        }
        process.destroyForcibly();
    }

    String http() {
        return "http://" + reachHost + ":" + httpPort;
    }

    String management() {
        return "http://" + reachHost + ":" + managementPort;
    }

    int index() {
        return index;
    }

    String clusterAddress() {
        return clusterAddress;
    }

    Process process() {
        return process;
    }

    Path log() {
        return log;
    }

    String name() {
        return "member " + index + " (" + clusterAddress + ")";
    }
}
