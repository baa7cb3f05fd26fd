package io.ketama.router.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** {@link Http} from the test JVM itself, for members on 127.0.0.1. */
final class LoopbackHttp implements Http {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    HttpClient client() {
        return client;
    }

    @Override
    public Answer get(String url, long timeoutMillis) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(timeoutMillis)).GET().build());
    }

    @Override
    public Answer put(String url, String json, String token, long timeoutMillis) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(timeoutMillis))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
