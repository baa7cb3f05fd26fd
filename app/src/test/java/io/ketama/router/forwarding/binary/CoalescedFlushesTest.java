package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.NetSocketInternal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Frames written to a channel in one event-loop round, as a member forwards the keys of the HTTP
 * requests it read in that round: Vert.x alone flushes (a write syscall) once per frame; with
 * {@link CoalescedFlushes} once for the round, and every byte still arrives. Counted at the head of
 * the channel's pipeline, over real TCP on 127.0.0.1.
 */
class CoalescedFlushesTest {

    private static final int FRAMES = 100;

    private Vertx vertx;
    private NetServer server;
    private final AtomicLong received = new AtomicLong();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        server = vertx.createNetServer().connectHandler(s -> s.handler(b -> received.addAndGet(b.length())))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        vertx.close();
    }

    @Test
    void withoutItEveryFrameIsFlushedOnItsOwn() throws Exception {
        assertThat(flushesForOneRound(false)).isBetween(FRAMES, FRAMES + 1);
    }

    @Test
    void withItTheRoundsFramesShareOneFlush() throws Exception {
        assertThat(flushesForOneRound(true)).isBetween(1, 2);
    }

    @Test
    void installingTwiceInstallsOnce() throws Exception {
        NetSocket socket = connect();
        CoalescedFlushes.on(socket);
        CoalescedFlushes.on(socket);
        assertThat(((NetSocketInternal) socket).channelHandlerContext().pipeline().names())
                .filteredOn(n -> n.startsWith("ketama-")).hasSize(1);
    }

    private NetSocket connect() throws Exception {
        return vertx.createNetClient().connect(server.actualPort(), "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** Flushes that reach the socket when {@link #FRAMES} frames are written in one task of its event loop. */
    private int flushesForOneRound(boolean coalesced) throws Exception {
        NetSocket socket = connect();
        if (coalesced) {
            CoalescedFlushes.on(socket);
        }
        AtomicInteger flushes = new AtomicInteger();
        // at the head: sees the flushes that become write syscalls, after any consolidation
        ((NetSocketInternal) socket).channelHandlerContext().pipeline().addFirst("count", new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes.incrementAndGet();
                ctx.flush();
            }
        });
        // the pipeline's head-most handler must be the counter, then the consolidation
        assertThat(((NetSocketInternal) socket).channelHandlerContext().pipeline().names().get(0)).isEqualTo("count");
        CompletableFuture<Void> written = new CompletableFuture<>();
        ((NetSocketInternal) socket).channelHandlerContext().executor().execute(() -> {
            for (int i = 0; i < FRAMES; i++) {
                socket.write(BinaryFrames.serve(i, "key-" + i));
            }
            written.complete(null);
        });
        written.get(30, TimeUnit.SECONDS);
        long expected = 0;
        for (int i = 0; i < FRAMES; i++) {
            expected += BinaryFrames.serve(i, "key-" + i).length();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(received.get()).as("every byte arrives").isEqualTo(expected);
        int flushed = flushes.get(); // before closing: Vert.x flushes once more as it closes
        socket.close();
        return flushed;
    }
}
