package io.ketama.load.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseParserTest {

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void contentLengthBodyEndsTheResponseExactly() {
        ResponseParser p = new ResponseParser();
        ByteBuffer in = bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhelloHTTP");
        assertThat(p.feed(in)).isTrue();
        assertThat(p.status()).isEqualTo(200);
        assertThat(p.closes()).isFalse();
        assertThat(in.remaining()).as("bytes after the body are left unread").isEqualTo(4);
    }

    @Test
    void responsesSplitAtEveryByteAreReadTheSame() {
        String response = "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 3\r\nRetry-After: 1\r\n\r\nabc";
        ResponseParser p = new ResponseParser();
        byte[] all = response.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < all.length - 1; i++) {
            assertThat(p.feed(ByteBuffer.wrap(all, i, 1))).as("complete after byte %d", i).isFalse();
        }
        assertThat(p.feed(ByteBuffer.wrap(all, all.length - 1, 1))).isTrue();
        assertThat(p.status()).isEqualTo(503);
    }

    @Test
    void chunkedBodiesWithExtensionsAndTrailers() {
        ResponseParser p = new ResponseParser();
        ByteBuffer in = bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n");
        assertThat(p.feed(in)).isTrue();
        assertThat(in.hasRemaining()).isFalse();
    }

    @Test
    void connectionCloseAndHttp10AreNoticed() {
        ResponseParser p = new ResponseParser();
        assertThat(p.feed(bytes("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"))).isTrue();
        assertThat(p.closes()).isTrue();
        p.reset();
        assertThat(p.feed(bytes("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"))).isTrue();
        assertThat(p.closes()).isTrue();
    }

    @Test
    void aBodyWithoutLengthRunsToTheEndOfTheStream() {
        ResponseParser p = new ResponseParser();
        assertThat(p.feed(bytes("HTTP/1.1 200 OK\r\n\r\nsome bytes"))).isFalse();
        assertThat(p.endOfStream()).isTrue();
        assertThat(p.closes()).isTrue();
    }

    @Test
    void noBodyFor204AndInterimAnswersAreSkipped() {
        ResponseParser p = new ResponseParser();
        assertThat(p.feed(bytes("HTTP/1.1 204 No Content\r\n\r\n"))).isTrue();
        p.reset();
        ByteBuffer in = bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx");
        assertThat(p.feed(in)).isTrue();
        assertThat(p.status()).isEqualTo(201);
    }

    @Test
    void anEndOfStreamMidResponseIsNotAnAnswer() {
        ResponseParser p = new ResponseParser();
        assertThat(p.idle()).isTrue();
        assertThat(p.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"))).isFalse();
        assertThat(p.idle()).isFalse();
        assertThat(p.endOfStream()).isFalse();
    }

    @Test
    void garbageIsRefusedWithWhatWasSeen() {
        assertThatThrownBy(() -> new ResponseParser().feed(bytes("SSH-2.0-OpenSSH\r\n")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("SSH-2.0");
    }
}
