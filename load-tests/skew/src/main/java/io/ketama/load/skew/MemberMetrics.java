package io.ketama.load.skew;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sums of some meters over every member's {@code /q/metrics} (loopback URLs only). A member
 * that does not answer counts 0 for its part and is named in {@link #unreachable}, so a missing
 * figure is never mistaken for a zero one without a word.
 */
final class MemberMetrics {

    private final Map<String, URI> urls;
    private final List<String> meters;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final StringBuilder unreachable = new StringBuilder();

    MemberMetrics(Map<String, String> urls, List<String> meters) {
        this.urls = new LinkedHashMap<>();
        urls.forEach((name, url) -> {
            URI u = URI.create(url);
            if (!"http".equals(u.getScheme()) || u.getHost() == null
                    || !(u.getHost().startsWith("127.") || u.getHost().equals("localhost") || u.getHost().equals("[::1]"))) {
                throw new IllegalArgumentException("--metrics URL of " + name + " must be http:// on loopback, was " + url);
            }
            this.urls.put(name, u);
        });
        this.meters = List.copyOf(meters);
    }

    boolean isEmpty() {
        return urls.isEmpty() || meters.isEmpty();
    }

    /** Each meter summed over every member, now. */
    Map<String, Double> read() {
        Map<String, Double> total = new LinkedHashMap<>();
        meters.forEach(m -> total.put(m, 0.0));
        urls.forEach((name, url) -> {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(3)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    unreachable.append(name).append(" (HTTP ").append(r.statusCode()).append(") ");
                    return;
                }
                PromText.sums(r.body(), meters).forEach((k, v) -> total.merge(k, v, Double::sum));
            } catch (IOException e) {
                unreachable.append(name).append(" (").append(e.getMessage()).append(") ");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return total;
    }

    String unreachable() {
        return unreachable.toString().trim();
    }

    static Map<String, Double> difference(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> out = new LinkedHashMap<>();
        after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0.0)));
        return out;
    }
}
