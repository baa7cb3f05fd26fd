package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReplyParserTest {

    private static final String SERVICE = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nX-Ketama-Owner: 127.0.0.1:5702\r\n"
            + "x-ketama-served-by: 127.0.0.1:5703\r\nX-Ketama-Ring: v1\r\nX-KETAMA-CACHE: HIT\r\nX-Ketama-Failover: 1\r\n"
            + "content-length: 10\r\n\r\n0123456789";

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void readsTheCountedHeadersWhateverTheirCase() {
        ReplyParser p = new ReplyParser();
        ByteBuffer in = bytes(SERVICE);
        assertThat(p.feed(in)).isTrue();
        assertThat(in.hasRemaining()).isFalse();
        assertThat(p.status()).isEqualTo(200);
        assertThat(p.owner()).isEqualTo("127.0.0.1:5702");
        assertThat(p.servedBy()).isEqualTo("127.0.0.1:5703");
        assertThat(p.cache()).isEqualTo("HIT");
        assertThat(p.failover()).isEqualTo("1");
        assertThat(p.bodyBytes()).isEqualTo(10);
        assertThat(p.close()).isFalse();
    }

    @Test
    void aResponseArrivingByteByByteIsTheSame() {
        ReplyParser p = new ReplyParser();
        byte[] all = SERVICE.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < all.length; i++) {
            boolean done = p.feed(ByteBuffer.wrap(all, i, 1));
            assertThat(done).as("after byte %d", i).isEqualTo(i == all.length - 1);
        }
        assertThat(p.servedBy()).isEqualTo("127.0.0.1:5703");
        assertThat(p.bodyBytes()).isEqualTo(10);
    }

    @Test
    void chunkedBodiesAreSkippedToTheirEnd() {
        ReplyParser p = new ReplyParser();
        ByteBuffer in = bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Ketama-Served-By: owner-3\r\n\r\n"
                + "4\r\nabcd\r\n3;ext=1\r\nefg\r\n0\r\nTrailer: x\r\n\r\nHTTP/1.1");
        assertThat(p.feed(in)).isTrue();
        assertThat(p.bodyBytes()).isEqualTo(7);
        assertThat(p.servedBy()).isEqualTo("owner-3");
        // the next response's bytes stay in the buffer
        assertThat(in.remaining()).isEqualTo(8);
    }

    @Test
    void aProblemAnswerAndAnEmptyBodyEnd() {
        ReplyParser p = new ReplyParser();
        assertThat(p.feed(bytes("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"))).isTrue();
        assertThat(p.status()).isEqualTo(503);
        assertThat(p.close()).isTrue();
        p.reset();
        assertThat(p.feed(bytes("HTTP/1.1 204 No Content\r\n\r\n"))).isTrue();
        assertThat(p.servedBy()).isNull();
    }

    @Test
    void anIncompleteResponseIsNotDone() {
        ReplyParser p = new ReplyParser();
        assertThat(p.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc"))).isFalse();
        assertThat(p.feed(bytes("de"))).isTrue();
    }

    @Test
    void malformedResponsesAreRefused() {
        assertThatThrownBy(() -> new ReplyParser().feed(bytes("SSH-2.0-OpenSSH\r\n"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("status line");
        assertThatThrownBy(() -> new ReplyParser().feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n")))
                .hasMessageContaining("Content-Length");
        assertThatThrownBy(() -> new ReplyParser().feed(bytes("HTTP/1.1 200 OK\r\nno colon\r\n\r\n"))).hasMessageContaining("without a name");
        assertThatThrownBy(() -> new ReplyParser().feed(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")))
                .hasMessageContaining("hexadecimal");
        assertThatThrownBy(() -> new ReplyParser().feed(bytes("HTTP/1.1 200 OK\r\nX: " + "a".repeat(ReplyParser.MAX_LINE) + "\r\n")))
                .hasMessageContaining("longer than");
    }
}
