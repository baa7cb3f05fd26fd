package io.ketama.load.skew;

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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Open-loop HTTP/1.1 load on one thread: request {@code i} is due at {@code start + i / rate},
 * whatever the answers before it did (a slow server does not slow the schedule), goes to target
 * {@code i mod targets} (every target takes the same share, as clients spread over every member
 * alike), asks {@code GET <prefix><rank>} with the rank drawn from the phase's {@link KeyMix}, and
 * its latency counts from when it was due (queueing behind a busy connection is measured).
 *
 * <p>Keep-alive connections, one request in flight on each; a request that finds every connection
 * of its target busy opens another, up to a limit, else waits its turn. A request unanswered
 * {@code timeout} after it was due is a timeout and its connection is dropped; a connection that
 * fails fails its request (no retry: the client counts what the cluster did) and is reopened after
 * a short pause. Only loopback targets are taken.
 *
 * <p>A phase is a warm-up, then the measured interval, one schedule without a gap: a request belongs
 * to the interval it was due in. {@link Hooks#measureStarted} runs as the first measured request is
 * due, {@link Hooks#measureEnded} once every measured request is answered or failed.
 */
final class PacedLoad implements AutoCloseable {

    /** What the caller does at the measured interval's edges (read CPU meters, counters). */
    interface Hooks {
        void measureStarted();

        void measureEnded();
    }

    private static final long RECONNECT_PAUSE_NANOS = 50_000_000L;

    private final Selector selector = Selector.open();
    private final List<InetSocketAddress> targets;
    private final byte[][] hosts;
    private final byte[] prefix;
    private final int keys;
    private final KeyMix mix;
    private final Zipf law;
    private final SplittableRandom random;
    private final double rate;
    private final long timeoutNanos;
    private final int maxConnections;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(256 * 1024);

    private final List<List<Connection>> open = new ArrayList<>();
    private final List<ArrayDeque<Connection>> idle = new ArrayList<>();
    private final List<ArrayDeque<Pending>> waiting = new ArrayList<>();
    private final List<Connection> all = new ArrayList<>();

    private record Pending(long intendedNanos, int rank, Tally tally) {
    }

    private final class Connection {
        final int target;
        final ReplyParser parser = new ReplyParser();
        SocketChannel channel;
        SelectionKey key;
        boolean connected;
        long reopenAt;
        Pending request;
        ByteBuffer out;

        Connection(int target) {
            this.target = target;
        }
    }

    /**
     * @param targets        host:port of each entry (loopback only)
     * @param prefix         the request path before the rank, e.g. {@code /cache/s/}
     * @param keys           ranks are {@code 0 .. keys-1}
     * @param mix            how ranks are drawn
     * @param rate           requests a second, all targets together
     * @param timeout        deadline of a request after it was due
     * @param seed           the key sequence's seed (the same seed asks the same keys in the same order)
     * @param maxConnections most connections open to one target
     */
    PacedLoad(List<InetSocketAddress> targets, String prefix, int keys, KeyMix mix, double rate, Duration timeout, long seed,
              int maxConnections) throws IOException {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("at least one target is needed");
        }
        for (InetSocketAddress t : targets) {
            if (t.getAddress() == null || !t.getAddress().isLoopbackAddress()) {
                throw new IllegalArgumentException("target " + t + " is not a loopback address: only 127.0.0.0/8 and ::1 are allowed");
            }
        }
        if (keys < 1 || !(rate > 0) || maxConnections < 1) {
            throw new IllegalArgumentException("keys, rate and connections must be positive (were " + keys + ", " + rate + ", "
                    + maxConnections + ")");
        }
        this.targets = List.copyOf(targets);
        this.prefix = prefix.getBytes(StandardCharsets.US_ASCII);
        this.keys = keys;
        this.mix = mix;
        this.law = mix.sequential() ? null : mix.law(keys);
        this.random = new SplittableRandom(seed);
        this.rate = rate;
        this.timeoutNanos = timeout.toNanos();
        this.maxConnections = maxConnections;
        this.hosts = new byte[targets.size()][];
        for (int t = 0; t < targets.size(); t++) {
            InetSocketAddress a = targets.get(t);
            hosts[t] = (" HTTP/1.1\r\nHost: " + a.getAddress().getHostAddress() + ":" + a.getPort() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            open.add(new ArrayList<>());
            idle.add(new ArrayDeque<>());
            waiting.add(new ArrayDeque<>());
        }
    }

    /**
     * Runs one phase: {@code warmup} then {@code measured} at the rate, then until every request is
     * answered or past its deadline.
     *
     * @param warmTally    counts the warm-up's requests
     * @param measureTally counts the measured interval's
     */
    void run(Duration warmup, Duration measured, Tally warmTally, Tally measureTally, Hooks hooks) throws IOException {
        long warmCount = Math.round(rate * warmup.toNanos() / 1e9);
        long total = warmCount + Math.round(rate * measured.toNanos() / 1e9);
        double intervalNanos = 1e9 / rate;
        long start = System.nanoTime();
        long issued = 0;
        boolean started = false;
        if (warmCount == 0) {
            hooks.measureStarted();
            started = true;
        }
        long lastExpiry = start;
        while (true) {
            long now = System.nanoTime();
            long due;
            while (issued < total && (due = start + (long) (issued * intervalNanos)) <= now) {
                if (issued == warmCount && !started) {
                    hooks.measureStarted();
                    started = true;
                }
                int target = (int) (issued % targets.size());
                waiting.get(target).add(new Pending(due, nextRank(issued), issued < warmCount ? warmTally : measureTally));
                issued++;
            }
            dispatch(now);
            if (now - lastExpiry >= 5_000_000L) {
                expire(now);
                lastExpiry = now;
            }
            if (issued == total && drained()) {
                break;
            }
            long waitNanos = issued < total ? start + (long) (issued * intervalNanos) - System.nanoTime() : 5_000_000L;
            if (waitNanos <= 0) {
                selector.selectNow();
            } else {
                selector.select(Math.max(1, Math.min(5, waitNanos / 1_000_000L)));
            }
            handleReady(System.nanoTime());
        }
        if (!started) {
            hooks.measureStarted();
        }
        hooks.measureEnded();
    }

    private int nextRank(long i) {
        return law == null ? (int) (i % keys) : law.next(random);
    }

    private boolean drained() {
        for (int t = 0; t < targets.size(); t++) {
            if (!waiting.get(t).isEmpty()) {
                return false;
            }
        }
        for (Connection c : all) {
            if (c.request != null) {
                return false;
            }
        }
        return true;
    }

    private void dispatch(long now) throws IOException {
        for (int t = 0; t < targets.size(); t++) {
            ArrayDeque<Pending> queue = waiting.get(t);
            while (!queue.isEmpty()) {
                Connection c = idle.get(t).pollLast();
                if (c == null) {
                    if (open.get(t).size() < maxConnections) {
                        openConnection(t, now);
                    }
                    reopenDue(t, now);
                    break;
                }
                send(c, queue.poll());
            }
        }
    }

    private void openConnection(int target, long now) throws IOException {
        Connection c = new Connection(target);
        open.get(target).add(c);
        all.add(c);
        connect(c, now);
    }

    private void connect(Connection c, long now) throws IOException {
        c.connected = false;
        c.reopenAt = 0;
        c.channel = SocketChannel.open();
        c.channel.configureBlocking(false);
        c.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        try {
            if (c.channel.connect(targets.get(c.target))) {
                c.key = c.channel.register(selector, SelectionKey.OP_READ, c);
                becameIdle(c);
            } else {
                c.key = c.channel.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException e) {
            broken(c, now);
        }
    }

    private void reopenDue(int target, long now) throws IOException {
        for (Connection c : open.get(target)) {
            if (c.channel == null && c.reopenAt <= now) {
                connect(c, now);
            }
        }
    }

    private void becameIdle(Connection c) {
        c.connected = true;
        c.request = null;
        idle.get(c.target).addLast(c);
    }

    private void send(Connection c, Pending p) throws IOException {
        c.request = p;
        c.parser.reset();
        byte[] rank = Integer.toString(p.rank()).getBytes(StandardCharsets.US_ASCII);
        byte[] host = hosts[c.target];
        ByteBuffer out = ByteBuffer.allocate(4 + prefix.length + rank.length + host.length);
        out.put((byte) 'G').put((byte) 'E').put((byte) 'T').put((byte) ' ').put(prefix).put(rank).put(host).flip();
        try {
            c.channel.write(out);
        } catch (IOException e) {
            fail(c, Tally.Failure.SOCKET, System.nanoTime());
            return;
        }
        if (out.hasRemaining()) {
            c.out = out;
            c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private void handleReady(long now) throws IOException {
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            Connection c = (Connection) key.attachment();
            if (!key.isValid() || c.key != key) {
                continue;
            }
            try {
                if (key.isConnectable()) {
                    c.channel.finishConnect();
                    key.interestOps(SelectionKey.OP_READ);
                    becameIdle(c);
                    continue;
                }
                if (key.isWritable() && c.out != null) {
                    c.channel.write(c.out);
                    if (!c.out.hasRemaining()) {
                        c.out = null;
                        key.interestOps(SelectionKey.OP_READ);
                    }
                }
                if (key.isReadable()) {
                    read(c, now);
                }
            } catch (IOException | IllegalStateException e) {
                if (c.request != null) {
                    fail(c, Tally.Failure.SOCKET, now);
                } else {
                    broken(c, now);
                }
            }
        }
    }

    private void read(Connection c, long now) throws IOException {
        readBuffer.clear();
        int n = c.channel.read(readBuffer);
        if (n < 0) {
            throw new IOException("closed by the server");
        }
        readBuffer.flip();
        if (c.request == null) {
            if (readBuffer.hasRemaining()) {
                throw new IllegalStateException("bytes with no request under way");
            }
            return;
        }
        if (c.parser.feed(readBuffer)) {
            Pending p = c.request;
            ReplyParser r = c.parser;
            p.tally().answer(p.intendedNanos(), System.nanoTime() - p.intendedNanos(), r.status(), r.servedBy(), r.owner(),
                    r.cache(), r.failover());
            c.request = null;
            if (r.close() || readBuffer.hasRemaining()) {
                broken(c, now);
                c.reopenAt = now;
            } else {
                idle.get(c.target).addLast(c);
            }
        }
    }

    private void expire(long now) {
        for (ArrayDeque<Pending> queue : waiting) {
            while (!queue.isEmpty() && now - queue.peek().intendedNanos() > timeoutNanos) {
                Pending p = queue.poll();
                p.tally().noAnswer(Tally.Failure.TIMEOUT, p.intendedNanos());
            }
        }
        for (Connection c : all) {
            if (c.request != null && now - c.request.intendedNanos() > timeoutNanos) {
                fail(c, Tally.Failure.TIMEOUT, now);
            }
        }
    }

    private void fail(Connection c, Tally.Failure kind, long now) {
        Pending p = c.request;
        c.request = null;
        if (p != null) {
            p.tally().noAnswer(kind, p.intendedNanos());
        }
        broken(c, now);
    }

    private void broken(Connection c, long now) {
        idle.get(c.target).remove(c);
        if (c.key != null) {
            c.key.cancel();
        }
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException e) {
                // gone either way
            }
        }
        c.channel = null;
        c.key = null;
        c.connected = false;
        c.out = null;
        c.reopenAt = now + RECONNECT_PAUSE_NANOS;
    }

    /** Connections open now, all targets together (for the log). */
    int connections() {
        int n = 0;
        for (Connection c : all) {
            n += c.channel != null ? 1 : 0;
        }
        return n;
    }

    Map<String, Object> describe() {
        return Map.of("targets", targets.size(), "keys", keys, "mix", mix.name(), "rate", rate);
    }

    @Override
    public void close() throws IOException {
        for (Connection c : all) {
            if (c.channel != null) {
                c.channel.close();
            }
        }
        selector.close();
    }
}
