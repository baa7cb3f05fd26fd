package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import io.ketama.router.serving.Served;
import org.junit.jupiter.api.Test;

/**
 * The binary channel's frame reader fed garbage, a million frames of it, straight into the decoder
 * (no socket: a million frames take a second or two this way; {@link BinaryChannelGarbageTest}
 * sends a smaller count through real sockets). The streams come from a seeded generator
 * ({@link GarbageStreams}; {@code -Dketama.fuzz.seed}, {@code -Dketama.fuzz.frames} to vary them)
 * and are fed cut at random points, as a socket delivers them. Whatever arrives, the reader hands
 * over exactly the frames a plain reference reading finds, in order and byte for byte, stops at the
 * first length it does not take, and never holds more than one frame of the size it was made for.
 * The frames of channel version 5 ({@link BinaryFrames#FETCH}, {@link BinaryFrames#ANSWERED}), written as
 * members write them and then mangled, or random throughout, are read or refused with nothing but the
 * documented exception ({@link IllegalArgumentException} for a frame's content, {@link IllegalStateException}
 * for a stream that cannot go on), and reading them allocates in proportion to their bytes, never to
 * what their length fields claim.
 */
class BinaryFramesFuzzTest {

    private static final long SEED = Long.getLong("ketama.fuzz.seed", 25_06L);
    private static final int FRAMES = Integer.getInteger("ketama.fuzz.frames", 1_000_000);
    private static final byte[] REQUEST_KINDS = {BinaryFrames.SERVE, BinaryFrames.HELLO, BinaryFrames.VERSION, BinaryFrames.FETCH,
        BinaryFrames.INVALIDATE};
    private static final byte[] REPLY_KINDS = {BinaryFrames.SERVED, BinaryFrames.REDIRECTED, BinaryFrames.FAILED, BinaryFrames.VERSION,
        BinaryFrames.ANSWERED, BinaryFrames.INVALIDATED};

    /** What one stream did to a reader. */
    private record Outcome(List<GarbageStreams.Frame> frames, boolean threw, int mostHeld) {
    }

    private static Outcome feed(byte[] stream, int[] cuts, java.util.function.Function<BinaryFrames.Reader.FrameHandler,
            BinaryFrames.Reader> reader) {
        List<GarbageStreams.Frame> seen = new ArrayList<>();
        BinaryFrames.Reader r = reader.apply((buffer, start, length, id, kind) -> seen.add(new GarbageStreams.Frame(id, kind, length,
                GarbageStreams.digest(buffer.getBytes(start + BinaryFrames.HEADER, start + 4 + length), 0, length - 5))));
        int from = 0;
        int most = 0;
        for (int cut : cuts) {
            try {
                r.feed(Buffer.buffer(Arrays.copyOfRange(stream, from, cut)));
            } catch (IllegalStateException e) {
                return new Outcome(seen, true, most);
            }
            most = Math.max(most, r.heldBytes());
            from = cut;
        }
        return new Outcome(seen, false, most);
    }

    @Test
    void aMemberReadsAMillionRandomRequestFramesAsTheReferenceDoesAndHoldsAtMostOneRequestFrame() {
        GarbageStreams garbage = new GarbageStreams(SEED, BinaryFrames.MAX_REQUEST_FRAME);
        long frames = 0;
        long taken = 0;
        int connections = 0;
        int ended = 0;
        int mostHeld = 0;
        while (taken < FRAMES) {
            int n = 1 + garbage.random().nextInt(2000);
            byte[] stream = garbage.stream(n, REQUEST_KINDS);
            frames += n;
            connections++;
            GarbageStreams.Reading expected = GarbageStreams.expected(stream, BinaryFrames.MAX_REQUEST_FRAME);
            Outcome outcome = feed(stream, garbage.cuts(stream.length),
                    handler -> new BinaryFrames.Reader(handler, BinaryFrames.MAX_REQUEST_FRAME));
            assertThat(outcome.frames()).as("frames of stream %d (seed %d)", connections, SEED).isEqualTo(expected.frames());
            assertThat(outcome.threw()).as("stream %d ended by a length out of range (seed %d)", connections, SEED)
                    .isEqualTo(expected.fatal());
            taken += outcome.frames().size();
            ended += outcome.threw() ? 1 : 0;
            mostHeld = Math.max(mostHeld, outcome.mostHeld());
        }
        System.out.printf("BinaryFramesFuzzTest: %,d frames read whole in %,d streams (%,d items made, seed %d), %,d streams ended "
                + "by a length out of range, at most %,d bytes held%n", taken, connections, frames, SEED, ended, mostHeld);
        assertThat(mostHeld).isLessThanOrEqualTo(4 + BinaryFrames.MAX_REQUEST_FRAME);
        assertThat(ended).as("streams ended by a length out of range").isGreaterThan(connections / 10);
    }

