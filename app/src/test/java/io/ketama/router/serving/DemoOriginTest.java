package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DemoOriginTest {

    private static OriginAnswer now(Origin origin, String key) throws Exception {
        return origin.fetch(key).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void contentIsAPureFunctionOfTheKeyBytes() throws Exception {
        DemoOrigin origin = new DemoOrigin(Duration.ZERO);
        OriginAnswer a = now(origin, "k?x=1");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.body()).isEqualTo(now(origin, "k?x=1").body()).isEqualTo(DemoOrigin.contentFor("k?x=1"));
        assertThat(a.body()).isNotEqualTo(DemoOrigin.contentFor("k?x=2"));
        assertThat(DemoOrigin.contentFor("\u00ff")).contains((byte) 0xFF);
    }

    @Test
    void aDelayedAnswerHoldsNoThreadOfTheCaller() throws Exception {
        DemoOrigin origin = new DemoOrigin(Duration.ofMillis(50));
        CompletableFuture<OriginAnswer> answer = origin.fetch("slow").toCompletableFuture();
        assertThat(answer).as("returned before the delay is over").isNotDone();
        assertThat(answer.get(10, TimeUnit.SECONDS).body()).isEqualTo(DemoOrigin.contentFor("slow"));
    }

    @Test
    void aNegativeDelayIsRefused() {
        assertThatThrownBy(() -> new DemoOrigin(Duration.ofMillis(-1))).hasMessageContaining(">= 0");
    }

    @Test
    void itAnswersAsAnOriginOfStaticContentDoesAndValidates() throws Exception {
        DemoOrigin origin = new DemoOrigin(Duration.ZERO, Duration.ofSeconds(2));
        OriginAnswer a = now(origin, "k");
        assertThat(a.headers().first("Cache-Control")).isEqualTo("max-age=2");
        assertThat(a.headers().first("Date")).isNotNull();
        assertThat(a.headers().first("Last-Modified")).isNotNull();
        String etag = a.headers().first("ETag");
        assertThat(etag).startsWith("\"").endsWith("\"");
        OriginAnswer notModified = origin.fetch(new OriginRequest("GET", "/k", io.ketama.router.caching.HttpFields.of(
                "If-None-Match", etag), null)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(notModified.status()).isEqualTo(304);
        assertThat(notModified.body()).isEmpty();
        assertThat(notModified.headers().first("ETag")).isEqualTo(etag);
    }

    @Test
    void aPrivatePageNamesItsCookieAWriteIsTakenAndAnyOtherMethodIs405() throws Exception {
        DemoOrigin origin = new DemoOrigin(Duration.ZERO);
        OriginAnswer page = origin.fetch(new OriginRequest("GET", "/private/p", io.ketama.router.caching.HttpFields.of(
                "Cookie", "session=alice"), null)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(page.headers().first("Cache-Control")).isEqualTo("private, max-age=3600");
        assertThat(new String(page.body(), java.nio.charset.StandardCharsets.ISO_8859_1)).contains("for session=alice");
        OriginAnswer post = origin.fetch(new OriginRequest("POST", "/k", io.ketama.router.caching.HttpFields.EMPTY, new byte[3]))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(post.status()).isEqualTo(200);
        assertThat(post.headers().first("Cache-Control")).isEqualTo("no-store");
        assertThat(new String(post.body(), java.nio.charset.StandardCharsets.ISO_8859_1)).isEqualTo("the demo origin took a POST of 3 bytes to /k\n");
        OriginAnswer options = origin.fetch(new OriginRequest("OPTIONS", "/k", io.ketama.router.caching.HttpFields.EMPTY, null))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(options.status()).isEqualTo(405);
        assertThat(options.headers().first("Allow")).isEqualTo("GET, HEAD, POST, PUT, PATCH, DELETE");
    }

    @Test
    void everyAnswerIsTaggedWithItsFirstPathSegment() {
        assertThat(DemoOrigin.tag("/images/logo.png?w=200")).isEqualTo("images");
        assertThat(DemoOrigin.tag("/logo.png")).isEqualTo("root");
        assertThat(DemoOrigin.tag("/")).isEqualTo("root");
        assertThat(DemoOrigin.tag("images/a")).as("a /cache/ key").isEqualTo("images");
        assertThat(DemoOrigin.tag("//a")).isEqualTo("root");
    }
}
