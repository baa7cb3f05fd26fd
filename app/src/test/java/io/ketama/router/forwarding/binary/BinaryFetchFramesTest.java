package io.ketama.router.forwarding.binary;

import static io.ketama.router.forwarding.ChannelTests.TRACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Served;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frames of channel version 5 (HTTP caching), read back without a socket: a {@link BinaryFrames#FETCH}
 * carries the method, key, target and every field of the client's request byte for byte (obs-text
 * included), with its flags and trace; an {@link BinaryFrames#ANSWERED} reply carries the answer's
 * status, fields, body and age (the receiver's arrival becomes the answer's response time); a FETCH whose
 * lengths run past its frame, or that lacks a key, a method or a target starting with {@code /}, is not
 * read ({@link IllegalArgumentException}: the member refuses it and carries on); the reply admission
 * learns an ANSWERED frame's body length from its head however the frame is cut, byte by byte included;
 * an ANSWERED head whose fields length the frame cannot hold ends the stream, holding nothing more.
 */
class BinaryFetchFramesTest {

    /** Every char a field value may carry on the wire: tab, visible ASCII and obs-text (0x80-0xFF). */
    static final String OBS_TEXT;

    static {
        StringBuilder b = new StringBuilder("\t");
        for (char c = 0x20; c <= 0xFF; c++) {
            if (c != 0x7F) {
                b.append(c);
            }
        }
        OBS_TEXT = b.toString();
    }

    /** A key of every byte. */
    static final String EVERY_BYTE;

    static {
        StringBuilder b = new StringBuilder("k-");
        for (int c = 0; c < 256; c++) {
            b.append((char) c);
        }
        EVERY_BYTE = b.toString();
    }

    /** A client's fields as a cache carries them: repeated lines apart, names in their own case, obs-text values. */
    static final HttpFields CLIENT_FIELDS = HttpFields.of(
            "Accept", "text/html",
            "accept", "application/json;q=0.5",
            "X-Obs", OBS_TEXT,
            "Accept-Language", "fr-CH, fr;q=0.9, \u00e9\u00ff",
            "Cookie", "a=1; b=\u0080\u00ff",
            "X-Empty", "");

    private static KeyRequest request(String method) {
        return new KeyRequest(EVERY_BYTE, "/path/\u00e9?q=\u00ff&x=1", new CacheRequest(method, CLIENT_FIELDS));
    }

    /** The frames {@code stream} holds, read by a member's reader. */
    private static List<BinaryFrames.Fetch> fetches(Buffer stream) {
        List<BinaryFrames.Fetch> read = new ArrayList<>();
        new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
            assertThat(kind).isEqualTo(BinaryFrames.FETCH);
            read.add(BinaryFrames.fetchRequest(buffer, start, length));
        }, BinaryFrames.MAX_REQUEST_FRAME).feed(stream);
        return read;
    }

    /**
     * Asserts that {@code actual} asks what {@code expected} asks, byte for byte: key, target, method and
     * every field line in order, names in their own case ({@link HttpFields#equals} ignores it).
     */
    static void assertSameRequest(KeyRequest actual, KeyRequest expected) {
        assertThat(actual.key()).isEqualTo(expected.key());
        assertThat(actual.target()).isEqualTo(expected.target());
        assertThat(actual.request().method()).isEqualTo(expected.request().method());
        assertSameFields(actual.request().headers(), expected.request().headers());
    }

    /** Asserts that {@code actual} holds the lines of {@code expected}, in order, byte for byte. */
    static void assertSameFields(HttpFields actual, HttpFields expected) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < actual.size(); i++) {
            lines.add(actual.name(i) + ": " + actual.value(i));
        }
        List<String> expectedLines = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            expectedLines.add(expected.name(i) + ": " + expected.value(i));
        }
        assertThat(lines).containsExactlyElementsOf(expectedLines);
    }

    @Test
    void aFetchCarriesMethodKeyTargetAndEveryClientFieldByteForByteWithItsFlagsAndTrace() {
        KeyRequest head = request("HEAD");
        KeyRequest get = request("GET");
        Buffer stream = Buffer.buffer()
                .appendBuffer(BinaryFrames.fetch(1, head, true, TRACE))
                .appendBuffer(BinaryFrames.fetch(2, get, false, null))
                .appendBuffer(BinaryFrames.fetch(3, KeyRequest.of("plain"), true, null));
        List<BinaryFrames.Fetch> read = fetches(stream);
        assertThat(read).hasSize(3);
        assertSameRequest(read.get(0).request(), head);
        assertThat(read.get(0).spillable()).isTrue();
        assertThat(read.get(0).trace()).isEqualTo(TRACE);
        assertSameRequest(read.get(1).request(), get);
        assertThat(read.get(1).spillable()).isFalse();
        assertThat(read.get(1).trace()).isNull();
        assertSameRequest(read.get(2).request(), KeyRequest.of("plain"));
        assertThat(read.get(2).spillable()).isTrue();
        assertThat(read.get(2).trace()).isNull();
        assertThat(read.get(0).request().request().headers().value(2)).isEqualTo(OBS_TEXT);
    }

    @Test
    void anAnsweredReplyCarriesStatusFieldsBodyAndAgeAndIsAgedFromItsArrival() {
        HttpFields fields = HttpFields.of("Content-Type", "text/plain; charset=ISO-8859-1", "Cache-Control", "max-age=60",
                "Vary", "Accept", "X-Obs", OBS_TEXT, "Set-Cookie", "a=1", "Set-Cookie", "b=2");
        long sent = 1_000_000_000_000L;
        // arrived at the owner 5 s before it sent it, 2 s old then
        OriginAnswer answer = new OriginAnswer(203, fields, new byte[] {0, 1, (byte) 0xFF}, sent - 5_000, 2_000);
        Served served = new Served(answer, CacheStatus.REVALIDATED, "owner");
        Buffer frame = BinaryFrames.answered(41, served, sent);
        assertThat(BinaryFrames.fitsAnswered(served)).isTrue();

        long arrived = sent + 123_456; // another clock: never compared with the owner's
        BodyBudget budget = new BodyBudget(1 << 20);
        assertThat(budget.take(3)).isTrue();
        List<Served> read = new ArrayList<>();
        new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
            assertThat(id).isEqualTo(41);
            assertThat(kind).isEqualTo(BinaryFrames.ANSWERED);
            read.add(BinaryFrames.answered(buffer, start, length, "m", arrived, budget, 3));
        }, (id, body) -> body == 3).feed(frame);
        assertThat(read).hasSize(1);
        Served back = read.get(0);
        assertThat(back.cache()).isEqualTo(CacheStatus.REVALIDATED);
        assertThat(back.servedBy()).isEqualTo("m");
        assertThat(back.answer()).isEqualTo(answer); // status, fields, body
        assertSameFields(back.answer().headers(), fields);
        assertThat(back.answer().headers().value(3)).isEqualTo(OBS_TEXT);
        assertThat(back.answer().headers().all("Set-Cookie")).containsExactly("a=1", "b=2");
        assertThat(back.answer().initialAgeMillis()).as("its age when sent: 2 s then 5 s on the owner").isEqualTo(7_000);
        assertThat(back.answer().responseTime()).as("aged from its arrival here").isEqualTo(arrived);
        assertThat(back.heldBytes()).isEqualTo(3);
        back.release();
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void anAnsweredReplyWithoutFieldsOrBodyReadsBack() {
        Served served = new Served(new OriginAnswer(304, HttpFields.EMPTY, new byte[0], 0, 0), CacheStatus.MISS, "o");
        Buffer frame = BinaryFrames.answered(1, served, 0);
        assertThat(BinaryFrames.replyBodyLength(frame, 0, frame.getInt(0), frame.length())).isZero();
        Served back = BinaryFrames.answered(frame, 0, frame.getInt(0), "o", 10, null, 0);
        assertThat(back).isEqualTo(served);
        assertThat(back.answer().initialAgeMillis()).isZero();
    }

    /** {@code frame}'s first {@code bytes} bytes as a frame of its own (its length field saying so). */
    private static Buffer cut(Buffer frame, int bytes) {
        Buffer b = frame.getBuffer(0, bytes);
        b.setInt(0, bytes - 4);
        return b;
    }

    @Test
    void aFetchWhoseLengthsRunPastItsFrameIsNotReadWhereverItIsCut() {
        Buffer whole = BinaryFrames.fetch(5, request("GET"), true, TRACE);
        assertSameRequest(BinaryFrames.fetchRequest(whole, 0, whole.getInt(0)).request(), request("GET"));
        for (int bytes = BinaryFrames.HEADER; bytes < whole.length(); bytes++) {
            Buffer frame = cut(whole, bytes);
            assertThatThrownBy(() -> BinaryFrames.fetchRequest(frame, 0, frame.getInt(0))).as("cut after %d bytes", bytes)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** A FETCH frame written field by field: flags, method, key, target, then {@code fields} as given. */
    private static Buffer fetch(String method, String key, String target, Buffer fields) {
        Buffer b = Buffer.buffer().appendInt(0).appendInt(9).appendByte(BinaryFrames.FETCH).appendByte((byte) 0)
                .appendShort((short) method.length()).appendString(method, "ISO-8859-1")
                .appendShort((short) key.length()).appendString(key, "ISO-8859-1")
                .appendShort((short) target.length()).appendString(target, "ISO-8859-1")
                .appendBuffer(fields);
        return b.setInt(0, b.length() - 4);
    }

    private static final Buffer NO_FIELDS = Buffer.buffer().appendShort((short) 0);

    @Test
    void aFetchWithoutAKeyAMethodOrATargetStartingWithASlashIsNotRead() {
        Buffer good = fetch("GET", "k", "/k", NO_FIELDS);
        assertSameRequest(BinaryFrames.fetchRequest(good, 0, good.getInt(0)).request(), KeyRequest.of("k"));
        for (Buffer bad : List.of(fetch("GET", "", "/k", NO_FIELDS), fetch("", "k", "/k", NO_FIELDS),
                fetch("GET", "k", "k", NO_FIELDS), fetch("GET", "k", "", NO_FIELDS),
                fetch("GET", "k", "http://elsewhere/k", NO_FIELDS),
                // a field without a name
                fetch("GET", "k", "/k", Buffer.buffer().appendShort((short) 1).appendShort((short) 0).appendInt(1).appendString("v")))) {
            assertThatThrownBy(() -> BinaryFrames.fetchRequest(bad, 0, bad.getInt(0))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aFieldLengthPastTheFrameIsNotReadHoweverLargeItIs() {
        for (int claimed : new int[] {1, 2, 1000, 65_536, Integer.MAX_VALUE - 100, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
            Buffer bad = fetch("GET", "k", "/k", Buffer.buffer().appendShort((short) 1).appendShort((short) 1).appendString("a")
                    .appendInt(claimed));
            assertThatThrownBy(() -> BinaryFrames.fetchRequest(bad, 0, bad.getInt(0))).as("a value length of %d", claimed)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        // a count of fields the frame cannot hold
        Buffer many = fetch("GET", "k", "/k", Buffer.buffer().appendShort((short) 0xFFFF));
        assertThatThrownBy(() -> BinaryFrames.fetchRequest(many, 0, many.getInt(0))).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A count of 65,535 fields in a frame of 30 bytes is a claim, as a length field is: reading it allocates
     * in proportion to the frame, not to the claim. Bytes allocated by the reading thread are measured.
     */
    @Test
    void aFieldCountAloneNeverMakesTheReaderAllocateForTheFieldsItClaims() {
        Buffer many = fetch("GET", "k", "/k", Buffer.buffer().appendShort((short) 0xFFFF).appendShort((short) 1).appendString("a")
                .appendInt(0));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        for (int warm = 0; warm < 3; warm++) {
            try {
                BinaryFrames.fetchRequest(many, 0, many.getInt(0));
            } catch (IllegalArgumentException expected) {
                // refused
            }
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100; i++) {
            try {
                BinaryFrames.fetchRequest(many, 0, many.getInt(0));
            } catch (IllegalArgumentException expected) {
                // refused
            }
        }
        long perFrame = (threads.getThreadAllocatedBytes(thread) - before) / 100;
        assertThat(perFrame).as("bytes allocated reading a %d-byte frame that claims 65,535 fields", many.length())
                .isLessThan(16 * 1024);
    }

    @Test
    void invalidateAndInvalidatedFramesReadBack() {
        Buffer invalidate = BinaryFrames.invalidate(7, EVERY_BYTE);
        List<String> read = new ArrayList<>();
        new BinaryFrames.Reader((buffer, start, length, id, kind) -> read.add(id + " " + kind + " "
                + (kind == BinaryFrames.INVALIDATE ? BinaryFrames.key(buffer, start, length) : length)),
                BinaryFrames.MAX_REQUEST_FRAME).feed(Buffer.buffer().appendBuffer(invalidate).appendBuffer(BinaryFrames.invalidated(7)));
        assertThat(read).containsExactly("7 " + BinaryFrames.INVALIDATE + " " + EVERY_BYTE, "7 " + BinaryFrames.INVALIDATED + " 5");
    }

    private static Served answer(int bodyBytes, int fieldBytes) {
        return new Served(new OriginAnswer(200, HttpFields.of("Content-Type", "application/octet-stream",
                "X-Padding", "p".repeat(fieldBytes), "X-Obs", OBS_TEXT), new byte[bodyBytes]), CacheStatus.MISS, "m");
    }

    @Test
    void anAnsweredReplysBodyLengthIsKnownOnceItsFieldsLengthHasArrived() {
        Buffer frame = BinaryFrames.answered(3, answer(123, 5_000), 0);
        int length = frame.getInt(0);
        int known = BinaryFrames.HEADER + 1 + 2 + 8 + 4; // cache status, HTTP status, age, fields' length
        for (int available = 0; available < known; available++) {
            assertThat(BinaryFrames.replyBodyLength(frame, 0, length, available)).as("%d bytes at hand", available).isEqualTo(-1);
        }
        for (int available = known; available <= frame.length(); available += 97) {
            assertThat(BinaryFrames.replyBodyLength(frame, 0, length, available)).as("%d bytes at hand", available).isEqualTo(123);
        }
    }

    @Test
    void aReaderAsksItsAdmissionOncePerAnsweredFrameBeforeItsBodyFedByteByByteOrInPieces() {
        Served a = answer(600, 70_000); // fields past EAGER_BYTES: they arrive in many reads after the admission
        Served b = answer(700, 10);
        Served c = answer(800, 3_000);
        Buffer stream = Buffer.buffer().appendBuffer(BinaryFrames.answered(1, a, 0)).appendBuffer(BinaryFrames.answered(2, b, 0))
                .appendBuffer(BinaryFrames.failed(3, io.ketama.router.forwarding.channel.RemoteFailure.OVERLOADED, "busy"))
                .appendBuffer(BinaryFrames.answered(4, c, 0));
        for (int cut : new int[] {stream.length(), 1, 2, 7, 13, 1024, 65_536}) {
            List<String> seen = new ArrayList<>();
            BinaryFrames.Reader reader = new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
                if (kind == BinaryFrames.FAILED) {
                    seen.add(id + " failed");
                } else {
                    Served read = BinaryFrames.answered(buffer, start, length, "m", 0, null, 0);
                    seen.add(id + " kept " + read.answer().body().length + " "
                            + read.answer().headers().first("X-Padding").length() + " " + read.answer().headers().first("X-Obs")
                            .equals(OBS_TEXT));
                }
            }, (id, bodyBytes) -> {
                seen.add(id + " asked " + bodyBytes);
                return id != 2; // refuse the second: its bytes go by
            });
            int most = 0;
            for (int at = 0; at < stream.length(); at += cut) {
                reader.feed(stream.getBuffer(at, Math.min(stream.length(), at + cut)));
                if (seen.isEmpty()) { // before the first frame's admission: it holds only what arrived
                    most = Math.max(most, reader.heldBytes());
                }
            }
            assertThat(seen).as("fed %d bytes at a time", cut)
                    .containsExactly("1 asked 600", "1 kept 600 70000 true", "2 asked 700", "3 failed", "4 asked 800",
                            "4 kept 800 3000 true");
            assertThat(most).as("held before the first frame was admitted, fed %d at a time", cut)
                    .isLessThanOrEqualTo(Math.max(BinaryFrames.EAGER_BYTES, cut));
            assertThat(reader.heldBytes()).isZero();
        }
    }

    @Test
    void anAnsweredHeadWhoseFieldsLengthItsFrameCannotHoldEndsTheStreamWithoutHoldingIt() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        // a 256 MiB frame whose fields length is past it, its negative, or past what any answer's fields take
        for (int fieldsLength : new int[] {Integer.MAX_VALUE, BinaryFrames.MAX_FRAME, -1, Integer.MIN_VALUE,
                BinaryFrames.MAX_ANSWER_FIELDS + 1, BinaryFrames.MAX_FRAME - 20}) {
            List<Long> asked = new ArrayList<>();
            BinaryFrames.Reader reader = new BinaryFrames.Reader((b, s, l, i, k) -> { }, (id, body) -> asked.add(body));
            long before = threads.getThreadAllocatedBytes(thread);
            Buffer head = Buffer.buffer().appendInt(BinaryFrames.MAX_FRAME).appendInt(1).appendByte(BinaryFrames.ANSWERED)
                    .appendByte((byte) 1).appendShort((short) 200).appendLong(0).appendInt(fieldsLength);
            boolean ended = false;
            try {
                reader.feed(head);
                for (int i = 0; i < 64 && !ended; i++) { // the rest arrives: 4 MiB of it
                    reader.feed(Buffer.buffer(new byte[64 * 1024]));
                }
            } catch (IllegalStateException e) {
                ended = true;
            }
            assertThat(ended).as("a fields length of %d in a frame of %d bytes", fieldsLength, BinaryFrames.MAX_FRAME).isTrue();
            assertThat(asked).as("not admitted: its body's length is not known").isEmpty();
            assertThat(threads.getThreadAllocatedBytes(thread) - before).as("bytes allocated, a fields length of %d", fieldsLength)
                    .isLessThan(1 << 20);
        }
        // the largest fields an answer may carry are taken
        Buffer largest = Buffer.buffer().appendInt(5 + 15 + BinaryFrames.MAX_ANSWER_FIELDS).appendInt(1)
                .appendByte(BinaryFrames.ANSWERED).appendByte((byte) 1).appendShort((short) 200).appendLong(0)
                .appendInt(BinaryFrames.MAX_ANSWER_FIELDS);
        assertThat(BinaryFrames.replyBodyLength(largest, 0, largest.getInt(0), largest.length())).isZero();
    }

    @Test
    void anAnswerWhoseFieldsAReaderWouldNotTakeIsNotSentAsAFrame() {
        assertThat(BinaryFrames.fitsAnswered(answer(10, 1 << 20))).as("1 MiB of fields: an origin's largest header block").isTrue();
        assertThat(BinaryFrames.fitsAnswered(answer(10, BinaryFrames.MAX_ANSWER_FIELDS))).isFalse();
        assertThat(BinaryFrames.fitsAnswered(answer(BinaryFrames.MAX_BODY, 100_000))).isTrue();
        assertThat(BinaryFrames.fitsAnswered(answer(BinaryFrames.MAX_BODY + 1, 0))).isFalse();
    }

    @Test
    void anAnsweredFrameOfAnUnknownCacheStatusOrStatusIsNotRead() {
        Buffer frame = BinaryFrames.answered(1, answer(1, 1), 0);
        Buffer unknownCache = frame.copy().setByte(BinaryFrames.HEADER, (byte) 99);
        assertThatThrownBy(() -> BinaryFrames.answered(unknownCache, 0, unknownCache.getInt(0), "m", 0, null, 0))
                .isInstanceOf(IllegalArgumentException.class);
        Buffer badStatus = frame.copy().setShort(BinaryFrames.HEADER + 1, (short) 42);
        assertThatThrownBy(() -> BinaryFrames.answered(badStatus, 0, badStatus.getInt(0), "m", 0, null, 0))
                .isInstanceOf(IllegalArgumentException.class);
        Buffer shortFields = frame.copy().setInt(BinaryFrames.HEADER + 11, frame.getInt(BinaryFrames.HEADER + 11) - 1);
        assertThatThrownBy(() -> BinaryFrames.answered(shortFields, 0, shortFields.getInt(0), "m", 0, null, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