    @Test
    void aForwardingMemberReadsRandomRepliesAsTheReferenceDoesAndTakesNoLongControlFrame() {
        GarbageStreams garbage = new GarbageStreams(SEED + 1, BinaryFrames.MAX_CONTROL_FRAME + 4096);
        long frames = 0;
        int connections = 0;
        int ended = 0;
        while (frames < FRAMES / 4) {
            int n = 1 + garbage.random().nextInt(1000);
            byte[] stream = garbage.stream(n, REPLY_KINDS);
            frames += n;
            connections++;
            GarbageStreams.Reading expected = GarbageStreams.expected(stream, BinaryFrames.MAX_FRAME, BinaryFrames.MAX_CONTROL_FRAME);
            Outcome outcome = feed(stream, garbage.cuts(stream.length), handler -> new BinaryFrames.Reader(handler, (id, body) -> true));
            assertThat(outcome.frames()).as("frames of stream %d (seed %d)", connections, SEED + 1).isEqualTo(expected.frames());
            assertThat(outcome.threw()).as("stream %d ended (seed %d)", connections, SEED + 1).isEqualTo(expected.fatal());
            ended += outcome.threw() ? 1 : 0;
        }
        assertThat(ended).as("streams ended by a length out of range or a long control frame").isGreaterThan(0);
    }

    /**
     * A length field is a claim: before this change a reader made a buffer of the whole claimed frame
     * as soon as the length arrived (256 MiB for 4 bytes, at a member and at a forwarding member alike).
     * Bytes allocated by the reading thread are measured.
     */
    @Test
    void aLengthFieldAloneNeverMakesAReaderAllocateTheFrameItClaims() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        // a member: a request frame claiming the largest reply's length ends the stream at once
        BinaryFrames.Reader member = new BinaryFrames.Reader((b, s, l, i, k) -> { }, BinaryFrames.MAX_REQUEST_FRAME);
        long before = threads.getThreadAllocatedBytes(thread);
        boolean refused = false;
        try {
            member.feed(Buffer.buffer(ByteBuffer.allocate(9).putInt(BinaryFrames.MAX_FRAME).putInt(1).put(BinaryFrames.SERVE).array()));
        } catch (IllegalStateException e) {
            refused = true;
        }
        assertThat(refused).isTrue();
        assertThat(threads.getThreadAllocatedBytes(thread) - before).as("bytes allocated refusing it").isLessThan(1 << 20);

