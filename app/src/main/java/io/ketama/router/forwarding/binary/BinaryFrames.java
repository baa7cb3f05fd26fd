package io.ketama.router.forwarding.binary;

import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * The binary channel's frames. Every frame is {@code int length} (of what follows), {@code int id}
 * (the request it belongs to, chosen by the sender of the request), {@code byte kind}, then:
 * <ul>
 *   <li>{@link #SERVE} (request): the key's bytes, one per char (ISO-8859-1);</li>
 *   <li>{@link #SERVE_SPILLABLE} (request, since version 3): as {@code SERVE}, and the member may answer
 *       {@link RemoteFailure#SPILLED} instead of serving it where it is past its bound; sent only to a
 *       member that publishes version 3 or later;</li>
 *   <li>{@link #SERVE_TRACED} (request, since version 4): {@code byte} flags (bit 0: spillable, as
 *       {@code SERVE_SPILLABLE}), {@code short} traceparent length, its ISO-8859-1 bytes, {@code short}
 *       tracestate length, its ISO-8859-1 bytes, then the key's bytes to the end (as {@code SERVE}); sent
 *       only to a member that publishes version 4 or later, and only for a forward that has a
 *       {@link TraceContext} (tracing on): an untraced forward is {@code SERVE} or {@code SERVE_SPILLABLE}
 *       as before, byte for byte;</li>
 *   <li>{@link #SERVED} (reply): {@code byte} cache status ordinal, {@code short} HTTP status,
 *       {@code short} content-type length, its ISO-8859-1 bytes, then the body to the end;</li>
 *   <li>{@link #REDIRECTED} (reply, an answer with a {@code Location}: a redirect): {@code byte} 0,
 *       then as {@link #SERVED} up to the content type, then {@code short} location length, its
 *       UTF-8 bytes, then the body to the end. (A member older than this kind read the 0 as a
 *       failure code it did not know; every member of {@link ChannelVersion} 1 knows it.)</li>
 *   <li>{@link #FAILED} (reply): {@code byte} {@link RemoteFailure} code, then a UTF-8 message;</li>
 *   <li>{@link #FETCH} (request, since version 5): {@code byte} flags (bit 0: spillable, bit 1: traced), where
 *       traced the trace context as {@code SERVE_TRACED} carries it, then the request the cache reads:
 *       {@code short}-length-prefixed ISO-8859-1 method, key and target, then its fields
 *       ({@link #appendFields}); sent only to a member that publishes version 5 or later;</li>
 *   <li>{@link #ANSWERED} (reply to a {@code FETCH}): {@code byte} cache status ordinal, {@code short} HTTP
 *       status, {@code long} the answer's age in ms when sent, {@code int} length of the fields that
 *       follow, the fields ({@link #appendFields}), then the body to the end;</li>
 *   <li>{@link #INVALIDATE} (request, since version 5): the key's bytes; answered {@link #INVALIDATED}
 *       (empty) once its stored answers are gone, or {@code FAILED};</li>
 *   <li>{@link #HELLO} (the first frame of a connection, where the members share a
 *       {@link ForwardSecret}): the secret's ASCII bytes; id 0, never answered unless refused;</li>
 *   <li>{@link #VERSION} (since version 2; the connecting member's first frame, after any
 *       {@code HELLO}, and the answer to it): {@code byte} the {@link ChannelVersion} its sender
 *       speaks; id {@link #CONTROL_ID}, which no request uses, so the {@code FAILED} a version-1
 *       member answers it with ("unknown request kind") belongs to no forward.</li>
 * </ul>
 * Big-endian throughout. Replies may come in any order.
 *
 * <p>What a reader takes from the network is bounded before it is kept: a member takes request
 * frames of at most {@link #MAX_REQUEST_FRAME} bytes, a forwarding member replies up to
 * {@link #MAX_FRAME} (each admitted from its head, before its body is kept) and every other frame
 * up to {@link #MAX_CONTROL_FRAME}. A length out of these bounds ends the connection.
 */
final class BinaryFrames {

    static final byte SERVE = 1;
    static final byte SERVED = 2;
    static final byte FAILED = 3;
    static final byte HELLO = 4;
    static final byte REDIRECTED = 5;
    static final byte VERSION = 6;
    static final byte SERVE_SPILLABLE = 7;
    static final byte SERVE_TRACED = 8;
    static final byte FETCH = 9;
    static final byte ANSWERED = 10;
    static final byte INVALIDATE = 11;
    static final byte INVALIDATED = 12;
    /** {@link #FETCH}'s flag: a trace context follows the flags. */
    static final int FLAG_TRACED = 2;
    /** {@link #SERVE_TRACED}'s flag: the receiver may spill it. */
    static final int FLAG_SPILLABLE = 1;
    /** The id of frames that belong to no request ({@link #VERSION}); requests count up from 0. */
    static final int CONTROL_ID = -1;
    /** Bytes of length, id and kind. */
    static final int HEADER = 9;
    /** Largest frame either side accepts (length field); a longer one ends the connection. */
    static final int MAX_FRAME = 256 * 1024 * 1024;
    /**
     * Largest body a reply carries: {@link #MAX_FRAME} less 256 KiB, more than the rest of a reply
     * can take (id, kind, cache status, HTTP status, a content type and a {@code Location} of at
     * most 65,535 bytes each by their length fields: 131,083 bytes), so no reply frame is ever
     * longer than {@link #MAX_FRAME}. {@code ketama.router.origin.max-body-bytes} is held to it.
     */
    static final int MAX_BODY = MAX_FRAME - 256 * 1024;
    /**
     * Largest request frame a member takes (its length field): a key of up to 8 KiB (the longest a
     * client may send) or a {@link #HELLO}, with room to spare. A member holds at most this much of
     * one connection's incomplete request, whoever is on the other end; a longer one ends the
     * connection.
     */
    static final int MAX_REQUEST_FRAME = 64 * 1024;
    /** Largest frame other than a reply a forwarding member takes ({@link #FAILED}, {@link #VERSION}, an unknown kind). */
    static final int MAX_CONTROL_FRAME = 64 * 1024;
    /**
     * A reply's bytes are kept in a buffer of its whole frame's size only once its body is admitted,
     * or when its frame is no longer than this (a content type of up to 64 KiB lies before the body's
     * length is known): a length field alone never makes a reader allocate more.
     */
    static final int EAGER_BYTES = 64 * 1024 + 32;
    /**
     * Largest fields an {@link #ANSWERED} frame carries (its fields' length field): an origin's header
     * block is at most 1 MiB ({@code ketama.router.origin.max-header-bytes}), which takes at most 128 KiB
     * more here (2 bytes more a line, at most 65,535 lines), with room for the fields a member adds. A
     * reply's admission counts its body, so its fields are bounded here: a reader never keeps more of an
     * answer's fields than any answer has, and a member never sends more ({@link #fitsAnswered}).
     */
    static final int MAX_ANSWER_FIELDS = 1024 * 1024 + 256 * 1024;
    /** Bytes of an {@link #ANSWERED} frame's head after its header: cache status, HTTP status, age, fields' length. */
    private static final int ANSWERED_HEAD = 1 + 2 + 8 + 4;
    /** The fewest bytes one field takes in a frame ({@link #appendFields}): a name's length, a name of one byte, a value's length. */
    private static final int SMALLEST_FIELD = 2 + 1 + 4;

    private static final CacheStatus[] STATUSES = CacheStatus.values();

    private BinaryFrames() {
    }

    static Buffer serve(int id, String key) {
        return serve(id, key, SERVE);
    }

    /** A request of {@code kind}, {@link #SERVE} or {@link #SERVE_SPILLABLE}. */
    static Buffer serve(int id, String key, byte kind) {
        Buffer b = Buffer.buffer(HEADER + key.length());
        b.appendInt(5 + key.length()).appendInt(id).appendByte(kind);
        return b.appendString(key, "ISO-8859-1");
    }

    /** A {@link #SERVE_TRACED} request: {@code key} carrying {@code trace}, {@code spillable} or not. */
    static Buffer serveTraced(int id, String key, boolean spillable, TraceContext trace) {
        String parent = trace.traceparent();
        String state = trace.tracestate();
        int length = 5 + 1 + 2 + parent.length() + 2 + state.length() + key.length();
        Buffer b = Buffer.buffer(4 + length);
        b.appendInt(length).appendInt(id).appendByte(SERVE_TRACED)
                .appendByte((byte) (spillable ? FLAG_SPILLABLE : 0))
                .appendShort((short) parent.length()).appendString(parent, "ISO-8859-1")
                .appendShort((short) state.length()).appendString(state, "ISO-8859-1");
        return b.appendString(key, "ISO-8859-1");
    }

    /**
     * What a {@link #SERVE_TRACED} frame at {@code start} of {@code length} asks.
     *
     * @return null where its length fields run past the frame (a malformed request)
     */
    static TracedRequest tracedRequest(Buffer frames, int start, int length) {
        int end = start + 4 + length;
        int p = start + HEADER;
        if (p + 3 > end) {
            return null;
        }
        int flags = frames.getByte(p);
        int parentLength = frames.getShort(p + 1) & 0xFFFF;
        int s = p + 3 + parentLength;
        if (s + 2 > end) {
            return null;
        }
        int stateLength = frames.getShort(s) & 0xFFFF;
        int k = s + 2 + stateLength;
        if (k > end) {
            return null;
        }
        TraceContext trace = new TraceContext(frames.getString(p + 3, s, "ISO-8859-1"), frames.getString(s + 2, k, "ISO-8859-1"));
        String key = k == end ? null : frames.getString(k, end, "ISO-8859-1");
        return new TracedRequest(key, (flags & FLAG_SPILLABLE) != 0, trace);
    }

    /** A {@link #SERVE_TRACED} request read: its key (null: empty), whether spillable, its trace context. */
    record TracedRequest(String key, boolean spillable, TraceContext trace) {
    }

    /**
     * A {@link #FETCH} request for {@code request}, {@code spillable} or not, carrying {@code trace}
     * where it is not null.
     */
    static Buffer fetch(int id, KeyRequest request, boolean spillable, TraceContext trace) {
        CacheRequest r = request.request();
        Buffer b = Buffer.buffer(256 + request.key().length() + request.target().length());
        b.appendInt(0).appendInt(id).appendByte(FETCH)
                .appendByte((byte) ((spillable ? FLAG_SPILLABLE : 0) | (trace != null ? FLAG_TRACED : 0)));
        if (trace != null) {
            appendShortString(b, trace.traceparent());
            appendShortString(b, trace.tracestate());
        }
        appendShortString(b, r.method());
        appendShortString(b, request.key());
        appendShortString(b, request.target());
        appendFields(b, r.headers());
        return b.setInt(0, b.length() - 4);
    }

    /** A {@link #FETCH} request read: what it asks, whether spillable, its trace context (null: none). */
    record Fetch(KeyRequest request, boolean spillable, TraceContext trace) {
    }

    /**
     * What a {@link #FETCH} frame at {@code start} of {@code length} asks.
     *
     * @throws IllegalArgumentException where its length fields run past the frame or the key is empty
     *                                  (a malformed request: refused, the connection carries on)
     */
    static Fetch fetchRequest(Buffer frames, int start, int length) {
        Cursor c = new Cursor(frames, start + HEADER, start + 4 + length);
        int flags = c.u8();
        TraceContext trace = null;
        if ((flags & FLAG_TRACED) != 0) {
            trace = new TraceContext(c.shortString(), c.shortString());
        }
        String method = c.shortString();
        String key = c.shortString();
        String target = c.shortString();
        HttpFields fields = c.fields();
        if (key.isEmpty() || method.isEmpty() || !target.startsWith("/")) {
            throw new IllegalArgumentException("a request needs a method, a key and a target starting with /");
        }
        return new Fetch(new KeyRequest(key, target, new CacheRequest(method, fields)), (flags & FLAG_SPILLABLE) != 0, trace);
    }

    /** An {@link #ANSWERED} reply carrying {@code served}, aged as at {@code now} (epoch ms). */
    static Buffer answered(int id, Served served, long now) {
        OriginAnswer answer = served.answer();
        Buffer b = Buffer.buffer(64 + answer.body().length + 32 * answer.headers().size());
        b.appendInt(0).appendInt(id).appendByte(ANSWERED)
                .appendByte((byte) served.cache().ordinal())
                .appendShort((short) answer.status())
                .appendLong(answer.ageMillis(now))
                .appendInt(0);
        int fieldsStart = b.length();
        appendFields(b, answer.headers());
        b.setInt(fieldsStart - 4, b.length() - fieldsStart);
        b.appendBytes(answer.body());
        return b.setInt(0, b.length() - 4);
    }

    /**
     * The {@link Served} of an {@link #ANSWERED} frame, served by {@code member}, arrived at
     * {@code now}, holding {@code heldBytes} taken from {@code budget} for its body (none where
     * {@code budget} is null).
     *
     * @throws IllegalArgumentException where the frame cannot be read (lengths past it, a cache status or
     *                                  HTTP status out of range): the channel cannot be trusted further
     */
    static Served answered(Buffer frames, int start, int length, String member, long now, BodyBudget budget, long heldBytes) {
        Cursor c = new Cursor(frames, start + HEADER, start + 4 + length);
        int ordinal = c.u8();
        if (ordinal >= STATUSES.length) {
            throw new IllegalArgumentException("an answer of cache status " + ordinal + ", which this member does not know");
        }
        CacheStatus cache = STATUSES[ordinal];
        int status = c.u16();
        long age = Math.max(0, c.i64());
        int fieldsLength = c.i32();
        int fieldsEnd = c.position() + fieldsLength;
        HttpFields fields = c.fields();
        if (c.position() != fieldsEnd) {
            throw new IllegalArgumentException("the fields of an answer take " + (c.position() - fieldsEnd + fieldsLength)
                    + " bytes where its length field says " + fieldsLength);
        }
        byte[] body = frames.getBytes(fieldsEnd, start + 4 + length);
        return served(new OriginAnswer(status, fields, body, now, age), cache, member, budget, heldBytes);
    }

    static Buffer invalidate(int id, String key) {
        Buffer b = Buffer.buffer(HEADER + key.length());
        b.appendInt(5 + key.length()).appendInt(id).appendByte(INVALIDATE);
        return b.appendString(key, "ISO-8859-1");
    }

    static Buffer invalidated(int id) {
        return Buffer.buffer(HEADER).appendInt(5).appendInt(id).appendByte(INVALIDATED);
    }

    /**
     * Appends {@code fields}: {@code short} count, then each as {@code short}-length-prefixed name and
     * {@code int}-length-prefixed value, both ISO-8859-1 (one byte a char, as Netty reads them).
     */
    static void appendFields(Buffer b, HttpFields fields) {
        b.appendShort((short) fields.size());
        for (int i = 0; i < fields.size(); i++) {
            appendShortString(b, fields.name(i));
            String value = fields.value(i);
            b.appendInt(value.length()).appendString(value, "ISO-8859-1");
        }
    }

    private static void appendShortString(Buffer b, String s) {
        if (s.length() > 0xFFFF) {
            throw new IllegalArgumentException("a string of " + s.length() + " chars does not fit a 16-bit length");
        }
        b.appendShort((short) s.length()).appendString(s, "ISO-8859-1");
    }

    /** Reads a frame's fields in order, never past its end. */
    private static final class Cursor {
        private final Buffer b;
        private final int end;
        private int p;

        Cursor(Buffer b, int p, int end) {
            this.b = b;
            this.p = p;
            this.end = end;
        }

        int position() {
            return p;
        }

        private void need(int bytes) {
            if (bytes < 0 || bytes > end - p) {
                throw new IllegalArgumentException("a length field runs past the frame (" + bytes + " bytes at " + p
                        + ", the frame ends at " + end + ")");
            }
        }

        int u8() {
            need(1);
            return b.getByte(p++) & 0xFF;
        }

        int u16() {
            need(2);
            int v = b.getShort(p) & 0xFFFF;
            p += 2;
            return v;
        }

        int i32() {
            need(4);
            int v = b.getInt(p);
            p += 4;
            return v;
        }

        long i64() {
            need(8);
            long v = b.getLong(p);
            p += 8;
            return v;
        }

        String shortString() {
            return string(u16());
        }

        String string(int length) {
            need(length);
            String s = b.getString(p, p + length, "ISO-8859-1");
            p += length;
            return s;
        }

        HttpFields fields() {
            int count = u16();
            // a count is a claim: room for no more fields than the rest of the frame can hold
            HttpFields.Builder fields = HttpFields.builder(Math.min(count, (end - p) / SMALLEST_FIELD));
            for (int i = 0; i < count; i++) {
                String name = shortString();
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("a field without a name");
                }
                fields.add(name, string(i32()));
            }
            return fields.build();
        }
    }

    static Buffer served(int id, Served served) {
        OriginAnswer answer = served.answer();
        if (answer.location() != null) {
            return redirected(id, served);
        }
        String type = answer.contentType();
        int length = 5 + 1 + 2 + 2 + type.length() + answer.body().length;
        Buffer b = Buffer.buffer(4 + length);
        b.appendInt(length).appendInt(id).appendByte(SERVED)
                .appendByte((byte) served.cache().ordinal())
                .appendShort((short) answer.status())
                .appendShort((short) type.length())
                .appendString(type, "ISO-8859-1");
        return b.appendBytes(answer.body());
    }

    private static Buffer redirected(int id, Served served) {
        OriginAnswer answer = served.answer();
        String type = answer.contentType();
        byte[] location = answer.location().getBytes(StandardCharsets.UTF_8);
        int length = 5 + 1 + 1 + 2 + 2 + type.length() + 2 + location.length + answer.body().length;
        Buffer b = Buffer.buffer(4 + length);
        b.appendInt(length).appendInt(id).appendByte(REDIRECTED)
                .appendByte((byte) 0)
                .appendByte((byte) served.cache().ordinal())
                .appendShort((short) answer.status())
                .appendShort((short) type.length())
                .appendString(type, "ISO-8859-1")
                .appendShort((short) location.length)
                .appendBytes(location);
        return b.appendBytes(answer.body());
    }

    /**
     * Whether a {@link #SERVED} or {@link #REDIRECTED} frame can carry {@code served}: its body
     * within {@link #MAX_BODY}, its content type within its length field. A member whose origin is
     * bounded ({@code ketama.router.origin.max-body-bytes}) never serves one that does not fit.
     */
    static boolean fits(Served served) {
        return served.answer().body().length <= MAX_BODY && served.answer().contentType().length() <= 0xFFFF;
    }

    /**
     * Whether an {@link #ANSWERED} frame of {@code served} stays within {@link #MAX_FRAME}: its body
     * within {@link #MAX_BODY} and its fields within {@link #MAX_ANSWER_FIELDS} and the rest (an origin's
     * header block is bounded far below: {@code ketama.router.origin.max-header-bytes}, at most 1 MiB).
     */
    static boolean fitsAnswered(Served served) {
        OriginAnswer answer = served.answer();
        long fieldBytes = 2;
        HttpFields fields = answer.headers();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.name(i).length() > 0xFFFF) {
                return false;
            }
            fieldBytes += 6L + fields.name(i).length() + fields.value(i).length();
        }
        return fields.size() <= 0xFFFF && fieldBytes <= MAX_ANSWER_FIELDS && answer.body().length <= MAX_BODY
                && HEADER + ANSWERED_HEAD + fieldBytes + answer.body().length <= MAX_FRAME;
    }

    /** A failure any member can read (its code as {@link ChannelVersion} 1 knows it). */
    static Buffer failed(int id, RemoteFailure failure, String message) {
        return failed(id, failure, message, ChannelVersion.UNSAID);
    }

    /** A failure for a peer that speaks {@code version}: a code newer than it is sent as {@link RemoteFailure#FAILED}. */
    static Buffer failed(int id, RemoteFailure failure, String message, int version) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        Buffer b = Buffer.buffer(HEADER + 1 + text.length);
        b.appendInt(5 + 1 + text.length).appendInt(id).appendByte(FAILED).appendByte((byte) ChannelVersion.code(failure, version));
        return b.appendBytes(text);
    }

    /** Says that its sender speaks {@code version}. */
    static Buffer version(int version) {
        return Buffer.buffer(HEADER + 1).appendInt(6).appendInt(CONTROL_ID).appendByte(VERSION).appendByte((byte) version);
    }

    /** The version a {@link #VERSION} frame says; 0 where it says none (an empty frame). */
    static int versionOf(Buffer frames, int start, int length) {
        return length < 6 ? 0 : frames.getByte(start + HEADER) & 0xFF;
    }

    /** Whether {@code kind} is a reply that carries a body ({@link #SERVED}, {@link #REDIRECTED}, {@link #ANSWERED}). */
    static boolean isReply(byte kind) {
        return kind == SERVED || kind == REDIRECTED || kind == ANSWERED;
    }

    static Buffer hello(ForwardSecret secret) {
        byte[] bytes = secret.bytes();
        return Buffer.buffer(HEADER + bytes.length).appendInt(5 + bytes.length).appendInt(0).appendByte(HELLO).appendBytes(bytes);
    }

    /** The secret a {@link #HELLO} frame shows. */
    static byte[] secret(Buffer frames, int start, int length) {
        return frames.getBytes(start + HEADER, start + 4 + length);
    }

    /** The key of a {@link #SERVE} frame at {@code start} (its length field) of {@code length}. */
    static String key(Buffer frames, int start, int length) {
        return frames.getString(start + HEADER, start + 4 + length, "ISO-8859-1");
    }

    /** The {@link Served} of a {@link #SERVED} frame, served by {@code member}. */
    static Served served(Buffer frames, int start, int length, String member) {
        return served(frames, start, length, member, null, 0);
    }

    /**
     * The {@link Served} of a {@link #SERVED} frame, served by {@code member}, holding
     * {@code heldBytes} taken from {@code budget} for its body (none where {@code budget} is null).
     */
    static Served served(Buffer frames, int start, int length, String member, BodyBudget budget, long heldBytes) {
        int p = start + HEADER;
        CacheStatus cache = STATUSES[frames.getByte(p)];
        int status = frames.getShort(p + 1) & 0xFFFF;
        int typeLength = frames.getShort(p + 3) & 0xFFFF;
        String type = frames.getString(p + 5, p + 5 + typeLength, "ISO-8859-1");
        byte[] body = frames.getBytes(p + 5 + typeLength, start + 4 + length);
        return served(new OriginAnswer(status, type, body), cache, member, budget, heldBytes);
    }

    /** The {@link Served} of a {@link #REDIRECTED} frame, served by {@code member}. */
    static Served redirected(Buffer frames, int start, int length, String member) {
        return redirected(frames, start, length, member, null, 0);
    }

    /** As {@link #served(Buffer, int, int, String, BodyBudget, long)}, of a {@link #REDIRECTED} frame. */
    static Served redirected(Buffer frames, int start, int length, String member, BodyBudget budget, long heldBytes) {
        int p = start + HEADER + 1;
        CacheStatus cache = STATUSES[frames.getByte(p)];
        int status = frames.getShort(p + 1) & 0xFFFF;
        int typeLength = frames.getShort(p + 3) & 0xFFFF;
        String type = frames.getString(p + 5, p + 5 + typeLength, "ISO-8859-1");
        int l = p + 5 + typeLength;
        int locationLength = frames.getShort(l) & 0xFFFF;
        String location = frames.getString(l + 2, l + 2 + locationLength, "UTF-8");
        byte[] body = frames.getBytes(l + 2 + locationLength, start + 4 + length);
        return served(new OriginAnswer(status, type, body, location), cache, member, budget, heldBytes);
    }

    private static Served served(OriginAnswer answer, CacheStatus cache, String member, BodyBudget budget, long heldBytes) {
        return budget == null ? new Served(answer, cache, member) : Served.received(answer, cache, member, budget, heldBytes);
    }

    static RemoteFailure failure(Buffer frames, int start) {
        return RemoteFailure.ofCode(frames.getByte(start + HEADER));
    }

    static String failureMessage(Buffer frames, int start, int length) {
        return frames.getString(start + HEADER + 1, start + 4 + length, "UTF-8");
    }

    /**
     * The body length of the {@link #SERVED}, {@link #REDIRECTED} or {@link #ANSWERED} frame at
     * {@code start} (its length field) of {@code length}, of which {@code available} bytes are at hand:
     * known from the frame's length and the length fields before the body (a redirect's {@code Location}
     * need not have arrived, its content type must; an answer's fields need not have, their length
     * must); -1 until they have, or for a frame of another kind.
     *
     * @throws IllegalStateException where an {@link #ANSWERED} frame's fields length is negative, runs
     *                               past the frame or past {@link #MAX_ANSWER_FIELDS}: no body length can
     *                               be told, and the frames after it cannot be trusted
     */
    static long replyBodyLength(Buffer frames, int start, int length, int available) {
        if (available < HEADER) {
            return -1;
        }
        byte kind = frames.getByte(start + 8);
        int p = start + HEADER;
        if (kind == ANSWERED) {
            if (length < 5 + ANSWERED_HEAD || p + ANSWERED_HEAD > start + available) {
                return -1; // not arrived yet, or a frame too short to hold the head (read whole, then refused)
            }
            int fieldsLength = frames.getInt(p + ANSWERED_HEAD - 4);
            long body = start + 4L + length - (p + (long) ANSWERED_HEAD + fieldsLength);
            if (fieldsLength < 0 || fieldsLength > MAX_ANSWER_FIELDS || body < 0) {
                throw new IllegalStateException("an answer whose fields take " + fieldsLength + " bytes in a frame of " + length
                        + " bytes (at most " + MAX_ANSWER_FIELDS + " bytes of fields are taken)");
            }
            return body;
        }
        if (kind == REDIRECTED) {
            p++;
        } else if (kind != SERVED) {
            return -1;
        }
        // cache status, HTTP status, content-type length
        if (p + 5 > start + available) {
            return -1;
        }
        int typeLength = frames.getShort(p + 3) & 0xFFFF;
        int head = p + 5 + typeLength;
        if (kind == REDIRECTED) {
            if (head + 2 > start + available) {
                return -1;
            }
            head += 2 + (frames.getShort(head) & 0xFFFF);
        }
        return start + 4L + length - head;
    }

    /**
     * Cuts a byte stream into frames: feed it what the socket reads, it calls back once per whole
     * frame with the buffer, the frame's start and its length field. With a {@link ReplyAdmission},
     * each {@link #SERVED}, {@link #REDIRECTED} or {@link #ANSWERED} frame is put to it once, as soon as
     * the length fields before its body have arrived (at most 64 KiB and 16 bytes of it: a content type
     * of up to 64 KiB lies before the last of them; an answer's fields' length comes before its
     * fields, which are bounded by {@link #MAX_ANSWER_FIELDS}), before any of its body is kept: a body too large, or
     * one this member has no room for, is refused there, and the frame's remaining bytes are let go
     * as they arrive, never kept, so the connection carries the frames after it. Not thread-safe:
     * one per connection, fed on its event loop.
     *
     * <p>What it holds is bounded by what it was made for, never by what a length field claims: a
     * frame longer than its {@code maxFrame} (or, with an admission, a frame other than a reply
     * longer than {@link #MAX_CONTROL_FRAME}, or an answer whose fields' length its frame cannot hold)
     * ends the stream with an {@link IllegalStateException};
     * a reply longer than {@link #EAGER_BYTES} gets a buffer of its size only once admitted.
     */
    static final class Reader {

        interface FrameHandler {
            void frame(Buffer buffer, int start, int length, int id, byte kind);
        }

        /** Told of a reply whose body is past the reader's limit; its bytes are not kept. */
        interface RefusalHandler {
            void refused(int id, long bodyBytes);
        }

        /**
         * Decides, once per reply frame and before any of its body is kept, whether the frame is
         * kept: the frame then reaches the {@link FrameHandler} whole (unless the stream ends
         * first); refused, its bytes are let go as they arrive and it reaches no one.
         */
        interface ReplyAdmission {
            boolean admit(int id, long bodyBytes);
        }

        private final FrameHandler handler;
        /** Null: every frame is kept. */
        private final ReplyAdmission admission;
        /** The longest length field taken. */
        private final int maxFrame;
        private Buffer rest;
        /** The capacity {@link #rest} was made with. */
        private int restCapacity;
        /** Bytes of a refused frame still to come, let go as they arrive. */
        private long skipping;
        /** Whether the frame at the head of {@link #rest} was admitted already (it is asked once). */
        private boolean admitted;

        /** A reader that keeps every frame up to {@link #MAX_FRAME}: for a stream whose sender is trusted. */
        Reader(FrameHandler handler) {
            this(handler, MAX_FRAME);
        }

        /** A reader that keeps every frame up to {@code maxFrame} (a member's requests: {@link #MAX_REQUEST_FRAME}). */
        Reader(FrameHandler handler, int maxFrame) {
            this(handler, null, maxFrame);
        }

        /** A reader that refuses reply bodies larger than {@code maxReplyBody}, telling {@code refusals}. */
        Reader(FrameHandler handler, long maxReplyBody, RefusalHandler refusals) {
            this(handler, (id, bodyBytes) -> {
                if (bodyBytes <= maxReplyBody) {
                    return true;
                }
                refusals.refused(id, bodyBytes);
                return false;
            });
        }

        /**
         * A reader that keeps only the reply frames {@code admission} admits, up to {@link #MAX_FRAME},
         * and every other frame up to {@link #MAX_CONTROL_FRAME}.
         */
        Reader(FrameHandler handler, ReplyAdmission admission) {
            this(handler, admission, MAX_FRAME);
        }

        private Reader(FrameHandler handler, ReplyAdmission admission, int maxFrame) {
            this.handler = handler;
            this.admission = admission;
            this.maxFrame = maxFrame;
        }

        /**
         * @throws IllegalStateException when a frame announces a length out of range (the
         *                               connection is then unusable)
         */
        void feed(Buffer data) {
            int from = 0;
            if (skipping > 0) { // rest is null while a refused frame goes by
                from = (int) Math.min(skipping, data.length());
                skipping -= from;
                if (from == data.length()) {
                    return;
                }
            }
            Buffer buffer = data;
            if (rest != null) {
                buffer = rest.appendBuffer(data);
                restCapacity = Math.max(restCapacity, buffer.length()); // grown by the append, if at all
            }
            int pos = from;
            int end = buffer.length();
            while (end - pos >= 4) {
                int length = buffer.getInt(pos);
                if (length < 5 || length > maxFrame) {
                    rest = null;
                    throw new IllegalStateException("frame length " + length + " out of range 5.." + maxFrame);
                }
                if (admission != null && !admitted) {
                    if (end - pos >= HEADER && length > MAX_CONTROL_FRAME && !isReply(buffer.getByte(pos + 8))) {
                        rest = null;
                        throw new IllegalStateException("a frame of kind " + buffer.getByte(pos + 8) + " of " + length
                                + " bytes: only a reply may be longer than " + MAX_CONTROL_FRAME);
                    }
                    long body = replyBodyLength(buffer, pos, length, end - pos);
                    if (body >= 0) {
                        if (!admission.admit(buffer.getInt(pos + 4), body)) {
                            long after = pos + 4L + length;
                            if (after <= end) {
                                pos = (int) after;
                                continue;
                            }
                            skipping = after - end;
                            pos = end;
                            break;
                        }
                        admitted = true;
                    }
                }
                if (end - pos - 4 < length) {
                    break;
                }
                admitted = false; // the next frame is asked afresh
                handler.frame(buffer, pos, length, buffer.getInt(pos + 4), buffer.getByte(pos + 8));
                pos += 4 + length;
            }
            rest = pos == end ? null : rest(buffer, pos, end);
        }

        /** Bytes this reader holds now of a frame not yet whole (the capacity of its buffer). */
        int heldBytes() {
            return rest == null ? 0 : Math.max(restCapacity, rest.length());
        }

        /**
         * What is kept of an incomplete frame until the next read. A frame of 16 MiB arrives in
         * some 256 reads: copying what arrived so far at each of them would move 2 GiB, so the part
         * already held in a buffer of its own is kept as it is, and a new part is copied once into a
         * buffer sized for its whole frame (known once its length field is in), which the next reads
         * fill without growing it. A reply longer than {@link #EAGER_BYTES} gets that buffer only
         * once admitted; until then only what arrived is kept.
         */
        private Buffer rest(Buffer buffer, int pos, int end) {
            int have = end - pos;
            int want = have;
            if (have >= 4) {
                int whole = 4 + buffer.getInt(pos);
                if (admission == null || admitted || whole <= EAGER_BYTES) {
                    want = Math.max(whole, have);
                }
            }
            if (pos == 0 && buffer == rest && restCapacity >= want) {
                return rest;
            }
            restCapacity = want;
            return Buffer.buffer(want).appendBuffer(buffer, pos, have);
        }
    }
}
