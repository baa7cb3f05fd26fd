package io.ketama.router.forwarding;

import io.ketama.router.serving.Served;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The receiving end of the binary channel: a TCP server whose connections (one per peer and
 * event loop of that peer) carry {@link BinaryFrames}. Each request is served by the member's
 * {@link ForwardReceiver}; a hit is answered in the same read, a miss when the origin answers,
 * in whatever order answers come. One server instance per event loop shares the port, so the
 * connections spread over every loop.
 */
public final class BinaryForwardServer implements AutoCloseable {

    /**
     * The largest answer body the channel carries: the largest frame either side accepts (256 MiB)
     * less room for the rest of a reply. An origin bound ({@code ketama.router.origin.max-body-bytes})
     * above it could make a reply that ends the connection it travels on.
     */
    public static final int MAX_BODY_BYTES = BinaryFrames.MAX_BODY;

    private static final Logger LOG = Logger.getLogger(BinaryForwardServer.class);

    private final List<NetServer> servers;
    private final int port;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private BinaryForwardServer(List<NetServer> servers, int port) {
        this.servers = servers;
        this.port = port;
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
            List<NetServer> servers = new ArrayList<>();
            try {
                for (int i = 0; i < Math.max(1, loops); i++) {
                    servers.add(listen(vertx, host, chosen, receiver, secret));
                }
                return new BinaryForwardServer(servers, chosen);
            } catch (RuntimeException e) {
                servers.forEach(NetServer::close);
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

    private static NetServer listen(Vertx vertx, String host, int port, ForwardReceiver receiver, ForwardSecret secret) {
        // created on a context of its own, so each instance takes its connections on its own event loop
        Context context = vertx.getOrCreateContext();
        CompletableFuture<NetServer> listening = new CompletableFuture<>();
        context.runOnContext(v -> {
            NetServerOptions options = new NetServerOptions().setHost(host).setPort(port).setTcpNoDelay(true);
            NetServer server = vertx.createNetServer(options);
            server.connectHandler(socket -> new Connection(socket, receiver, secret));
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
            return listening.get(30, TimeUnit.SECONDS);
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

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (NetServer server : servers) {
            server.close();
        }
    }

    /**
     * The reply that carries {@code served}, or, where no frame can (a body past
     * {@link #MAX_BODY_BYTES}: an origin without a bound), a failure saying so: a frame past the
     * limit would end the connection and every forward under way on it.
     */
    private static Buffer reply(int id, Served served) {
        if (BinaryFrames.fits(served)) {
            return BinaryFrames.served(id, served);
        }
        return BinaryFrames.failed(id, RemoteFailure.ORIGIN_ANSWER_TOO_LARGE, "the answer's body of "
                + served.answer().body().length + " bytes is larger than the binary channel carries (" + MAX_BODY_BYTES + " bytes)");
    }

    /** One peer connection: frames in, answers out, on the connection's event loop. */
    private static final class Connection {
        private final NetSocket socket;
        private final ForwardReceiver receiver;
        private final ForwardSecret secret;
        private final Context context;
        private final BinaryFrames.Reader reader = new BinaryFrames.Reader(this::frame);
        /** Whether it may send keys: at once without a secret, else after its {@link BinaryFrames#HELLO}. */
        private boolean admitted;
        private boolean refused;

        Connection(NetSocket socket, ForwardReceiver receiver, ForwardSecret secret) {
            this.socket = socket;
            this.receiver = receiver;
            this.secret = secret;
            this.admitted = !secret.required();
            this.context = Vertx.currentContext();
            CoalescedFlushes.on(socket);
            socket.handler(this::read);
            socket.exceptionHandler(e -> LOG.debugf("binary forward connection from %s failed: %s", socket.remoteAddress(), e));
        }

        private void read(Buffer data) {
            try {
                reader.feed(data);
            } catch (RuntimeException e) {
                LOG.warnf("closing the binary forward connection from %s: %s", socket.remoteAddress(), e.getMessage());
                socket.close();
            }
        }

        private void frame(Buffer buffer, int start, int length, int id, byte kind) {
            if (refused) {
                return; // the rest of a read that came with a refused frame
            }
            if (kind == BinaryFrames.HELLO) {
                if (secret.admits(BinaryFrames.secret(buffer, start, length))) {
                    admitted = true;
                } else {
                    refuse(id, "the forward secret it showed is not this member's (ketama.router.forward.secret)");
                }
                return;
            }
            if (!admitted) {
                refuse(id, "this member takes forwards only from members that show its forward secret "
                        + "(ketama.router.forward.secret), and this connection showed none");
                return;
            }
            if (kind != BinaryFrames.SERVE) {
                socket.write(BinaryFrames.failed(id, RemoteFailure.FAILED, "unknown request kind " + kind));
                return;
            }
            serve(id, BinaryFrames.key(buffer, start, length));
        }

        /** Answers {@code id} with the reason and closes the connection: the sender fails over. */
        private void refuse(int id, String why) {
            refused = true;
            LOG.warnf("refusing the binary forward connection from %s: %s", socket.remoteAddress(), why);
            socket.write(BinaryFrames.failed(id, RemoteFailure.FAILED, why));
            socket.close();
        }

        private void serve(int id, String key) {
            CompletionStage<Served> answer = receiver.serve(key);
            CompletableFuture<Served> f = answer.toCompletableFuture();
            if (f.isDone() && !f.isCompletedExceptionally()) {
                socket.write(reply(id, f.join())); // a hit: flushed with the rest of this read
                return;
            }
            answer.whenComplete((served, failure) -> {
                Buffer reply = failure == null ? reply(id, served)
                        : BinaryFrames.failed(id, RemoteFailure.of(failure), RemoteFailure.message(failure));
                if (Vertx.currentContext() == context) {
                    socket.write(reply);
                } else {
                    context.runOnContext(v -> socket.write(reply));
                }
            });
        }
    }
}
