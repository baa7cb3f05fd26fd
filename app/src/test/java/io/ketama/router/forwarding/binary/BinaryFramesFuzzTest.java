package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The binary channel's frame reader fed garbage, a million frames of it, straight into the decoder
 * (no socket: a million frames take a second or two this way; {@link BinaryChannelGarbageTest}
 * sends a smaller count through real sockets). The streams come from a seeded generator
 * ({@link GarbageStreams}; {@code -Dketama.fuzz.seed}, {@code -Dketama.fuzz.frames} to vary them)
 * and are fed cut at random points, as a socket delivers them. Whatever arrives, the reader hands
 * over exactly the frames a plain reference reading finds, in order and byte for byte, stops at the
 * first length it does not take, and never holds more than one frame of the size it was made for.
 */
class BinaryFramesFuzzTest {

    private static final long SEED = Long.getLong("ketama.fuzz.seed", 25_06L);
    private static final int FRAMES = Integer.getInteger("ketama.fuzz.frames", 1_000_000);
    private static final byte[] REQUEST_KINDS = {BinaryFrames.SERVE, BinaryFrames.HELLO, BinaryFrames.VERSION};
    private static final byte[] REPLY_KINDS = {BinaryFrames.SERVED, BinaryFrames.REDIRECTED, BinaryFrames.FAILED, BinaryFrames.VERSION};

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
}
