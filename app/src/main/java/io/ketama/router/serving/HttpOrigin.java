package io.ketama.router.serving;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;

/**
 * An HTTP origin: key {@code k} is fetched with {@code GET <base-url>/<k>}, redirects not
 * followed, so the origin's answer passes through as it is.
 */
public final class HttpOrigin implements Origin {

    private final String base;
    private final Duration timeout;
    private final HttpClient client;

    /**
     * @param baseUrl an absolute http or https URL; a trailing slash is ignored
     * @param timeout how long to wait for the whole answer
     * @throws IllegalArgumentException when {@code baseUrl} is not an absolute http(s) URL without query or fragment
     */
    public HttpOrigin(String baseUrl, Duration timeout) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(timeout, "timeout");
        URI uri;
        try {
            uri = URI.create(baseUrl.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("origin base URL '" + baseUrl + "' is not a URL: " + e.getMessage(), e);
        }
        if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                || uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("origin base URL '" + baseUrl
                    + "' must be an absolute http:// or https:// URL with a host and no query or fragment");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("origin timeout must be > 0, was " + timeout);
        }
        String text = uri.toString();
        this.base = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
        this.timeout = timeout;
        this.client = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The URL fetched for {@code key}. */
    URI target(String key) {
        return URI.create(base + "/" + RequestTargets.escape(key));
    }

    @Override
    public OriginAnswer fetch(String key) {
        URI target = target(key);
        HttpRequest request = HttpRequest.newBuilder(target).timeout(timeout).GET().build();
        try {
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            String type = response.headers().firstValue("Content-Type").orElse("application/octet-stream");
            return new OriginAnswer(response.statusCode(), type, response.body());
        } catch (HttpTimeoutException e) {
            throw new OriginUnavailableException("origin " + base + " did not answer within " + timeout.toMillis() + " ms", e);
        } catch (IOException e) {
            throw new OriginUnavailableException("origin " + base + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OriginUnavailableException("interrupted while fetching from origin " + base, e);
        }
    }

    @Override
    public String toString() {
        return "HttpOrigin[" + base + ", timeout=" + timeout.toMillis() + "ms]";
    }
}
