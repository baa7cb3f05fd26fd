package io.ketama.router.forwarding.binary;

import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.RefusalLog;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The receiving end of the binary channel: a TCP server whose connections (one per peer and
 * event loop of that peer) carry {@link BinaryFrames}. Each request is served by the member's
 * {@link ForwardReceiver}; a hit is answered in the same read, a miss when the origin answers,
 * in whatever order answers come. One server instance per event loop shares the port, so the
 * connections spread over every loop.
 *
 * <p>Whoever reaches the port is held to {@link BinaryServerLimits}: each connection holds at most
 * one request frame of bounded length, for a bounded time, all of them together at most a bounded
 * number of bytes ({@link BinaryServerConnection}); what it refuses is logged, a few lines however
 * much arrives ({@link RefusalLog}).
 */
public final class BinaryForwardServer implements AutoCloseable {

    /**
     * The largest answer body the channel carries: the largest frame either side accepts (256 MiB)
     * less room for the rest of a reply. An origin bound ({@code ketama.router.origin.max-body-bytes})
     * above it could make a reply that ends the connection it travels on.
     */
    public static final int MAX_BODY_BYTES = BinaryFrames.MAX_BODY;

    /** How often each event loop looks for connections too slow to finish a frame. */
    private static final long SWEEP_MILLIS = 1000;

    private final List<Instance> instances;
    private final int port;
    private final RefusalLog refusals;
    private final AtomicInteger connections;
    /** Bytes of incomplete request frames its connections hold together. */
    private final AtomicLong held;
    private final AtomicBoolean closed = new AtomicBoolean();

    private BinaryForwardServer(List<Instance> instances, int port, RefusalLog refusals, AtomicInteger connections, AtomicLong held) {
        this.instances = instances;
        this.port = port;
        this.refusals = refusals;
        this.connections = connections;
        this.held = held;
    }

    /**
     * Listens on {@code host}:{@code port} (0: a free port) and serves with {@code receiver};
     * waits until bound.
     *
     * @throws IllegalStateException when it cannot bind
     */
    public static BinaryForwardServer start(Vertx vertx, String host, int port, ForwardReceiver receiver) {
        return start(vertx, host, port, receiver, ForwardSecret.NONE);
    }

    /**
     * {@link #start(Vertx, String, int, ForwardReceiver)} serving only connections that open with
     * {@code secret} (where one is {@link ForwardSecret#required() required}).
     */
    public static BinaryForwardServer start(Vertx vertx, String host, int port, ForwardReceiver receiver, ForwardSecret secret) {
        return start(vertx, host, port, receiver, secret, BinaryServerLimits.defaults(secret), new RefusalLog("binary forward channel"));
    }

    /** {@link #start(Vertx, String, int, ForwardReceiver, ForwardSecret)} within {@code limits}, refusals told to {@code refusals}. */
    static BinaryForwardServer start(Vertx vertx, String host, int port, ForwardReceiver receiver, ForwardSecret secret,
                                     BinaryServerLimits limits, RefusalLog refusals) {
        int loops = 0;
        for (var ignored : vertx.nettyEventLoopGroup()) {
            loops++;
        }
        // Vert.x shares a port between server instances only when each asks for that same port; asked
        // for port 0, each would get a port of its own. So a free port is picked first (and picked
        // again should another process take it in between).
        RuntimeException last = null;
        for (int attempt = 0; attempt < (port == 0 ? 5 : 1); attempt++) {
            int chosen = port == 0 ? freePort(host) : port;
            List<Instance> instances = new ArrayList<>();
            AtomicInteger open = new AtomicInteger();
            AtomicLong held = new AtomicLong();
            try {
                for (int i = 0; i < Math.max(1, loops); i++) {
                    instances.add(listen(vertx, host, chosen, new Instance(vertx, receiver, secret, limits, refusals, open, held)));
                }
                return new BinaryForwardServer(instances, chosen, refusals, open, held);
            } catch (RuntimeException e) {
                instances.forEach(Instance::close);
                last = e;
            }
        }
        throw new IllegalStateException("the binary forward channel cannot listen on " + host + ":" + port + ": "
                + last.getMessage(), last);
    }

    private static int freePort(String host) {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + host + ": " + e.getMessage(), e);
        }
    }

    private static Instance listen(Vertx vertx, String host, int port, Instance instance) {
        // created on a context of its own, so each instance takes its connections on its own event loop
        Context context = vertx.getOrCreateContext();
        CompletableFuture<NetServer> listening = new CompletableFuture<>();
        context.runOnContext(v -> {
            NetServerOptions options = new NetServerOptions().setHost(host).setPort(port).setTcpNoDelay(true);
            NetServer server = vertx.createNetServer(options);
            server.connectHandler(instance::accept);
            instance.server = server;
            instance.sweeper = vertx.setPeriodic(SWEEP_MILLIS, id -> instance.sweep());
            Future<NetServer> f = server.listen();
            f.onComplete(r -> {
                if (r.succeeded()) {
                    listening.complete(r.result());
                } else {
                    listening.completeExceptionally(r.cause());
                }
            });
        });
        try {
            listening.get(30, TimeUnit.SECONDS);
            return instance;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (java.util.concurrent.TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("not bound within 30 s", e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return port;
    }

    /** Connections open now, over every event loop. */
    public int connections() {
        return connections.get();
    }

    /** Refusals of {@code reason} since it started. */
    long refused(RefusalLog.Reason reason) {
        return refusals.total(reason);
    }

    /** Bytes its connections hold now of incomplete request frames. */
    long heldBytes() {
        return held.get();
    }

    /** Logs what it refused since its last line about it, due or not. */
    void flushRefusals() {
        refusals.flush();
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        instances.forEach(Instance::close);
        refusals.flush();
    }

    /** The server of one event loop and the connections it took; touched only on that loop, but for {@link #heldBytes}. */
    private static final class Instance {
        final Vertx vertx;
        final ForwardReceiver receiver;
        final ForwardSecret secret;
        final BinaryServerLimits limits;
        final RefusalLog refusals;
        final AtomicInteger open;
        final AtomicLong held;
        final Set<BinaryServerConnection> connections = new HashSet<>();
        NetServer server;
        long sweeper = -1;

        Instance(Vertx vertx, ForwardReceiver receiver, ForwardSecret secret, BinaryServerLimits limits, RefusalLog refusals,
                 AtomicInteger open, AtomicLong held) {
            this.held = held;
            this.vertx = vertx;
            this.receiver = receiver;
            this.secret = secret;
            this.limits = limits;
            this.refusals = refusals;
            this.open = open;
        }

        void accept(NetSocket socket) {
            open.incrementAndGet();
            BinaryServerConnection connection = new BinaryServerConnection(socket, receiver, secret, refusals, limits, held,
                    System.nanoTime());
            connections.add(connection);
            socket.closeHandler(v -> {
                connections.remove(connection);
                connection.closed();
                open.decrementAndGet();
            });
        }

        void sweep() {
            long now = System.nanoTime();
            for (BinaryServerConnection c : new ArrayList<>(connections)) {
                c.sweep(now);
            }
            refusals.flushIfDue();
        }

        void close() {
            if (sweeper >= 0) {
                vertx.cancelTimer(sweeper);
            }
            if (server != null) {
                server.close();
            }
        }
    }
}