        // a forwarding member: a reply's head claiming 256 MiB, cut before its content type's length
        List<Long> asked = new ArrayList<>();
        BinaryFrames.Reader forwarding = new BinaryFrames.Reader((b, s, l, i, k) -> { }, (id, body) -> asked.add(body) && false);
        before = threads.getThreadAllocatedBytes(thread);
        forwarding.feed(Buffer.buffer(ByteBuffer.allocate(12).putInt(BinaryFrames.MAX_FRAME).putInt(1).put(BinaryFrames.SERVED)
                .put((byte) 0).putShort((short) 200).array()));
        assertThat(asked).as("not asked yet: its body's length is not known").isEmpty();
        assertThat(forwarding.heldBytes()).isLessThanOrEqualTo(BinaryFrames.EAGER_BYTES);
        assertThat(threads.getThreadAllocatedBytes(thread) - before).as("bytes allocated holding its head").isLessThan(1 << 20);
        // the content type's length arrives: asked, refused, and the rest is let go as it comes, never held
        forwarding.feed(Buffer.buffer(ByteBuffer.allocate(2).putShort((short) 10).array()));
        assertThat(asked).containsExactly((long) BinaryFrames.MAX_FRAME - 5 - 5 - 10);
        forwarding.feed(Buffer.buffer(new byte[64 * 1024]));
        assertThat(forwarding.heldBytes()).isZero();
        // a frame that is not a reply may not be long
        BinaryFrames.Reader control = new BinaryFrames.Reader((b, s, l, i, k) -> { }, (id, body) -> true);
        refused = false;
        try {
            control.feed(Buffer.buffer(ByteBuffer.allocate(9).putInt(BinaryFrames.MAX_CONTROL_FRAME + 1).putInt(1).put(BinaryFrames.FAILED)
                    .array()));
        } catch (IllegalStateException e) {
            refused = true;
        }
        assertThat(refused).as("a FAILED frame past %d bytes", BinaryFrames.MAX_CONTROL_FRAME).isTrue();
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    private static long allocated() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * Random FETCH frames (as a member writes them, mangled in a few bytes, or random throughout, up to
     * the longest request frame) decoded as a member decodes them: read, or refused with an
     * {@link IllegalArgumentException} (the member answers REFUSED and carries on), nothing else; a frame
     * as written reads back as written; decoding allocates at most a few times the frame's bytes.
     */
    @Test
    void aMemberReadsOrRefusesRandomFetchFramesWithNothingButIllegalArgumentAndAllocatesInProportion() {
        GarbageStreams garbage = new GarbageStreams(SEED + 2, BinaryFrames.MAX_REQUEST_FRAME);
        int frames = Math.max(1000, FRAMES / 5);
        int read = 0;
        int refused = 0;
        long bytes = 0;
        long decodeAllocated = 0;
        for (int i = 0; i < frames; i++) {
            int dice = garbage.random().nextInt(10);
            byte[] frame = dice < 3 ? garbage.fetch(false) : dice < 8 ? garbage.fetch(true)
                    : garbage.frame(5 + garbage.random().nextInt(dice == 9 ? BinaryFrames.MAX_REQUEST_FRAME - 4 : 200),
                    new byte[] {BinaryFrames.FETCH});
            if (frame[8] != BinaryFrames.FETCH) {
                continue; // random kind: not a FETCH
            }
            Buffer buffer = Buffer.buffer(frame);
            int length = buffer.getInt(0);
            bytes += frame.length;
            long before = allocated();
            try {
                BinaryFrames.Fetch fetch = BinaryFrames.fetchRequest(buffer, 0, length);
                decodeAllocated += allocated() - before;
                read++;
                if (dice < 3) { // as written: it reads back whole, and writes back byte for byte
                    assertThat(BinaryFrames.fetch(buffer.getInt(4), fetch.request(), fetch.spillable(), fetch.trace()).getBytes())
                            .as("frame %d read and written again", i).isEqualTo(frame);
                }
            } catch (IllegalArgumentException e) {
                decodeAllocated += allocated() - before;
                refused++;
                assertThat(dice).as("frame %d, as a member writes it, refused: %s", i, e.getMessage()).isGreaterThanOrEqualTo(3);
            }
        }
        System.out.printf("BinaryFramesFuzzTest: %,d FETCH frames read, %,d refused; %,d bytes allocated decoding %,d bytes%n",
                read, refused, decodeAllocated, bytes);
        assertThat(read).isGreaterThan(frames / 10);
        assertThat(refused).isGreaterThan(frames / 10);
        // a String of n ISO-8859-1 chars: a copy of its bytes and the string's own (compact) array, plus headers
        assertThat(decodeAllocated).as("bytes allocated decoding %,d bytes of FETCH frames", bytes)
                .isLessThan(4 * bytes + 2_048L * (read + refused));
    }

