package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code /_ketama/forward/} on the service's own HTTP port, fed what an attacker or a broken peer
 * would send while clients keep asking for keys: 200 slow-loris connections that trickle the head of
 * a forward a byte at a time, and ill-formed forwards (an empty key, a target that is not a key, a
 * version that is not one). Clients are served throughout, each within a second or two; every
 * ill-formed forward is a 400 with the failure code a version-1 sender knows.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ForwardPathGarbageTest {

    @Test
    void slowLorisConnectionsOnTheForwardPathDoNotKeepClientsWaiting() throws Exception {
        int port = RestAssured.port;
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                Socket s = new Socket(InetAddress.getByName("127.0.0.1"), port);
                s.getOutputStream().write(("GET /_ketama/forward/slow-" + i + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                        .getBytes(StandardCharsets.US_ASCII));
                slow.add(s);
            }
            long slowest = 0;
            int served = 0;
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < until) {
                for (Socket s : slow) {
                    try {
                        s.getOutputStream().write('x');
                    } catch (IOException closed) {
                        // closed by the server: that is allowed too
                    }
                }
                for (int k = 0; k < 20; k++) {
                    long t0 = System.nanoTime();
                    RawHttp.Answer a = RawHttp.get(port, "/cache/lorisfree-" + (served % 50));
                    slowest = Math.max(slowest, System.nanoTime() - t0);
                    assertThat(a.status()).as(a.text()).isEqualTo(200);
                    served++;
                }
                Thread.sleep(200);
            }
            System.out.printf("ForwardPathGarbageTest: %d requests served beside 200 slow-loris forwards, slowest %d ms%n", served,
                    slowest / 1_000_000);
            assertThat(served).isGreaterThan(100);
            assertThat(Duration.ofNanos(slowest)).as("the slowest client request").isLessThan(Duration.ofSeconds(2));
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    @Test
    void illFormedForwardsAreRefusedWithWhatEverySenderKnows() throws Exception {
        int port = RestAssured.port;
        RawHttp.Answer empty = RawHttp.get(port, "/_ketama/forward/");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.header("X-Ketama-Forward-Failure")).as("FAILED, as version 1 knows it").isEqualTo("4");
        RawHttp.Answer v2 = RawHttp.get(port, "/_ketama/forward/", "X-Ketama-Forward-Version: 2");
        assertThat(v2.header("X-Ketama-Forward-Failure")).as("REFUSED, to a version-2 sender").isEqualTo("6");
        RawHttp.Answer notAVersion = RawHttp.get(port, "/_ketama/forward/", "X-Ketama-Forward-Version: banana");
        assertThat(notAVersion.header("X-Ketama-Forward-Version")).as("a version it cannot read is 1").isEqualTo("1");
        for (int i = 0; i < 200; i++) {
            assertThat(RawHttp.get(port, "/_ketama/forward/%4").status()).isEqualTo(400);
        }
        assertThat(RawHttp.get(port, "/cache/after-the-garbage").status()).isEqualTo(200);
    }
}
