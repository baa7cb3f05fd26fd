package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reply frames: a redirect's {@code Location} and everything else read back as written, and the
 * room a reply takes beside its body (with the longest content type and {@code Location} its
 * length fields allow) leaves {@link BinaryFrames#MAX_BODY} within {@link BinaryFrames#MAX_FRAME}.
 * A reader with a limit on reply bodies refuses a larger one, of either kind, from the part before
 * its body, however the stream is cut, and reads the frames after it as written; a reader with a
 * reply admission asks it once per reply frame, before any of its body, however the stream is cut.
 */
class BinaryFramesTest {

    private static List<Served> readBack(Buffer frames) {
        List<Served> read = new ArrayList<>();
        new BinaryFrames.Reader((buffer, start, length, id, kind) -> read.add(kind == BinaryFrames.REDIRECTED
                ? BinaryFrames.redirected(buffer, start, length, "m") : BinaryFrames.served(buffer, start, length, "m")))
                .feed(frames);
        return read;
    }

    /**
     * A large reply arrives in many socket reads; the reader must hold its bytes once, not copy
     * what it has so far at every read (16 MiB in 64 KiB reads would be 256 copies, 2 GiB). Bytes
     * allocated by the reading thread are measured, not time.
     */
    @Test
    void aLargeReplyArrivingInManyReadsIsHeldOnceNotCopiedAtEveryRead() {
        int bodyBytes = 16 * 1024 * 1024;
        Served large = new Served(new OriginAnswer(200, "application/octet-stream", new byte[bodyBytes]), CacheStatus.HIT, "m");
        Buffer stream = Buffer.buffer().appendBuffer(BinaryFrames.served(1, large))
                .appendBuffer(BinaryFrames.failed(2, RemoteFailure.OVERLOADED, "busy"));
        List<Buffer> reads = new ArrayList<>();
        for (int at = 0; at < stream.length(); at += 64 * 1024) {
            reads.add(stream.getBuffer(at, Math.min(stream.length(), at + 64 * 1024)));
        }
        List<String> seen = new ArrayList<>();
        BinaryFrames.Reader reader = new BinaryFrames.Reader((buffer, start, length, id, kind) -> seen.add(id + " " + length));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (Buffer read : reads) {
            reader.feed(read);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(seen).hasSize(2);
        assertThat(allocated).as("bytes allocated reading a %d-byte reply in %d reads", bodyBytes, reads.size())
                .isLessThan(3L * bodyBytes);
    }

    @Test
    void answersWithAndWithoutALocationReadBackAsWritten() {
        Served plain = new Served(new OriginAnswer(200, "text/plain", new byte[] {1, 2, 3}), CacheStatus.HIT, "m");
        Served redirect = new Served(new OriginAnswer(307, "text/html", "moved".getBytes(), "https://é.example/x?y=1"),
                CacheStatus.MISS, "m");
        Buffer frames = Buffer.buffer().appendBuffer(BinaryFrames.served(1, plain)).appendBuffer(BinaryFrames.served(2, redirect));
        assertThat(readBack(frames)).containsExactly(plain, redirect);
    }

    @Test
    void aReaderWithALimitRefusesLargerBodiesAndReadsTheFramesAroundThemHoweverTheStreamIsCut() {
        int limit = 1000;
        Served fits = new Served(new OriginAnswer(200, "text/plain", new byte[limit]), CacheStatus.HIT, "m");
        Served large = new Served(new OriginAnswer(200, "text/plain", new byte[limit + 1]), CacheStatus.MISS, "m");
        Served largeRedirect = new Served(new OriginAnswer(302, "text/html", new byte[limit + 1], "/elsewhere"), CacheStatus.MISS, "m");
        Served fitsRedirect = new Served(new OriginAnswer(302, "text/html", new byte[limit], "/x"), CacheStatus.MISS, "m");
        Buffer stream = Buffer.buffer().appendBuffer(BinaryFrames.served(1, fits)).appendBuffer(BinaryFrames.served(2, large))
                .appendBuffer(BinaryFrames.served(3, largeRedirect)).appendBuffer(BinaryFrames.served(4, fitsRedirect))
                .appendBuffer(BinaryFrames.failed(5, RemoteFailure.OVERLOADED, "busy"));
        for (int cut : new int[] {stream.length(), 1, 7, 13, 1024}) {
            List<String> seen = new ArrayList<>();
            BinaryFrames.Reader reader = new BinaryFrames.Reader((buffer, start, length, id, kind) -> seen.add(id + " "
                    + (kind == BinaryFrames.FAILED ? "failed" : (kind == BinaryFrames.REDIRECTED
                    ? BinaryFrames.redirected(buffer, start, length, "m") : BinaryFrames.served(buffer, start, length, "m"))
                    .answer().body().length)), limit, (id, bodyBytes) -> seen.add(id + " refused " + bodyBytes));
            for (int at = 0; at < stream.length(); at += cut) {
                reader.feed(stream.getBuffer(at, Math.min(stream.length(), at + cut)));
            }
            assertThat(seen).as("fed %d bytes at a time", cut)
                    .containsExactly("1 " + limit, "2 refused " + (limit + 1), "3 refused " + (limit + 1), "4 " + limit, "5 failed");
        }
    }

    @Test
    void aReplysBodyLengthIsKnownOnceTheLengthFieldsBeforeItHaveArrived() {
        Served redirect = new Served(new OriginAnswer(301, "text/html", new byte[123], "/somewhere/else"), CacheStatus.MISS, "m");
        Buffer frame = BinaryFrames.served(9, redirect);
        int length = frame.getInt(0);
        // header, failure-code 0, cache status, HTTP status, type length, the type, the Location's length
        int known = BinaryFrames.HEADER + 1 + 1 + 2 + 2 + "text/html".length() + 2;
        for (int available = 0; available < known; available++) {
            assertThat(BinaryFrames.replyBodyLength(frame, 0, length, available)).as("%d bytes at hand", available).isEqualTo(-1);
        }
        assertThat(BinaryFrames.replyBodyLength(frame, 0, length, known)).isEqualTo(123);
        Buffer plain = BinaryFrames.served(9, new Served(new OriginAnswer(200, "text/html", new byte[5]), CacheStatus.HIT, "m"));
        assertThat(BinaryFrames.replyBodyLength(plain, 0, plain.getInt(0), BinaryFrames.HEADER + 4)).isEqualTo(-1);
        assertThat(BinaryFrames.replyBodyLength(plain, 0, plain.getInt(0), BinaryFrames.HEADER + 5)).isEqualTo(5);
        assertThat(BinaryFrames.replyBodyLength(BinaryFrames.serve(1, "k"), 0, 6, 10)).as("not a reply").isEqualTo(-1);
    }

    @Test
    void theLongestHeadersOfAReplyLeaveTheLargestBodyWithinTheLargestFrame() {
        String type = "t".repeat(0xFFFF);
        String location = "l".repeat(0xFFFF);
        Served widest = new Served(new OriginAnswer(308, type, new byte[0], location), CacheStatus.MISS, "m");
        Buffer frame = BinaryFrames.served(7, widest);
        int beside = frame.length(); // every byte but the (empty) body, length field included
        assertThat(readBack(frame)).containsExactly(widest);
        assertThat((long) BinaryFrames.MAX_BODY + beside - 4).as("the length field of the largest reply")
                .isLessThanOrEqualTo(BinaryFrames.MAX_FRAME);
        assertThat(BinaryFrames.fits(new Served(new OriginAnswer(200, type, new byte[0]), CacheStatus.HIT, "m"))).isTrue();
        assertThat(BinaryFrames.fits(new Served(new OriginAnswer(200, type + "t", new byte[0]), CacheStatus.HIT, "m"))).isFalse();
    }

    @Test
    void aReaderAsksItsAdmissionOncePerReplyBeforeItsBodyHoweverTheStreamIsCut() {
        Served a = new Served(new OriginAnswer(200, "text/plain", new byte[600]), CacheStatus.HIT, "m");
        Served b = new Served(new OriginAnswer(307, "text/html", new byte[700], "/elsewhere"), CacheStatus.MISS, "m");
        Served c = new Served(new OriginAnswer(200, "text/plain", new byte[800]), CacheStatus.MISS, "m");
        Buffer stream = Buffer.buffer().appendBuffer(BinaryFrames.served(1, a)).appendBuffer(BinaryFrames.served(2, b))
                .appendBuffer(BinaryFrames.failed(3, RemoteFailure.OVERLOADED, "busy")).appendBuffer(BinaryFrames.served(4, c));
        for (int cut : new int[] {stream.length(), 1, 7, 13, 1024}) {
            List<String> seen = new ArrayList<>();
            BinaryFrames.Reader reader = new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
                seen.add(id + (kind == BinaryFrames.FAILED ? " failed" : " kept"));
            }, (id, bodyBytes) -> {
                seen.add(id + " asked " + bodyBytes);
                return id != 2; // refuse the redirect: its bytes go by
            });
            for (int at = 0; at < stream.length(); at += cut) {
                reader.feed(stream.getBuffer(at, Math.min(stream.length(), at + cut)));
            }
            assertThat(seen).as("fed %d bytes at a time", cut)
                    .containsExactly("1 asked 600", "1 kept", "2 asked 700", "3 failed", "4 asked 800", "4 kept");
        }
    }
}
