package io.ketama.testing;

import java.net.BindException;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * The Hazelcast ports of one test cluster's members, chosen at run time by {@link FreePorts}:
 * member {@code i} listens on {@link #port port(i)}, every member joins {@link #all()} by TCP-IP.
 * A member is started through {@link #bind}, which gives it a new port and tries again if another
 * process took its port since it was chosen. Thread-safe.
 */
public final class MemberPorts {

    /** Tries per member: a port lost twice in a row to other processes says something else is wrong. */
    static final int TRIES = 3;

    private final String key;

    private MemberPorts(String key) {
        this.key = key;
    }

    /**
     * Ports for {@code count} members, the same for every call with {@code name} in this JVM, from
     * any class loader: for a test class that a {@code QuarkusUnitTest} initializes twice (the
     * application's configuration is made in one copy, the test runs in the other). Use a name
     * that is the test class's own, such as its cluster name.
     */
    public static MemberPorts shared(String name, int count) {
        FreePorts.shared(name, count);
        return new MemberPorts(name);
    }

    /** Ports for {@code count} members, new ones on every call. */
    public static MemberPorts fresh(int count) {
        String key = "fresh-" + UUID.randomUUID();
        FreePorts.shared(key, count);
        return new MemberPorts(key);
    }

    /** Member {@code member}'s port (from 0). */
    public int port(int member) {
        List<Integer> ports = all();
        if (member < 0 || member >= ports.size()) {
            throw new IllegalArgumentException("member index from 0 to " + (ports.size() - 1) + ", was " + member
                    + " (an index into this cluster's ports, which are chosen at run time; not a port)");
        }
        return ports.get(member);
    }

    /** Every member's port, in member order: the TCP-IP member list. */
    public List<Integer> all() {
        return FreePorts.current(key);
    }

    public int size() {
        return all().size();
    }

    /**
     * Starts member {@code member} with {@code start}, given its port. Where the start fails
     * because the port is bound already (another process took it since it was chosen: Hazelcast
     * says "Port [n] is already in use"), the member gets a new port and {@code start} runs again,
     * at most {@value #TRIES} times in all. {@code start} makes the member's configuration when it
     * is called, reading {@link #all()} then, so a member joins the others at their current ports.
     */
    public <T> T bind(int member, IntFunction<T> start) {
        int port = port(member);
        for (int attempt = 1; ; attempt++) {
            try {
                return start.apply(port);
            } catch (RuntimeException e) {
                if (attempt == TRIES || !isBindFailure(e)) {
                    throw e;
                }
                port = FreePorts.replace(key, member);
            }
        }
    }

    /** Whether {@code failure} says a port could not be bound because something else holds it. */
    static boolean isBindFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (t instanceof BindException || message.contains("already in use") || message.contains("Cannot bind")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return all().toString();
    }
}
