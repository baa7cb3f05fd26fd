package io.ketama.router.forwarding.binary;

import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.NetSocketInternal;

/**
 * One write system call for the frames an event loop puts on a binary channel in one round,
 * instead of one per frame. Vert.x flushes every write to a connection it is not reading from at
 * once, so a member that forwards the keys of many HTTP requests it read in one round wrote each
 * frame with a syscall of its own, and its peer woke up to read each. Netty's
 * {@link FlushConsolidationHandler} holds such flushes until the event loop has finished the
 * round's I/O (at most {@value #MOST_FRAMES_PER_FLUSH} frames), and still flushes at once what a
 * read of the same connection wrote, when that read is complete. Frames wait no longer than the
 * rest of the round: no timer is involved.
 */
final class CoalescedFlushes {

    /** Flush anyway after this many frames: a bound on what one round can hold back. */
    static final int MOST_FRAMES_PER_FLUSH = 256;
    private static final String NAME = "ketama-coalesced-flushes";

    private CoalescedFlushes() {
    }

    /** Installs the coalescing on {@code socket}'s channel; a socket that is not Vert.x's own is left as it is. */
    static void on(NetSocket socket) {
        if (socket instanceof NetSocketInternal internal) {
            var pipeline = internal.channelHandlerContext().pipeline();
            if (pipeline.get(NAME) == null) {
                pipeline.addFirst(NAME, new FlushConsolidationHandler(MOST_FRAMES_PER_FLUSH, true));
            }
        }
    }
}
