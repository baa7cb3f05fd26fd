package io.ketama.router.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Network namespaces a test makes and removes, with {@code ip} (iproute2): a hub namespace holding
 * two bridges (a cluster network and a client network), and namespaces attached to them by veth
 * pairs. Nothing is added to the root namespace's network. Names start with a prefix unique to
 * the test JVM, so concurrent runs do not meet.
 */
final class Namespaces implements AutoCloseable {

    private final String prefix;
    private final List<String> made = new ArrayList<>();

    Namespaces(String prefix) {
        this.prefix = prefix;
    }

    /**
     * Why namespaces cannot be used here, or null when they can: the test must run as root on
     * Linux with {@code ip netns}, which it finds out by making and removing one.
     */
    static String unavailable() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return "network namespaces are Linux only";
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return "network namespaces need root (the test runs as " + System.getProperty("user.name") + ")";
        }
        String probe = "ketama-probe-" + ProcessHandle.current().pid();
        try {
            String out = run("ip", "netns", "add", probe);
            run("ip", "netns", "del", probe);
            return out == null ? null : "'ip netns add' failed: " + out;
        } catch (IOException e) {
            return "no 'ip' command (iproute2): " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    String name(String suffix) {
        return prefix + "-" + suffix;
    }

    /** Makes the hub with bridges {@code brc} (cluster) and {@code brl} (clients). */
    void hub() throws IOException, InterruptedException {
        String hub = add("hub");
        must("ip", "-n", hub, "link", "set", "lo", "up");
        for (String br : List.of("brc", "brl")) {
            must("ip", "-n", hub, "link", "add", br, "type", "bridge");
            must("ip", "-n", hub, "link", "set", br, "up");
        }
    }

    /** Makes namespace {@code suffix}, its loopback up. */
    String add(String suffix) throws IOException, InterruptedException {
        String ns = name(suffix);
        must("ip", "netns", "add", ns);
        made.add(ns);
        must("ip", "-n", ns, "link", "set", "lo", "up");
        return ns;
    }

    /**
     * Attaches namespace {@code ns} to {@code bridge} in the hub: interface {@code inside} there with
     * {@code address}/24, its peer {@code hubSide} in the hub.
     */
    void attach(String ns, String hubSide, String inside, String bridge, String address) throws IOException, InterruptedException {
        String hub = name("hub");
        must("ip", "-n", hub, "link", "add", hubSide, "type", "veth", "peer", "name", inside, "netns", ns);
        must("ip", "-n", hub, "link", "set", hubSide, "master", bridge, "up");
        must("ip", "-n", ns, "addr", "add", address + "/24", "dev", inside);
        must("ip", "-n", ns, "link", "set", inside, "up");
    }

    /** Sets the hub side of a veth pair down (the namespace behind it is cut off that bridge) or up again. */
    void link(String hubSide, boolean up) throws IOException, InterruptedException {
        must("ip", "-n", name("hub"), "link", "set", hubSide, up ? "up" : "down");
    }

    /** The command line prefix that runs a program in {@code ns}. */
    List<String> exec(String ns) {
        return List.of("ip", "netns", "exec", ns);
    }

    @Override
    public void close() {
        for (String ns : made) {
            try {
                run("ip", "netns", "del", ns);
            } catch (IOException | InterruptedException e) {
                // best effort: the next run uses other names
            }
        }
    }

    private static void must(String... command) throws IOException, InterruptedException {
        String failure = run(command);
        if (failure != null) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + failure);
        }
    }

    /** Runs a command; null when it succeeded, else its output. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.waitFor() == 0 ? null : "exit " + p.exitValue() + ": " + out;
    }
}
