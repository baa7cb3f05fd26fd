package io.ketama.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * Ports on 127.0.0.1 for what tests bind (Hazelcast members, HTTP servers), chosen at run time so
 * that concurrent test runs on one machine (parallel CI jobs, several checkouts) do not fight over
 * them. A port is handed out only if it can be bound now; the ports come from a cursor that each
 * JVM starts at a random point of {@value #LOWEST}..{@value #HIGHEST} and moves only forward, so a
 * JVM never hands out a port twice and two JVMs rarely even look at the same ports. The range lies
 * below the ephemeral ports that Linux (32768 and up), macOS and Windows (49152 and up) give to
 * outgoing connections, so no connection of this machine takes a port between its check and its
 * use.
 *
 * <p>What remains is a window: another process may bind a port after it was checked and before
 * the test binds it. Starting a member through {@link MemberPorts#bind} closes that window with a
 * new port and another try.
 *
 * <p>The cursor and {@linkplain #shared shared} answers live in system properties: every class
 * loader of the JVM sees them (a {@code QuarkusUnitTest} loads the test class, and this class,
 * again in the application's class loader, and both copies must agree on the ports).
 */
public final class FreePorts {

    /** The lowest port handed out. */
    public static final int LOWEST = 10_000;
    /** The highest port handed out: just below Linux's default ephemeral range (32768-60999). */
    public static final int HIGHEST = 32_767;

    private static final String PREFIX = "io.ketama.testing.ports.";
    private static final String CURSOR = PREFIX + "cursor";
    private static final int SPAN = HIGHEST - LOWEST + 1;

    private FreePorts() {
    }

    /** {@code count} consecutive ports that are free now and that this JVM has not handed out before. */
    public static List<Integer> take(int count) {
        if (count < 1 || count > 100) {
            throw new IllegalArgumentException("ports to take: 1 to 100, was " + count);
        }
        synchronized (lock()) {
            return run(count);
        }
    }

    /** One port, as {@link #take}. */
    public static int take() {
        return take(1).get(0);
    }

    /**
     * The ports under {@code key} in this JVM: {@code count} ports {@linkplain #take taken} by the
     * first call, and the same ports for every later call with that key, from any class loader.
     */
    public static List<Integer> shared(String key, int count) {
        synchronized (lock()) {
            String known = System.getProperty(PREFIX + key);
            if (known != null) {
                List<Integer> ports = parse(known);
                if (ports.size() != count) {
                    throw new IllegalArgumentException("ports '" + key + "' were taken as " + ports.size() + " ports, asked for " + count);
                }
                return ports;
            }
            List<Integer> ports = take(count);
            System.setProperty(PREFIX + key, format(ports));
            return ports;
        }
    }

    /** The ports under {@code key} as they are now (see {@link #shared}, {@link #replace}). */
    static List<Integer> current(String key) {
        String known = System.getProperty(PREFIX + key);
        if (known == null) {
            throw new IllegalStateException("no ports under '" + key + "'");
        }
        return parse(known);
    }

    /** Replaces the port at {@code index} under {@code key} by a newly taken one, for every class loader; returns it. */
    static int replace(String key, int index) {
        synchronized (lock()) {
            List<Integer> ports = new ArrayList<>(current(key));
            int port = take();
            ports.set(index, port);
            System.setProperty(PREFIX + key, format(ports));
            return port;
        }
    }

    /** Whether {@code port} on 127.0.0.1 can be bound right now (no one listens on it or holds it). */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false); // a port still held by a closing connection counts as taken
            socket.bind(new InetSocketAddress(InetAddress.getByName(LoopbackHazelcast.HOST), port), 1);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** The next {@code count} consecutive free ports from the cursor (no run wraps around the range). */
    private static List<Integer> run(int count) {
        int port = cursor();
        List<Integer> run = new ArrayList<>(count);
        for (int looked = 0; looked < SPAN + count; looked++, port++) {
            if (port > HIGHEST) {
                port = LOWEST;
                run.clear();
            }
            if (!isFree(port)) {
                run.clear();
                continue;
            }
            run.add(port);
            if (run.size() == count) {
                System.setProperty(CURSOR, Integer.toString(port == HIGHEST ? LOWEST : port + 1));
                return List.copyOf(run);
            }
        }
        throw new IllegalStateException("no " + count + " consecutive free ports on 127.0.0.1 in " + LOWEST + ".." + HIGHEST);
    }

    private static int cursor() {
        String cursor = System.getProperty(CURSOR);
        return cursor != null ? Integer.parseInt(cursor) : LOWEST + ThreadLocalRandom.current().nextInt(SPAN);
    }

    /** One monitor for every class loader of the JVM. */
    private static Object lock() {
        return System.getProperties();
    }

    private static List<Integer> parse(String ports) {
        return Arrays.stream(ports.split(",")).map(Integer::valueOf).toList();
    }

    private static String format(List<Integer> ports) {
        return ports.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