    /**
     * Streams of ANSWERED frames among other replies (as a member writes them, mangled, or random), read
     * by a forwarding member's reader with an admission and each frame it hands over decoded as the
     * forwarding member decodes it: the reader ends the stream only with an {@link IllegalStateException}
     * and where the reference reading says so; a decoded frame is read or refused with an
     * {@link IllegalArgumentException}, nothing else; the admission is asked exactly the body length a
     * frame carries, before its body; the reader holds no more than the largest frame it admitted or
     * {@link BinaryFrames#EAGER_BYTES}, and allocates in proportion to the bytes it is fed.
     */
    @Test
    void aForwardingMemberReadsRandomAnsweredFramesEndingOrRefusingOnlyAsDocumentedAndHoldsOnlyWhatItAdmitted() {
        GarbageStreams garbage = new GarbageStreams(SEED + 3, BinaryFrames.MAX_CONTROL_FRAME + 4096);
        byte[] kinds = {BinaryFrames.ANSWERED, BinaryFrames.ANSWERED, BinaryFrames.FAILED, BinaryFrames.INVALIDATED};
        long frames = 0;
        int connections = 0;
        int ended = 0;
        long decoded = 0;
        long refused = 0;
        long fed = 0;
        long feeds = 0;
        long handedOver = 0;
        long feedAllocated = 0;
        while (frames < FRAMES / 10) {
            int n = 1 + garbage.random().nextInt(300);
            byte[] stream = garbage.stream(n, kinds);
            frames += n;
            connections++;
            GarbageStreams.Reading expected = GarbageStreams.expected(stream, BinaryFrames.MAX_FRAME, BinaryFrames.MAX_CONTROL_FRAME);
            List<GarbageStreams.Frame> seen = new ArrayList<>();
            long[] admittedBody = {-1};
            long[] counts = new long[3];
            int[] largest = {0};
            BinaryFrames.Reader reader = new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
                seen.add(new GarbageStreams.Frame(id, kind, length,
                        GarbageStreams.digest(buffer.getBytes(start + BinaryFrames.HEADER, start + 4 + length), 0, length - 5)));
                counts[2] += 4 + length;
                if (kind == BinaryFrames.ANSWERED) {
                    try {
                        Served served = BinaryFrames.answered(buffer, start, length, "m", 0, null, 0);
                        assertThat((long) served.answer().body().length).as("the body admitted").isEqualTo(admittedBody[0]);
                        counts[0]++;
                    } catch (IllegalArgumentException e) {
                        counts[1]++;
                    }
                }
                admittedBody[0] = -1;
            }, (id, body) -> {
                admittedBody[0] = body;
                return true;
            });
            int from = 0;
            boolean threw = false;
            for (int cut : garbage.cuts(stream.length)) {
                long before = allocated();
                try {
                    reader.feed(Buffer.buffer(java.util.Arrays.copyOfRange(stream, from, cut)));
                } catch (IllegalStateException e) {
                    threw = true;
                    break;
                } finally {
                    feedAllocated += allocated() - before;
                }
                fed += cut - from;
                feeds++;
                largest[0] = Math.max(largest[0], reader.heldBytes());
                from = cut;
            }
            assertThat(seen).as("frames of stream %d (seed %d)", connections, SEED + 3).isEqualTo(expected.frames());
            assertThat(threw).as("stream %d ended (seed %d)", connections, SEED + 3).isEqualTo(expected.fatal());
            int longest = 0;
            for (GarbageStreams.Frame f : expected.frames()) {
                longest = Math.max(longest, 4 + f.length());
            }
            assertThat(largest[0]).as("bytes held reading stream %d", connections)
                    .isLessThanOrEqualTo(Math.max(longest, BinaryFrames.EAGER_BYTES) + 65_536);
            ended += threw ? 1 : 0;
            decoded += counts[0];
            refused += counts[1];
            handedOver += counts[2];
        }
        System.out.printf("BinaryFramesFuzzTest: %,d ANSWERED frames read, %,d refused, %,d of %,d streams ended; %,d bytes allocated "
                + "feeding %,d bytes%n", decoded, refused, ended, connections, feedAllocated, fed);
        assertThat(decoded).isGreaterThan(100);
        assertThat(refused).isGreaterThan(100);
        assertThat(ended).isGreaterThan(0);
        // what it was fed, the frames it handed over (copied once more here to digest and decode them), at most
        // one admitted frame per stream never finished, and a little per read: never what a length field claims
        assertThat(feedAllocated).as("bytes allocated feeding %,d bytes in %,d reads", fed, feeds)
                .isLessThan(4 * fed + 6 * handedOver + 2L * connections * (4 + BinaryFrames.MAX_CONTROL_FRAME + 4096) + 2048 * feeds);
    }
}
