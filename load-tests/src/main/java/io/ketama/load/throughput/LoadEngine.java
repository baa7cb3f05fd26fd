package io.ketama.load.throughput;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A load generator on one thread: non-blocking keep-alive HTTP/1.1 connections to a few targets on
 * loopback, one request in flight per connection, {@code GET <prefix><random key>}. Requests are
 * dealt to the targets in turn, as a round-robin balancer in front of them would. A connection
 * lost or timed out is replaced; its request counts as failed, never retried.
 *
 * <p>In an open phase a request that finds no free connection waits, and its latency still counts
 * from its intended time; with enough connections that wait is zero while the server keeps up
 * ({@code lag_p99} in the output says whether it did). Free connections are reused last-in first-out,
 * so a light load keeps few of them busy and the rest idle.
 */
final class LoadEngine implements AutoCloseable {

    private static final long RECONNECT_DELAY_NANOS = 20_000_000L;

    private final Selector selector;
    private final List<InetSocketAddress> targets;
    private final byte[][] requestHeads;
    private final byte[] requestTail = " HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
    private final byte[][] hostLines;
    private final String prefix;
    private final int keys;
    private final long timeoutNanos;
    private final SplittableRandom random;
    private final ProcCpu setupCpu;
    private final ProcCpu ownCpu;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(256 * 1024);

    private final List<Connection> connections = new ArrayList<>();
    private final List<ArrayDeque<Connection>> idle = new ArrayList<>();
    private final List<LongQueue> backlog = new ArrayList<>();
    private final int[] inFlight;
    private final List<Connection> broken = new ArrayList<>();
    private long connectFailures;

    // the phase under way
    private Phase phase;
    private long phaseStart;
    private long phaseEnd;
    private long issued;
    private int[] closedSlots;
    private long ok;
    private long okInPhase;
    private long socketErrors;
    private long timeouts;
    private Map<Integer, Long> statuses;
    private Latencies okLatencies;
    private Latencies allLatencies;
    private Latencies sendLag;

    /**
     * @param targets                 host:port of each target (loopback)
     * @param connectionsPerTarget    keep-alive connections opened to each
     * @param prefix                  request path before the key, e.g. {@code /cache/k/}
     * @param keys                    keys are {@code 0 .. keys-1}, drawn uniformly
     * @param timeout                 deadline of a request from its intended time
     * @param seed                    random seed of the key sequence
     * @param setupCpu                CPU meter of the processes under test
     * @param ownCpu                  CPU meter of this generator
     */
    LoadEngine(List<InetSocketAddress> targets, int connectionsPerTarget, String prefix, int keys, Duration timeout,
               long seed, ProcCpu setupCpu, ProcCpu ownCpu) throws IOException {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("at least one target is needed");
        }
        for (InetSocketAddress t : targets) {
            if (!t.getAddress().isLoopbackAddress()) {
                throw new IllegalArgumentException("target " + t + " is not a loopback address: only 127.0.0.0/8 and ::1 are allowed");
            }
        }
        if (connectionsPerTarget < 1 || keys < 1) {
            throw new IllegalArgumentException("connections per target and keys must be >= 1");
        }
        this.selector = Selector.open();
        this.targets = List.copyOf(targets);
        this.prefix = prefix;
        this.keys = keys;
        this.timeoutNanos = timeout.toNanos();
        this.random = new SplittableRandom(seed);
        this.setupCpu = setupCpu;
        this.ownCpu = ownCpu;
        this.requestHeads = new byte[targets.size()][];
        this.hostLines = new byte[targets.size()][];
        this.inFlight = new int[targets.size()];
        for (int t = 0; t < targets.size(); t++) {
            InetSocketAddress a = targets.get(t);
            requestHeads[t] = ("GET " + prefix).getBytes(StandardCharsets.US_ASCII);
            hostLines[t] = ("Host: " + a.getHostString() + ":" + a.getPort() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            idle.add(new ArrayDeque<>());
            backlog.add(new LongQueue());
            for (int c = 0; c < connectionsPerTarget; c++) {
                Connection connection = new Connection(t);
                connections.add(connection);
                connect(connection);
            }
        }
    }

