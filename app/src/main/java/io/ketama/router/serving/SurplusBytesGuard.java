package io.ketama.router.serving;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Keeps an origin connection's answers apart. Has Vert.x close an origin connection on which bytes follow the end of a final answer: an origin
 * that sends a body longer than its {@code Content-Length} leaves them there, and on a kept-alive
 * connection they would be read as the start of the next answer, failing the next fetch over it
 * (Netty reads {@code <surplus>HTTP/1.1 200 OK} as a status line with a bad version). nginx closes
 * such a connection too ("upstream sent more data than specified in Content-Length"); Vert.x's client
 * does not notice, so this does, one guard per connection, in two handlers around the HTTP codec:
 * <ul>
 *   <li>before it, {@link #raw} holds on to the buffer being decoded, which the decoder reads its
 *       messages out of;</li>
 *   <li>after it, {@link #decoded} sees each message before Vert.x does. When a final answer's last
 *       content goes by (a 1xx's does not count: the final answer is still to come) the decoder has
 *       read that answer's bytes out of the buffer, so bytes still unread belong to no answer: the
 *       answer's head is then marked {@code Connection: close}, which Vert.x reads as the answer
 *       ends and closes the connection instead of lending it to the next fetch. The fields a fetch
 *       returns were read before, at the head.</li>
 * </ul>
 * The same place also leaves out the interim answers Vert.x's client takes for final ones: it reads
 * only 100 and 103 as interim, so a {@code 102 Processing} would end the exchange with the real answer
 * still to come, read later as an answer to nothing. Left out, the fetch reads the final answer; the
 * client does not hear the 102 (RFC 9110 §15.2 would have a proxy pass it on, but Vert.x's server
 * writes no 1xx but 100 and 103 either).
 *
 * <p>Bytes the decoder copied into a buffer of its own (an answer's head split across reads) go
 * unnoticed; the fetch that reads them fails as before and is retried once by {@link OriginGuard}.
 * Costs a field write per read and per decoded message, and an {@code isReadable()} per answer.
 */
final class SurplusBytesGuard {

    private static final Logger LOG = Logger.getLogger(SurplusBytesGuard.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

    private final String origin;
    /** The buffer the decoder is reading, while it is; null between reads. */
    private ByteBuf reading;
    /** The head of the final answer being read; null while none (or an interim one) is. */
    private HttpResponse finalHead;
    /** Whether the messages of an interim answer Vert.x would misread are being left out. */
    private boolean dropping;

    private SurplusBytesGuard(String origin) {
        this.origin = origin;
    }

    /** Puts a guard around the HTTP codec of {@code connection} where it is a Vert.x HTTP/1 connection with one. */
    static void install(HttpConnection connection, String origin) {
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        ChannelPipeline pipeline = base.channel().pipeline();
        if (pipeline.get("codec") == null) {
            return; // HTTP/2 or a layout of a later Vert.x: left as it is
        }
        SurplusBytesGuard guard = new SurplusBytesGuard(origin);
        pipeline.addBefore("codec", "ketama-surplus-raw", guard.raw);
        pipeline.addAfter("codec", "ketama-surplus-decoded", guard.decoded);
    }

    private final ChannelInboundHandlerAdapter raw = new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ByteBuf read)) {
                ctx.fireChannelRead(msg);
                return;
            }
            reading = read.retain(); // the decoder may release it before its messages are all passed on
            try {
                ctx.fireChannelRead(read);
            } finally {
                reading = null;
                read.release();
            }
        }
    };

    private final ChannelInboundHandlerAdapter decoded = new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (dropping) {
                dropping = !(msg instanceof LastHttpContent);
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof HttpResponse head) {
                int status = head.status().code();
                if (status >= 100 && status < 200 && status != 100 && status != 101 && status != 103) {
                    dropping = true; // with its (empty) last content
                    return;
                }
                finalHead = status >= 100 && status < 200 && status != 101 ? null : head;
            }
            if (msg instanceof LastHttpContent && finalHead != null) {
                if (reading != null && reading.isReadable()) {
                    finalHead.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                    surplus(reading.readableBytes());
                }
                finalHead = null;
            }
            ctx.fireChannelRead(msg);
        }
    };

    private void surplus(int bytes) {
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (now - last >= LOG_EVERY_NANOS && lastLogged.compareAndSet(last, now)) {
            LOG.warnf("origin %s sent %d bytes past the end of an answer (a body longer than its Content-Length?): its "
                    + "connection is closed so that they are not read as the next answer (logged at most once a minute)",
                    origin, bytes);
        }
    }
}
