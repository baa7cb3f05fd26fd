package io.ketama.client;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Lets a JAX-RS client, a Quarkus REST client among them, send the service's cached requests
 * through a {@link DirectClient}: a {@code GET} or {@code HEAD} whose path starts with
 * {@value DirectClient#CACHE_PREFIX} is sent by the direct client to its key's owner (failing over as
 * it does) and the member's answer becomes the call's response ({@link ClientRequestContext#abortWith});
 * any other request goes to the client's base URI as it was built. The base URI's host is never
 * contacted for a cached request, only its path matters.
 *
 * <pre>{@code
 * @Path("/cache")
 * public interface Cache {
 *     @GET @Path("/{key}") String get(@PathParam("key") String key);
 * }
 * Cache cache = RestClientBuilder.newBuilder().baseUri(URI.create("http://ketama-members"))
 *         .register(new DirectRouting(direct)).build(Cache.class);
 * }</pre>
 *
 * <p>The filter blocks while the direct client waits for the member (up to its attempts' time
 * limits): register it on clients whose calls run on a thread that may block (a blocking REST client
 * method, not one called on an event loop). When no member answered, the call fails with the
 * JAX-RS client's {@code ProcessingException} around {@link NoMemberAnsweredException}.
 */
public final class DirectRouting implements ClientRequestFilter {

    private final DirectClient direct;

    public DirectRouting(DirectClient direct) {
        this.direct = Objects.requireNonNull(direct, "direct");
    }

    @Override
    public void filter(ClientRequestContext request) {
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        URI uri = request.getUri();
        String path = uri.getRawPath();
        if (!(method.equals("GET") || method.equals("HEAD")) || path == null || !path.startsWith(DirectClient.CACHE_PREFIX)
                || path.length() == DirectClient.CACHE_PREFIX.length()) {
            return;
        }
        String key = path.substring(DirectClient.CACHE_PREFIX.length()) + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Map<String, List<String>> headers = new LinkedHashMap<>();
        request.getStringHeaders().forEach((name, values) -> headers.put(name, new ArrayList<>(values)));
        DirectAnswer answer = direct.send(method, key, headers);
        Response.ResponseBuilder response = Response.status(answer.status());
        answer.response().headers().map().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("transfer-encoding") && !name.startsWith(":")) {
                values.forEach(v -> response.header(name, v));
            }
        });
        if (!method.equals("HEAD") && answer.body().length > 0) {
            response.entity(new ByteArrayInputStream(answer.body()));
        }
        request.abortWith(response.build());
    }
}
