package io.ketama.router.forwarding.binary;

import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.RefusalLog;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One peer connection of the binary channel, on the member that serves: frames in, answers out,
 * on the connection's event loop. Whoever is on the other end, it holds at most one incomplete
 * request frame of {@link BinaryServerLimits#maxRequestFrame} bytes, taken from the bytes all the
 * channel's connections may hold ({@code held}; none left: closed); a frame it cannot read ends
 * the connection; a frame begun and not finished within {@link BinaryServerLimits#frameDeadlineNanos}
 * (or, where a secret is required, a connection that has not shown it by then) is closed by
 * {@link #sweep}; while the peer does not read its answers (the socket's write queue is full) no
 * more requests are read from it. Each refusal is counted in the channel's {@link RefusalLog}.
 */
final class BinaryServerConnection {

    private final NetSocket socket;
    private final ForwardReceiver receiver;
    private final ForwardSecret secret;
    private final RefusalLog refusals;
    private final BinaryServerLimits limits;
    private final Context context;
    private final BinaryFrames.Reader reader;
    private final long openedAt;
    /** The bytes of incomplete frames every connection of the channel holds together. */
    private final java.util.concurrent.atomic.AtomicLong held;
    /** This connection's share of {@link #held}. */
    private int holding;
    /** Whether it may send keys: at once without a secret, else after its {@link BinaryFrames#HELLO}. */
    private boolean admitted;
    private boolean closed;
    /** The {@link ChannelVersion} the two ends share: 1 until the peer says more. */
    private int version = ChannelVersion.UNSAID;
    /** When the incomplete frame held now began to arrive; 0: none held. */
    private long partialSince;

    BinaryServerConnection(NetSocket socket, ForwardReceiver receiver, ForwardSecret secret, RefusalLog refusals,
                           BinaryServerLimits limits, java.util.concurrent.atomic.AtomicLong held, long now) {
        this.held = held;
        this.socket = socket;
        this.receiver = receiver;
        this.secret = secret;
        this.refusals = refusals;
        this.limits = limits;
        this.admitted = !secret.required();
        this.context = Vertx.currentContext();
        this.openedAt = now;
        this.reader = new BinaryFrames.Reader(this::frame, limits.maxRequestFrame());
        CoalescedFlushes.on(socket);
        socket.handler(this::read);
        socket.drainHandler(v -> socket.resume());
    }

    private void read(Buffer data) {
        try {
            reader.feed(data);
        } catch (RuntimeException e) {
            refuse(RefusalLog.Reason.MALFORMED_FRAME, BinaryFrames.CONTROL_ID, e.getMessage());
            return;
        }
        if (closed) {
            return;
        }
        int holds = reader.heldBytes();
        if (holds != holding && !hold(holds)) {
            refuse(RefusalLog.Reason.NO_ROOM, BinaryFrames.CONTROL_ID, "no room to hold an incomplete frame of " + holds
                    + " bytes: the channel's connections hold " + held.get() + " of " + limits.maxHeldBytes() + " bytes");
            return;
        }
        if (holds == 0) {
            partialSince = 0;
        } else if (partialSince == 0) {
            partialSince = System.nanoTime();
        }
        if (socket.writeQueueFull()) {
            socket.pause(); // a peer that does not read its answers gets no more of them: drainHandler resumes
        }
    }

    private void frame(Buffer buffer, int start, int length, int id, byte kind) {
        if (closed) {
            return; // the rest of a read that came with a refused frame
        }
        if (kind == BinaryFrames.HELLO) {
            if (secret.admits(BinaryFrames.secret(buffer, start, length))) {
                admitted = true;
            } else {
                refuse(RefusalLog.Reason.WRONG_SECRET, id, "the forward secret it showed is not this member's (ketama.router.forward.secret)");
            }
            return;
        }
        if (!admitted) {
            refuse(RefusalLog.Reason.NO_SECRET, id, "this member takes forwards only from members that show its forward secret "
                    + "(ketama.router.forward.secret), and this connection showed none");
            return;
        }
        switch (kind) {
            case BinaryFrames.SERVE -> serve(id, length == 5 ? null : BinaryFrames.key(buffer, start, length), false, null);
            // spillable only where both ends said they speak it (a version frame came first on this connection)
            case BinaryFrames.SERVE_SPILLABLE -> serve(id, length == 5 ? null : BinaryFrames.key(buffer, start, length),
                    version >= ChannelVersion.SPILLS, null);
            case BinaryFrames.SERVE_TRACED -> {
                BinaryFrames.TracedRequest traced = BinaryFrames.tracedRequest(buffer, start, length);
                if (traced == null) {
                    refusals.refused(RefusalLog.Reason.MALFORMED_FRAME, socket.remoteAddress(), "a traced request whose lengths run past its frame");
                    socket.write(BinaryFrames.failed(id, RemoteFailure.REFUSED, "a traced request's trace context runs past its frame", version));
                } else {
                    serve(id, traced.key(), traced.spillable() && version >= ChannelVersion.SPILLS, traced.trace());
                }
            }
            case BinaryFrames.FETCH -> {
                BinaryFrames.Fetch fetch;
                try {
                    fetch = BinaryFrames.fetchRequest(buffer, start, length);
                } catch (IllegalArgumentException e) {
                    refusals.refused(RefusalLog.Reason.MALFORMED_FRAME, socket.remoteAddress(), "a request: " + e.getMessage());
                    socket.write(BinaryFrames.failed(id, RemoteFailure.REFUSED, "a malformed request: " + e.getMessage(), version));
                    return;
                }
                fetch(id, fetch.request(), fetch.spillable() && version >= ChannelVersion.SPILLS, fetch.trace());
            }
            case BinaryFrames.INVALIDATE -> {
                if (length == 5) {
                    socket.write(BinaryFrames.failed(id, RemoteFailure.REFUSED, "a key must have at least one byte", version));
                } else if (receiver.invalidate(BinaryFrames.key(buffer, start, length))) {
                    socket.write(BinaryFrames.invalidated(id));
                } else {
                    socket.write(BinaryFrames.failed(id, RemoteFailure.NOT_SERVING, "the member serves no keys now", version));
                }
            }
            case BinaryFrames.VERSION -> version(BinaryFrames.versionOf(buffer, start, length));
            default -> {
                refusals.refused(RefusalLog.Reason.UNKNOWN_KIND, socket.remoteAddress(), "a request of kind " + kind);
                socket.write(BinaryFrames.failed(id, RemoteFailure.REFUSED, "unknown request kind " + kind
                        + " (this member speaks channel version " + ChannelVersion.CURRENT + ")", version));
            }
        }
    }

    private void version(int theirs) {
        if (theirs < 1) {
            refusals.refused(RefusalLog.Reason.BAD_VERSION, socket.remoteAddress(), "a version frame saying version " + theirs);
            socket.write(BinaryFrames.failed(BinaryFrames.CONTROL_ID, RemoteFailure.REFUSED, "a version frame must say a version of "
                    + "at least 1, this one says " + theirs, version));
            return;
        }
        version = ChannelVersion.agreed(ChannelVersion.CURRENT, theirs);
        socket.write(BinaryFrames.version(ChannelVersion.CURRENT));
    }

    /** Closes it where a frame began too long ago, or where the secret was not shown in time. */
    void sweep(long now) {
        if (closed) {
            return;
        }
        if (partialSince != 0 && now - partialSince > limits.frameDeadlineNanos()) {
            refuse(RefusalLog.Reason.TOO_SLOW, BinaryFrames.CONTROL_ID, "a frame begun " + (now - partialSince) / 1_000_000
                    + " ms ago is still incomplete (" + reader.heldBytes() + " bytes held)");
        } else if (!admitted && now - openedAt > limits.frameDeadlineNanos()) {
            refuse(RefusalLog.Reason.TOO_SLOW, BinaryFrames.CONTROL_ID, "no forward secret shown within "
                    + limits.frameDeadlineNanos() / 1_000_000 + " ms of connecting");
        }
    }

    /** Bytes it holds of an incomplete request frame now. */
    int heldBytes() {
        return holding;
    }

    /** Makes this connection's share {@code bytes}, where they fit. */
    private boolean hold(int bytes) {
        long more = bytes - holding;
        while (true) {
            long now = held.get();
            if (more > 0 && now + more > limits.maxHeldBytes()) {
                return false;
            }
            if (held.compareAndSet(now, now + more)) {
                holding = bytes;
                return true;
            }
        }
    }

    /** Its socket closed: it holds nothing from now on. */
    void closed() {
        closed = true;
        held.addAndGet(-holding);
        holding = 0;
    }

    /** Answers {@code id} with the reason and closes the connection: the sender fails over. */
    private void refuse(RefusalLog.Reason reason, int id, String why) {
        closed = true;
        refusals.refused(reason, socket.remoteAddress(), why);
        socket.write(BinaryFrames.failed(id, RemoteFailure.FAILED, why));
        socket.close();
    }

    /**
     * Serves the key of a plain request from a member older than HTTP caching (channel version 4 or
     * before: the key alone), as a {@code GET} without fields ({@link KeyRequest#of}) (null: an empty
     * key, refused; a key's length is bounded by the frame's); a {@code spillable} one may be answered
     * {@link RemoteFailure#SPILLED}. Answered in the frames that member reads, and only with an answer
     * any client may have ({@link ForwardReceiver#shareableWithOlderMembers}); else refused, so that
     * member turns to its next candidate or its origin, as it would have.
     */
    private void serve(int id, String key, boolean spillable, TraceContext trace) {
        if (key == null) {
            refusals.refused(RefusalLog.Reason.BAD_KEY, socket.remoteAddress(), "an empty key");
            socket.write(BinaryFrames.failed(id, RemoteFailure.REFUSED, "a key must have at least one byte", version));
            return;
        }
        KeyRequest request = KeyRequest.of(key);
        reply(id, receiver.serve(request, spillable, trace), served -> olderReply(id, request, served));
    }

    /** Serves a {@link BinaryFrames#FETCH}: the whole request, answered {@link BinaryFrames#ANSWERED}. */
    private void fetch(int id, KeyRequest request, boolean spillable, TraceContext trace) {
        reply(id, receiver.serve(request, spillable, trace), served -> answered(id, served));
    }

    /** Writes what {@code answer} comes to, made into a frame by {@code frame}: at once for a hit, in this read's flush. */
    private void reply(int id, CompletionStage<Served> answer, java.util.function.Function<Served, Buffer> frame) {
        CompletableFuture<Served> f = answer.toCompletableFuture();
        if (f.isDone() && !f.isCompletedExceptionally()) {
            socket.write(frame.apply(f.join())); // a hit: flushed with the rest of this read
            return;
        }
        answer.whenComplete((served, failure) -> {
            Buffer reply = failure == null ? frame.apply(served)
                    : BinaryFrames.failed(id, RemoteFailure.of(failure), RemoteFailure.message(failure), version);
            if (Vertx.currentContext() == context) {
                socket.write(reply);
            } else {
                context.runOnContext(v -> socket.write(reply));
            }
        });
    }

    /**
     * The {@link BinaryFrames#ANSWERED} reply that carries {@code served}, or, where no frame can (a
     * body past {@link BinaryFrames#MAX_BODY}: an origin without a bound; fields past
     * {@link BinaryFrames#MAX_ANSWER_FIELDS}), a failure saying so: a frame past the limit would end the
     * connection and every forward under way on it.
     */
    private Buffer answered(int id, Served served) {
        if (BinaryFrames.fitsAnswered(served)) {
            return BinaryFrames.answered(id, served, System.currentTimeMillis());
        }
        return tooLarge(id, served);
    }

    /** The reply an older member reads ({@code SERVED}, {@code REDIRECTED}) for an answer any client may have; else a refusal. */
    private Buffer olderReply(int id, KeyRequest request, Served served) {
        if (!receiver.shareableWithOlderMembers(request, served)) {
            return BinaryFrames.failed(id, RemoteFailure.REFUSED, "this answer is for its own client only (private, "
                    + "varying, or not to be stored): a member of channel version " + ChannelVersion.HTTP_CACHING
                    + " or later is sent it", version);
        }
        Served known = served.cache() == served.cache().asOlderMembersKnowIt() ? served
                : new Served(served.answer(), served.cache().asOlderMembersKnowIt(), served.servedBy());
        return BinaryFrames.fits(known) ? BinaryFrames.served(id, known) : tooLarge(id, served);
    }

    private Buffer tooLarge(int id, Served served) {
        return BinaryFrames.failed(id, RemoteFailure.ORIGIN_ANSWER_TOO_LARGE, "the answer (a body of "
                + served.answer().body().length + " bytes, " + served.answer().headers().size() + " fields) is larger than the "
                + "binary channel carries (a body of " + BinaryFrames.MAX_BODY + " bytes, fields of " + BinaryFrames.MAX_ANSWER_FIELDS
                + " bytes)", version);
    }
}
