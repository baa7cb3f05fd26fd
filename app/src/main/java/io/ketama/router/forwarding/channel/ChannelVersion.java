package io.ketama.router.forwarding.channel;

/**
 * The versions of what members send each other on the forward channels, and what each version
 * may carry. One number for the three transports, raised whenever a member would send something a
 * member of the version before could not read as designed.
 *
 * <ul>
 *   <li><b>1</b>: the channels as released before versions existed (commit 4d2ad1a): binary frames
 *       {@code SERVE}, {@code SERVED}, {@code FAILED}, {@code HELLO}, {@code REDIRECTED} and
 *       {@link RemoteFailure} codes 1 to 5; the {@code http} forward and the Hazelcast task and
 *       reply as then. A version-1 member carries no version anywhere: its absence means 1.</li>
 *   <li><b>2</b>: every channel says its version. Binary: the connecting member sends
 *       {@link io.ketama.router.forwarding.binary.BinaryFrames#VERSION} first (after {@code HELLO}); a version-2 member answers with
 *       its own, a version-1 member with a {@code FAILED} for the control id, which the sender
 *       takes as "version 1" (it waits for neither: its requests read the same in both). HTTP: the
 *       request and the answer carry {@link io.ketama.router.forwarding.http.HttpForwarding#VERSION}. Hazelcast: the task and the
 *       reply end with a version byte, which a version-1 reader never reads (it stops after its
 *       last field). Members publish theirs as the attribute {@link PeerEndpoints#CHANNEL_VERSION}.
 *       New in 2: {@link RemoteFailure#REFUSED} (a request the member will not read: its sender's
 *       mistake, not the member's failure), sent as {@code FAILED} to a member that did not say it
 *       speaks 2.</li>
 *   <li><b>3</b>: bounded loads ({@code io.ketama.router.load.OwnerLoad}). A request may say that its
 *       receiver may spill it: binary kind {@link io.ketama.router.forwarding.binary.BinaryFrames#SERVE_SPILLABLE} (the key, as
 *       {@code SERVE}), the {@code http} header {@link io.ketama.router.forwarding.http.HttpForwarding#SPILLABLE}, a flags byte after the
 *       Hazelcast task's version byte. The answer past the receiver's bound is the failure code
 *       {@link RemoteFailure#SPILLED}. A sender marks a request spillable only for a member that
 *       publishes version 3 or later ({@link PeerEndpoints#CHANNEL_VERSION}); a receiver spills only a
 *       request so marked, on a channel whose agreed version is 3 or later. So a version-2 member never
 *       gets the kind, the header's meaning or the code: it is sent plain requests, which it serves, and
 *       its own plain requests are always served.</li>
 *   <li><b>4</b>: trace context ({@link TraceContext}: W3C {@code traceparent} and {@code tracestate}).
 *       Binary: the request kind {@link io.ketama.router.forwarding.binary.BinaryFrames#SERVE_TRACED} (flags, trace context, key); HTTP: the
 *       W3C headers on the forward request; Hazelcast: a trace field after the task's flags byte, which
 *       an older reader never reads. A sender carries it only for a traced forward and only to a member
 *       that publishes version 4 or later; an untraced forward, and every forward to an older member,
 *       is sent as version 3 sends it (that member's span then starts a trace of its own).</li>
 *   <li><b>5</b>: HTTP caching (RFC 9111). A request carries what the cache reads of the client's:
 *       the key, the target the origin is asked for, and the client's end-to-end fields; an answer
 *       carries the origin's status, its end-to-end fields and its age when sent (the receiver treats
 *       the sender as an upstream cache: no two clocks are compared). Binary: request kind
 *       {@link io.ketama.router.forwarding.binary.BinaryFrames#FETCH}, reply kind
 *       {@link io.ketama.router.forwarding.binary.BinaryFrames#ANSWERED}, and
 *       {@link io.ketama.router.forwarding.binary.BinaryFrames#INVALIDATE} /
 *       {@link io.ketama.router.forwarding.binary.BinaryFrames#INVALIDATED}; HTTP: the client's fields on
 *       the forward request and the answer's on its response, the target and the age in
 *       {@code X-Ketama-Forward-*} fields, {@code DELETE} to invalidate; Hazelcast: the target and the
 *       fields after the trace, the answer's fields and age after the reply's version byte, and an
 *       invalidation task. The failure code {@link RemoteFailure#NOT_CACHED} (an
 *       {@code only-if-cached} request the member holds nothing for).
 *       <b>A member of version 5 forwards nothing to an older member</b> (that member is skipped as a
 *       candidate, as one without a usable port is): an older member reads only the key, and its
 *       answer, made without the client's fields and stored under the old rules, could be another
 *       client's variant or a private answer. An older member's plain requests (the key alone) are
 *       served as a {@code GET} of {@code /<key>} without fields, and answered only with an answer
 *       any client may have (storable by a shared cache, without {@code Vary}); else refused, so the
 *       older member fails over to its own candidates or origin, as it would have.</li>
 * </ul>
 *
 * <p>The rule for the next version: a sender never sends a kind, code or field to a peer whose
 * version does not know it ({@link #agreed}); it sends what that version knows instead. And a
 * reader meeting what it does not know (a peer that broke the rule, or a stranger) ends that one
 * exchange without blaming the member: an unknown reply kind fails the forward as
 * {@link io.ketama.router.forwarding.ForwardRefusedException} (next candidate, no retry, the member's breaker not counted) and
 * the channel carries on; an unknown failure code is a {@code FAILED}; an unknown request kind is
 * answered {@code REFUSED} (or {@code FAILED} to version 1).
 */
public final class ChannelVersion {

    /** The version this release speaks. */
    public static final int CURRENT = 5;
    /** A peer that says nothing speaks this one. */
    public static final int UNSAID = 1;

    private ChannelVersion() {
    }

    /** The first version whose members may spill a request marked spillable. */
    public static final int SPILLS = 3;

    /** The first version whose members read a forward's trace context. */
    public static final int TRACES = 4;

    /** The first version whose members are sent requests for keys at all: they read the request's fields and send the answer's. */
    public static final int HTTP_CACHING = 5;

    /** What two members speak together: the lower of the two. */
    public static int agreed(int mine, int theirs) {
        return Math.min(mine, theirs);
    }

    /**
     * The version a peer says it speaks in {@code text} (an attribute, a header), or {@link #UNSAID}
     * where it says none or nothing readable: a peer that cannot say its version is treated as the
     * oldest, which is always safe to talk to.
     */
    public static int parse(String text) {
        if (text == null) {
            return UNSAID;
        }
        try {
            int v = Integer.parseInt(text.trim());
            return v >= 1 ? v : UNSAID;
        } catch (NumberFormatException e) {
            return UNSAID;
        }
    }

    /** The failure code to send for {@code failure} on a channel whose agreed version is {@code version}. */
    public static int code(RemoteFailure failure, int version) {
        return failure.since() <= version ? failure.code() : RemoteFailure.FAILED.code();
    }
}
