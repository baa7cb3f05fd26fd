package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.OriginAnswer;
import io.ketama.router.serving.Served;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reply frames: a redirect's {@code Location} and everything else read back as written, and the
 * room a reply takes beside its body (with the longest content type and {@code Location} its
 * length fields allow) leaves {@link BinaryFrames#MAX_BODY} within {@link BinaryFrames#MAX_FRAME}.
 */
class BinaryFramesTest {

    private static List<Served> readBack(Buffer frames) {
        List<Served> read = new ArrayList<>();
        new BinaryFrames.Reader((buffer, start, length, id, kind) -> read.add(kind == BinaryFrames.REDIRECTED
                ? BinaryFrames.redirected(buffer, start, length, "m") : BinaryFrames.served(buffer, start, length, "m")))
                .feed(frames);
        return read;
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
}
