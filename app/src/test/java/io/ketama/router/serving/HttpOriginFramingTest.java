package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.caching.OriginAnswer;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Answers an origin frames so that a kept-alive connection cannot carry them safely: they end in a
 * 502 at once and their connection is closed, so the next fetch reads its own answer. Against a raw
 * socket server on 127.0.0.1 that writes each answer byte for byte as scripted. One connection at
 * most, so that the next fetch takes the same connection unless it was closed.
 */
class HttpOriginFramingTest {

    private static final Vertx VERTX = Vertx.vertx();
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    @AfterAll
    static void closeVertx() {
        VERTX.close();
    }

    private ScriptedOrigin server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anInterim102IsLeftOutAndTheFinalAnswerRead() throws Exception {
        server = new ScriptedOrigin(List.of("HTTP/1.1 102 Processing\r\n\r\n" + OK, OK));
        HttpOrigin origin = new HttpOrigin(VERTX, server.base(), Duration.ofSeconds(5), 1);

        OriginAnswer first = fetch(origin, "a");
        OriginAnswer next = fetch(origin, "b");

        assertThat(first.status()).as("not the 102").isEqualTo(200);
        assertThat(new String(first.body(), StandardCharsets.US_ASCII)).isEqualTo("ok");
        assertThat(next.status()).isEqualTo(200);
        assertThat(server.connections()).as("nothing left on the connection to close it for").hasValue(1);
    }

    @Test
    void anInterim101NobodyAskedForIsUnreadableAndItsConnectionClosed() throws Exception {
        server = new ScriptedOrigin(List.of("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n", OK));
        HttpOrigin origin = new HttpOrigin(VERTX, server.base(), Duration.ofSeconds(5), 1);

        assertThatThrownBy(() -> fetch(origin, "a")).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(OriginAnswerUnreadableException.class)
                .hasMessageContaining("an interim 101 where its final answer belongs")
                .hasMessageContaining("the connection is closed");
        assertThat(fetch(origin, "b").status()).isEqualTo(200);
        assertThat(server.connections()).hasValue(2);
    }

    @Test
    void aTransferCodingOtherThanChunkedIsUnreadableAtOnceNotAfterTheTimeout() throws Exception {
        server = new ScriptedOrigin(List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: x-squeeze\r\n\r\nabcdef", OK));
        HttpOrigin origin = new HttpOrigin(VERTX, server.base(), Duration.ofSeconds(30), 1);

        long start = System.nanoTime();
        assertThatThrownBy(() -> fetch(origin, "a")).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(OriginAnswerUnreadableException.class)
                .hasMessageContaining("Transfer-Encoding: x-squeeze")
                .hasMessageContaining("other than chunked");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("ended by this member, not by the 30 s deadline").isLessThan(Duration.ofSeconds(20));
        assertThat(fetch(origin, "b").status()).isEqualTo(200);
        assertThat(server.connections()).hasValue(2);
    }

    @Test
    void bytesPastAnAnswersContentLengthCloseItsConnectionAndTheNextFetchReadsItsOwnAnswer() throws Exception {
        server = new ScriptedOrigin(List.of("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok-and-26-bytes-past-those", OK));
        HttpOrigin origin = new HttpOrigin(VERTX, server.base(), Duration.ofSeconds(5), 1);

        OriginAnswer first = fetch(origin, "a");
        OriginAnswer next = fetch(origin, "b");

        assertThat(new String(first.body(), StandardCharsets.US_ASCII)).isEqualTo("ok");
        assertThat(next.status()).as("not <surplus>HTTP/1.1 read as a status line").isEqualTo(200);
        assertThat(new String(next.body(), StandardCharsets.US_ASCII)).isEqualTo("ok");
        assertThat(server.connections()).hasValue(2);
        assertThat(server.requests()).as("b asked once").hasValue(2);
    }

    @Test
    void aConnectionIsKeptAliveAcrossWellFramedAnswers() throws Exception {
        server = new ScriptedOrigin(List.of(OK, "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n" + OK, OK));
        HttpOrigin origin = new HttpOrigin(VERTX, server.base(), Duration.ofSeconds(5), 1);

        for (String key : new String[] {"a", "b", "c"}) {
            assertThat(new String(fetch(origin, key).body(), StandardCharsets.US_ASCII)).as(key).isEqualTo("ok");
        }

        assertThat(server.connections()).as("an interim answer's end is not a final answer's").hasValue(1);
    }

    @Test
    void chunkedAsTheFinalCodingIsRead() throws Exception {
        server = new ScriptedOrigin(List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"));
        HttpOrigin origin = new HttpOrigin(VERTX, server.base(), Duration.ofSeconds(5), 1);

        OriginAnswer answer = fetch(origin, "a");

        assertThat(new String(answer.body(), StandardCharsets.US_ASCII)).isEqualTo("ok");
    }

    private static OriginAnswer fetch(HttpOrigin origin, String key) throws Exception {
        return origin.fetch(key).toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    /** Writes the n-th scripted answer to the n-th request, whatever connection it came on; keeps connections open. */
    private static final class ScriptedOrigin implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        private final List<String> answers;
        private final AtomicInteger requests = new AtomicInteger();
        private final AtomicInteger connections = new AtomicInteger();
        private final List<Socket> open = new CopyOnWriteArrayList<>();

        ScriptedOrigin(List<String> answers) throws IOException {
            this.answers = answers;
            Thread acceptor = new Thread(this::accept, "scripted-origin");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        String base() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        AtomicInteger connections() {
            return connections;
        }

        AtomicInteger requests() {
            return requests;
        }

        private void accept() {
            try {
                while (true) {
                    Socket s = socket.accept();
                    connections.incrementAndGet();
                    open.add(s);
                    Thread t = new Thread(() -> serve(s), "scripted-connection");
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException closed) {
                // the test is over
            }
        }

        private void serve(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                while (readHead(in)) {
                    int n = requests.getAndIncrement();
                    String answer = n < answers.size() ? answers.get(n) : "HTTP/1.1 500 Unscripted\r\nContent-Length: 0\r\n\r\n";
                    out.write(answer.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException closed) {
                // the client closed the connection
            }
        }

        /** Reads one request head (these requests have no body); false at the end of the stream. */
        private static boolean readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                byte[] h = head.toByteArray();
                int n = h.length;
                if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
