package io.ketama.router.forwarding.binary;

import io.ketama.router.serving.HttpOrigin;
import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardRefusedException;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.TransportKind;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.concurrent.FastThreadLocal;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * Forwards over persistent binary channels: each event loop keeps one TCP connection to each peer
 * it forwards to, and many requests are under way on it at once, told apart by request ids
 * ({@link BinaryFrames}). A forward is written and answered on the event loop of the HTTP request
 * that made it, so nothing is handed between threads and nothing waits.
 *
 * <p>A connection that closes fails its forwards at once (the next candidate serves them); the
 * next forward to that peer connects again. A forward whose answer never comes is failed after
 * {@code expiry} (later than the guard's own timeout, which normally acts first) so its entry
 * cannot stay behind.
 *
 * <p>It takes a reply's body only up to this member's own {@code ketama.router.origin.max-body-bytes},
 * whatever the owner's limit: a larger one is refused from the frame's head, before its body is
 * kept ({@link BinaryFrames.Reader}), and fails that forward, which the next candidate then serves,
 * as the {@code http} transport fails an answer past the limit. The frame's bytes are let go as they
 * arrive, so the connection and the other forwards under way on it carry on.
 *
 * <p>A reply's body is held in this member's {@link BodyBudget} from the frame's head on: its length,
 * known before any of the body is kept, is taken from the budget there (one compare-and-set), and the
 * {@link Served} answer holds it until whoever sends it on releases it. A reply that finds no room
 * fails its forward with {@link NoRoomForReplyException}, which ends the failover chain at once (503
 * {@code overloaded}): the next candidate's reply would need the same room here. Its bytes are let go
 * as a reply too large is. A reply that reaches no forward (given up on meanwhile, its connection
 * closed mid-body) gives its bytes back at once.
 *
 * <p>Versions ({@link ChannelVersion}): requests go only to members that publish version
 * {@link ChannelVersion#HTTP_CACHING} or later ({@link BinaryFrames#FETCH}, {@link BinaryFrames#INVALIDATE});
 * a forward to an older member fails at once with {@link NoUsableEndpointException}, so the next
 * candidate serves it. Every connection opens with this member's {@link BinaryFrames#VERSION}. A
 * reply of a kind this member does not know
 * fails its forward with {@link ForwardRefusedException} (the next candidate serves; the member is
 * not blamed) and the channel carries on; a reply it cannot read closes the channel. A peer's
 * frame other than a reply is taken up to {@link BinaryFrames#MAX_CONTROL_FRAME} bytes, a reply
 * gets a buffer of its size only once admitted: a length field alone never makes it hold more.
 */
public final class BinaryForwardClient implements ForwardTransport {

    private static final long SWEEP_MILLIS = 100;


    private final Vertx vertx;
    private final NetClient client;
    private final long expiryNanos;
    private final ForwardSecret secret;
    /** The largest body of a forward's reply taken: {@code ketama.router.origin.max-body-bytes}. */
    private final int maxBodyBytes;
    /** Where replies' bodies are held: {@code ketama.router.admission.max-buffered-bytes}. */
    private final BodyBudget budget;
    private final Set<Loop> loops = ConcurrentHashMap.newKeySet();
    private final FastThreadLocal<Loop> loopOfThread = new FastThreadLocal<>() {
        @Override
        protected Loop initialValue() {
            Loop loop = new Loop((ContextInternal) Vertx.currentContext());
            loops.add(loop);
            return loop;
        }
    };
    private volatile boolean closed;

    /**
     * @param connectTimeout how long connecting to a peer may take
     * @param expiry         how long a forward may stay unanswered before this client gives up on it
     *                       (set it past the forward timeout of the guard)
     * @param secret         what every connection opens with where one is set ({@link ForwardSecret#NONE}: nothing)
     * @param maxBodyBytes   the largest body of a reply taken (at least 1): this member's
     *                       {@code ketama.router.origin.max-body-bytes}
     * @param budget         where replies' bodies are held, shared with the member's other bodies
     */
    public BinaryForwardClient(Vertx vertx, Duration connectTimeout, Duration expiry, ForwardSecret secret, int maxBodyBytes,
                               BodyBudget budget) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("max body bytes must be >= 1, was " + maxBodyBytes);
        }
        this.maxBodyBytes = maxBodyBytes;
        this.budget = Objects.requireNonNull(budget, "budget");
        this.vertx = vertx;
        this.secret = secret;
        this.client = vertx.createNetClient(new NetClientOptions()
                .setTcpNoDelay(true)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis())));
        this.expiryNanos = expiry.toNanos();
    }

    @Override
    public CompletionStage<Served> forward(Member target, KeyRequest request, boolean spillable, TraceContext trace) {
        return onLoop(target, BinaryFrames.FETCH, request, spillable, trace, null);
    }

    @Override
    public CompletionStage<Void> invalidate(Member target, String key) {
        return onLoop(target, BinaryFrames.INVALIDATE, null, false, null, key).thenApply(served -> null);
    }

    /** Sends a request of {@code kind} on the calling event loop's channel to {@code target}, or on one of the loops. */
    private CompletionStage<Served> onLoop(Member target, byte kind, KeyRequest request, boolean spillable, TraceContext trace,
                                           String key) {
        if (closed) {
            return CompletableFuture.failedFuture(new ForwardFailedException("the binary forward client is closed"));
        }
        try {
            PeerEndpoints.requireHttpCaching(target);
        } catch (NoUsableEndpointException e) {
            return CompletableFuture.failedFuture(e);
        }
        Context current = Vertx.currentContext();
        if (current != null && current.isEventLoopContext() && Context.isOnEventLoopThread()) {
            return loopOfThread.get().send((ContextInternal) current, target, kind, request, spillable, trace, key);
        }
        // not on an event loop (a guard's timer, a test): carry on on one
        CompletableFuture<Served> answer = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(v -> loopOfThread.get()
                .send((ContextInternal) Vertx.currentContext(), target, kind, request, spillable, trace, key)
                .whenComplete((served, failure) -> {
                    if (failure != null) {
                        answer.completeExceptionally(failure);
                    } else {
                        answer.complete(served);
                    }
                }));
        return answer;
    }


    @Override
    public TransportKind kind() {
        return TransportKind.BINARY;
    }

    /** Closes every channel; forwards under way fail. */
    @Override
    public void close() {
        closed = true;
        for (Loop loop : loops) {
            loop.root.runOnContext(v -> loop.close());
        }
        client.close();
    }

    /** Connections open now, over all event loops. */
    public int connections() {
        int n = 0;
        for (Loop loop : loops) {
            n += loop.peers.size();
        }
        return n;
    }

    /** The channels of one event loop. Only its thread touches it. */
    private final class Loop {
        final ContextInternal root;
        final Map<UUID, Peer> peers = new HashMap<>();
        final long sweeper;

        Loop(ContextInternal context) {
            this.root = context.unwrap();
            this.sweeper = root.owner().setPeriodic(SWEEP_MILLIS, id -> root.runOnContext(v -> sweep()));
        }

        CompletionStage<Served> send(ContextInternal caller, Member target, byte kind, KeyRequest request, boolean spillable,
                                     TraceContext trace, String key) {
            Peer peer = peers.get(target.getUuid());
            if (peer == null) {
                PeerEndpoints.Endpoint endpoint;
                try {
                    endpoint = PeerEndpoints.of(target, PeerEndpoints.BINARY_PORT);
                } catch (NoUsableEndpointException e) {
                    return CompletableFuture.failedFuture(e);
                }
                peer = new Peer(this, target, endpoint);
                peers.put(target.getUuid(), peer);
                peer.connect();
            }
            return peer.send(caller, kind, request, spillable, trace, key);
        }

        void sweep() {
            long now = System.nanoTime();
            for (Peer peer : peers.values()) {
                peer.expire(now);
            }
        }

        void close() {
            vertx.cancelTimer(sweeper);
            for (Peer peer : new ArrayList<>(peers.values())) {
                peer.close("the binary forward client closed");
            }
        }
    }

    /** A forward waiting for its answer. */
    private static final class Pending {
        final int id;
        /** What it asked: {@link BinaryFrames#FETCH} (answered {@code ANSWERED}) or {@link BinaryFrames#INVALIDATE} ({@code INVALIDATED}). */
        final byte kind;
        final ContextInternal caller;
        final long deadline;
        final CompletableFuture<Served> answer = new CompletableFuture<>();
        boolean done;

        Pending(int id, byte kind, ContextInternal caller, long deadline) {
            this.id = id;
            this.kind = kind;
            this.caller = caller;
            this.deadline = deadline;
        }

        /** The reply kind that answers it. */
        byte answeredBy() {
            return kind == BinaryFrames.INVALIDATE ? BinaryFrames.INVALIDATED : BinaryFrames.ANSWERED;
        }

        void complete(Served served) {
            done = true;
            caller.emit(served, answer::complete);
        }

        void fail(Throwable failure) {
            done = true;
            caller.emit(failure, answer::completeExceptionally);
        }
    }

    /** One connection to one peer, and the forwards under way on it. */
    private final class Peer {
        final Loop loop;
        final Member member;
        final String address;
        final PeerEndpoints.Endpoint endpoint;
        final IntObjectHashMap<Pending> pending = new IntObjectHashMap<>();
        /** In the order sent, which is the order of their deadlines. */
        final ArrayDeque<Pending> byDeadline = new ArrayDeque<>();
        List<Buffer> unsent = new ArrayList<>();
        NetSocket socket;
        boolean closed;
        int nextId;
        /**
         * Bytes taken from the budget for the reply frame arriving now, admitted and not yet handed
         * to its forward; 0: none. Frames arrive one after another, so at most one is between.
         */
        long receiving;
        /** The {@link ChannelVersion} the peer said it speaks; 0 until it answers the version frame. */
        int peerVersion;
        /** What the peer said last in a failure that belongs to no forward; null: nothing. */
        String lastRefusal;

        Peer(Loop loop, Member member, PeerEndpoints.Endpoint endpoint) {
            this.loop = loop;
            this.member = member;
            this.address = Members.address(member);
            this.endpoint = endpoint;
        }

        void connect() {
            // on the loop's own context, not the request's: the connection outlives the request
            loop.root.runOnContext(v -> client.connect(endpoint.port(), endpoint.host()).onComplete(r -> {
                if (closed) {
                    if (r.succeeded()) {
                        r.result().close();
                    }
                    return;
                }
                if (r.failed()) {
                    close("cannot connect to its binary channel at " + endpoint.host() + ":" + endpoint.port() + ": " + r.cause());
                    return;
                }
                socket = r.result();
                CoalescedFlushes.on(socket);
                BinaryFrames.Reader reader = new BinaryFrames.Reader(this::frame, this::admit);
                socket.handler(data -> {
                    try {
                        reader.feed(data);
                    } catch (RuntimeException e) {
                        socket.close();
                        close("protocol error: " + e.getMessage());
                    }
                });
                socket.closeHandler(x -> close("its binary channel closed"
                        + (lastRefusal == null ? "" : " (its last word on it: " + lastRefusal + ")")));
                socket.exceptionHandler(e -> {
                    socket.close();
                    close("its binary channel failed: " + e);
                });
                if (secret.required()) {
                    socket.write(BinaryFrames.hello(secret));
                }
                if (PeerEndpoints.channelVersion(member) >= 2) {
                    // this member's channel version, to a member that knows the frame (a version-1 member
                    // would answer it "unknown request kind"); not waited for: requests read the same in both
                    socket.write(BinaryFrames.version(ChannelVersion.CURRENT));
                }
                for (Buffer frame : unsent) {
                    socket.write(frame);
                }
                unsent = null;
            }));
        }

        CompletionStage<Served> send(ContextInternal caller, byte kind, KeyRequest request, boolean spillable, TraceContext trace,
                                     String key) {
            int id = nextId++;
            Buffer frame;
            try {
                frame = kind == BinaryFrames.INVALIDATE ? BinaryFrames.invalidate(id, key)
                        : BinaryFrames.fetch(id, request, spillable, trace);
            } catch (IllegalArgumentException e) {
                return CompletableFuture.failedFuture(new ForwardRefusedException("a request the binary channel cannot carry: "
                        + e.getMessage()));
            }
            if (frame.length() - 4 > BinaryFrames.MAX_REQUEST_FRAME) {
                return CompletableFuture.failedFuture(new ForwardRefusedException("a request of " + frame.length()
                        + " bytes (key, target and fields) is longer than a member takes on the binary channel ("
                        + BinaryFrames.MAX_REQUEST_FRAME + " bytes)"));
            }
            Pending p = new Pending(id, kind, caller, System.nanoTime() + expiryNanos);
            pending.put(id, p);
            byDeadline.add(p);
            if (socket != null) {
                socket.write(frame);
            } else {
                unsent.add(frame);
            }
            return p.answer;
        }

        /**
         * A reply's body length is known, none of it kept yet: keep it only for a forward still
         * waiting, within this member's limit, and with room in the budget, which it takes now.
         */
        private boolean admit(int id, long bodyBytes) {
            Pending p = pending.get(id);
            if (p == null) {
                return false; // given up on already: its bytes go by, never kept
            }
            if (p.kind == BinaryFrames.INVALIDATE) {
                // no reply with a body answers an invalidation: its bytes go by, never kept
                pending.remove(id);
                p.fail(new ForwardRefusedException("member " + address + " over binary answered an invalidation with a reply "
                        + "carrying a body of " + bodyBytes + " bytes, which is not its answer (" + BinaryFrames.INVALIDATED + ")"));
                return false;
            }
            if (bodyBytes > maxBodyBytes) {
                pending.remove(id);
                p.fail(tooLarge(bodyBytes));
                return false;
            }
            if (!budget.take(bodyBytes)) {
                pending.remove(id);
                p.fail(budget.replyRefusal("a reply of " + bodyBytes + " bytes from member " + address + " over binary"));
                return false;
            }
            receiving = bodyBytes;
            return true;
        }

        private void frame(Buffer buffer, int start, int length, int id, byte kind) {
            long held = receiving; // the admitted reply's bytes, now this frame's (0 for a failure)
            receiving = 0;
            if (id == BinaryFrames.CONTROL_ID) {
                control(buffer, start, length, kind);
                return;
            }
            Pending p = pending.remove(id);
            if (p == null) {
                giveBack(held); // given up on while its body arrived
                return;
            }
            Served served;
            try {
                if (kind == BinaryFrames.ANSWERED && p.answeredBy() == kind) {
                    served = BinaryFrames.answered(buffer, start, length, address, System.currentTimeMillis(), budget, held);
                } else if (kind == BinaryFrames.INVALIDATED && p.answeredBy() == kind) {
                    giveBack(held);
                    p.complete(null);
                    return;
                } else if (kind == BinaryFrames.FAILED) {
                    giveBack(held);
                    p.fail(BinaryFrames.failure(buffer, start).toException(address, BinaryFrames.failureMessage(buffer, start, length)));
                    return;
                } else {
                    // a kind of reply this version does not know, or not the answer to this request: framed, so the
                    // channel carries on
                    giveBack(held);
                    p.fail(new ForwardRefusedException("member " + address + " over binary answered with a reply of kind " + kind
                            + ", which this member (channel version " + ChannelVersion.CURRENT + ") does not take as the answer to "
                            + (p.kind == BinaryFrames.INVALIDATE ? "an invalidation" : "a forward") + " (kind " + p.answeredBy()
                            + "); it said it speaks " + (peerVersion == 0 ? "nothing yet" : "version " + peerVersion)));
                    return;
                }
            } catch (RuntimeException e) {
                giveBack(held);
                p.fail(new ForwardFailedException("member " + address + " over binary sent a malformed reply: " + e));
                throw e; // the connection is closed: what comes next cannot be framed
            }
            p.complete(served);
        }

        /**
         * A frame that belongs to no forward: the peer's answer to this member's version frame, its
         * own {@link BinaryFrames#VERSION} or, from a member older than versions, a {@code FAILED}
         * ("unknown request kind"); anything else there is let go.
         */
        private void control(Buffer buffer, int start, int length, byte kind) {
            if (kind == BinaryFrames.VERSION) {
                peerVersion = Math.max(1, BinaryFrames.versionOf(buffer, start, length));
            } else if (kind == BinaryFrames.FAILED) {
                if (peerVersion == 0) {
                    peerVersion = ChannelVersion.UNSAID;
                }
                // a version-1 member's "unknown request kind", or a refusal before it closes: said when it closes
                lastRefusal = BinaryFrames.failureMessage(buffer, start, length);
            }
        }

        private void giveBack(long bytes) {
            if (bytes > 0) {
                budget.giveBack(bytes);
            }
        }

        /**
         * A reply past this member's limit is the owner's fault (it refuses an origin answer past
         * its own limit with {@link io.ketama.router.forwarding.channel.RemoteFailure#ORIGIN_ANSWER_TOO_LARGE}): the forward fails and the
         * next candidate is tried, as the {@code http} transport does.
         */
        private ForwardFailedException tooLarge(long bodyBytes) {
            return new ForwardFailedException("member " + address + " over binary answered a forward with a body of "
                    + bodyBytes + " bytes; this member takes at most " + maxBodyBytes + " bytes (" + HttpOrigin.MAX_BODY_BYTES_KEY + ")");
        }

        void expire(long now) {
            while (!byDeadline.isEmpty()) {
                Pending head = byDeadline.peekFirst();
                if (!head.done && now - head.deadline < 0) {
                    return;
                }
                byDeadline.pollFirst();
                if (!head.done && pending.remove(head.id) != null) {
                    head.fail(new TimeoutException("member " + address + " did not answer a forward within "
                            + expiryNanos / 1_000_000 + " ms"));
                }
            }
        }

        /** Fails every forward under way and forgets this connection: the next forward connects again. */
        void close(String why) {
            if (closed) {
                return;
            }
            closed = true;
            loop.peers.remove(member.getUuid(), this);
            giveBack(receiving); // a reply cut off mid-body reaches no one
            receiving = 0;
            if (socket != null) {
                socket.close();
            }
            if (!pending.isEmpty()) {
                ForwardFailedException failure = new ForwardFailedException("member " + address + ": " + why + " with "
                        + pending.size() + " forwards under way");
                for (Pending p : pending.values()) {
                    p.fail(failure);
                }
                pending.clear();
            }
            byDeadline.clear();
        }
    }
}