    /** Waits (bounded) until every connection is open; fails when none could be opened. */
    void awaitConnected(Duration limit) throws IOException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            int open = 0;
            for (ArrayDeque<Connection> q : idle) {
                open += q.size();
            }
            if (open == connections.size()) {
                return;
            }
            reconnectDue(System.nanoTime());
            selector.select(10);
            handleReady(System.nanoTime());
        }
        throw new IOException("not every connection to " + targets + " opened within " + limit.toSeconds()
                + " s (" + connectFailures + " failed attempts)");
    }

    /** Runs one phase to its end, then until every request is answered or past its deadline. */
    PhaseResult run(Phase phase) throws IOException {
        this.phase = phase;
        ok = okInPhase = socketErrors = timeouts = issued = 0;
        statuses = new HashMap<>();
        okLatencies = new Latencies();
        allLatencies = new Latencies();
        sendLag = new Latencies();
        long cpu0 = setupCpu.nanos();
        long own0 = ownCpu.nanos();
        phaseStart = System.nanoTime();
        phaseEnd = phaseStart + phase.length().toNanos();
        closedSlots = phase.isOpen() ? null : spread(phase.concurrency(), targets.size());
        long lastTimeoutScan = phaseStart;
        while (true) {
            long now = System.nanoTime();
            boolean issuing = now < phaseEnd;
            if (issuing && phase.isOpen()) {
                long intended;
                while ((intended = phase.intendedNanos(phaseStart, issued)) <= now && intended < phaseEnd) {
                    backlog.get((int) (issued % targets.size())).add(intended);
                    issued++;
                }
            }
            if (now - lastTimeoutScan > 5_000_000L) {
                expire(now);
                lastTimeoutScan = now;
            }
            reconnectDue(now);
            dispatch(now, issuing);
            if (!issuing && drained()) {
                break;
            }
            long waitNanos;
            if (issuing && phase.isOpen()) {
                waitNanos = phase.intendedNanos(phaseStart, issued) - System.nanoTime();
            } else {
                waitNanos = 5_000_000L;
            }
            if (waitNanos <= 0) {
                selector.selectNow();
            } else {
                selector.select(Math.max(1, waitNanos / 1_000_000L));
            }
            handleReady(System.nanoTime());
        }
        double seconds = phase.length().toNanos() / 1e9;
        long cpu = setupCpu.nanos() - cpu0;
        long own = ownCpu.nanos() - own0;
        return new PhaseResult(phase, seconds, issued, ok, okInPhase, statuses, socketErrors, timeouts, okLatencies, allLatencies,
                sendLag, cpu, own);
    }

    private boolean drained() {
        for (int t = 0; t < targets.size(); t++) {
            if (inFlight[t] > 0 || !backlog.get(t).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** {@code total} slots over {@code n} targets, the remainder to the first ones. */
    static int[] spread(int total, int n) {
        int[] slots = new int[n];
        for (int i = 0; i < n; i++) {
            slots[i] = total / n + (i < total % n ? 1 : 0);
        }
        return slots;
    }

    private void dispatch(long now, boolean issuing) throws IOException {
        for (int t = 0; t < targets.size(); t++) {
            ArrayDeque<Connection> free = idle.get(t);
            if (phase.isOpen()) {
                LongQueue waiting = backlog.get(t);
                while (!waiting.isEmpty() && !free.isEmpty()) {
                    send(free.poll(), waiting.poll(), now);
                }
            } else if (issuing) {
                while (inFlight[t] < closedSlots[t] && !free.isEmpty()) {
                    issued++;
                    send(free.poll(), now, now);
                }
            }
        }
    }

    private void send(Connection c, long intended, long now) throws IOException {
        c.intended = intended;
        c.busy = true;
        inFlight[c.target]++;
        sendLag.add(now - intended);
        c.parser.reset();
        String key = Integer.toString(random.nextInt(keys));
        byte[] head = requestHeads[c.target];
        byte[] host = hostLines[c.target];
        ByteBuffer out = ByteBuffer.allocate(head.length + key.length() + requestTail.length + host.length);
        out.put(head).put(key.getBytes(StandardCharsets.US_ASCII)).put(requestTail).put(host).flip();
        try {
            c.channel.write(out);
        } catch (IOException e) {
            fail(c, now);
            return;
        }
        if (out.hasRemaining()) {
            c.pendingOut = out;
            c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private void handleReady(long now) {
        for (SelectionKey key : selector.selectedKeys()) {
            Connection c = (Connection) key.attachment();
            try {
                if (!key.isValid()) {
                    continue;
                }
                if (key.isConnectable()) {
                    if (c.channel.finishConnect()) {
                        key.interestOps(SelectionKey.OP_READ);
                        idle.get(c.target).push(c);
                    }
                    continue;
                }
                if (key.isWritable() && c.pendingOut != null) {
                    c.channel.write(c.pendingOut);
                    if (!c.pendingOut.hasRemaining()) {
                        c.pendingOut = null;
                        key.interestOps(SelectionKey.OP_READ);
                    }
                }
                if (key.isReadable()) {
                    read(c, now);
                }
            } catch (IOException | RuntimeException e) {
                if (c.connecting()) {
                    connectFailures++;
                }
                fail(c, now);
            }
        }
        selector.selectedKeys().clear();
    }

    private void read(Connection c, long now) throws IOException {
        while (true) {
            readBuffer.clear();
            int n = c.channel.read(readBuffer);
            if (n < 0) {
                if (c.busy && c.parser.endOfStream()) {
                    complete(c, now);
                }
                fail(c, now);
                return;
            }
            if (n == 0) {
                return;
            }
            readBuffer.flip();
            if (!c.busy) {
                throw new IOException("bytes from " + targets.get(c.target) + " with no request outstanding");
            }
            if (c.parser.feed(readBuffer)) {
                if (readBuffer.hasRemaining()) {
                    throw new IOException("bytes after the answer from " + targets.get(c.target));
                }
                boolean closes = c.parser.closes();
                complete(c, now);
                if (closes) {
                    fail(c, now);
                } else {
                    idle.get(c.target).push(c);
                }
                return;
            }
        }
    }

    private void complete(Connection c, long now) {
        int status = c.parser.status();
        long latency = now - c.intended;
        if (latency > timeoutNanos) {
            // past its deadline the client has given up on it, whether or not this loop got round to
            // noticing in time (a starved generator thread must not turn late answers into answers)
            c.busy = false;
            inFlight[c.target]--;
            timeouts++;
            return;
        }
        statuses.merge(status, 1L, Long::sum);
        allLatencies.add(latency);
        if (status / 100 == 2) {
            ok++;
            if (now < phaseEnd) {
                okInPhase++;
            }
            okLatencies.add(latency);
        }
        c.busy = false;
        inFlight[c.target]--;
    }

    /** Drops a connection (counting the request it carried as lost) and schedules a fresh one. */
    private void fail(Connection c, long now) {
        if (c.busy) {
            socketErrors++;
            c.busy = false;
            inFlight[c.target]--;
        }
        idle.get(c.target).remove(c);
        closeQuietly(c);
        c.reconnectAt = now + RECONNECT_DELAY_NANOS;
        if (!broken.contains(c)) {
            broken.add(c);
        }
    }

    private void reconnectDue(long now) {
        for (int i = broken.size() - 1; i >= 0; i--) {
            Connection c = broken.get(i);
            if (now >= c.reconnectAt) {
                broken.remove(i);
                connect(c);
            }
        }
    }

    private void connect(Connection c) {
        c.pendingOut = null;
        try {
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.channel = channel;
            if (channel.connect(targets.get(c.target))) {
                c.key = channel.register(selector, SelectionKey.OP_READ, c);
                idle.get(c.target).push(c);
            } else {
                c.key = channel.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException e) {
            connectFailures++;
            closeQuietly(c);
            c.reconnectAt = System.nanoTime() + RECONNECT_DELAY_NANOS;
            broken.add(c);
        }
    }

    /** Requests past their deadline: in flight (the connection is dropped) or still waiting for one. */
    private void expire(long now) {
        for (Connection c : connections) {
            if (c.busy && now - c.intended > timeoutNanos) {
                c.busy = false;
                inFlight[c.target]--;
                timeouts++;
                fail(c, now);
            }
        }
        for (LongQueue waiting : backlog) {
            while (!waiting.isEmpty() && now - waiting.peek() > timeoutNanos) {
                waiting.poll();
                timeouts++;
            }
        }
    }

    private static void closeQuietly(Connection c) {
        if (c.key != null) {
            c.key.cancel();
        }
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing a socket we give up on: nothing left to do
            }
        }
    }

    long connectFailures() {
        return connectFailures;
    }

    @Override
    public void close() throws IOException {
        for (Connection c : connections) {
            closeQuietly(c);
        }
        selector.close();
    }

    private static final class Connection {
        final int target;
        final ResponseParser parser = new ResponseParser();
        SocketChannel channel;
        SelectionKey key;
        ByteBuffer pendingOut;
        boolean busy;
        long intended;
        long reconnectAt;

        Connection(int target) {
            this.target = target;
        }

        boolean connecting() {
            return key != null && key.isValid() && (key.interestOps() & SelectionKey.OP_CONNECT) != 0;
        }
    }

    /** A FIFO of primitive longs (intended send times), growing as needed. */
    static final class LongQueue {
        private long[] items = new long[1024];
        private int head;
        private int size;

        void add(long v) {
            if (size == items.length) {
                long[] bigger = new long[items.length * 2];
                for (int i = 0; i < size; i++) {
                    bigger[i] = items[(head + i) % items.length];
                }
                items = bigger;
                head = 0;
            }
            items[(head + size) % items.length] = v;
            size++;
        }

        long peek() {
            if (size == 0) {
                throw new IllegalStateException("empty");
            }
            return items[head];
        }

        long poll() {
            long v = peek();
            head = (head + 1) % items.length;
            size--;
            return v;
        }

        boolean isEmpty() {
            return size == 0;
        }
    }
}
