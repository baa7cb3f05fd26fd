package io.ketama.load.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The HTTP calls the checker makes to one member besides the load: its view of the cluster, its
 * readiness, and a migration change on its management port.
 */
final class MemberHttp {

    static final int HTTP_PORT = 8080;
    static final int MANAGEMENT_PORT = 9000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;

    MemberHttp(HttpClient http, Duration timeout) {
        this.http = http;
        this.timeout = timeout;
    }

    /**
     * The member's view: rings, last rebuild, migration generation and share, the owner of each
     * sample key. Its requests go at once, not one after another, so that a loaded machine answers
     * a whole view within the poll's time limit.
     */
    MemberView view(MemberRef m, List<String> keys) {
        CompletableFuture<HttpResponse<String>> ringAnswer = getAsync(base(m) + "/ring");
        CompletableFuture<HttpResponse<String>> migrationAnswer = getAsync(management(m) + "/q/ketama/migration");
        List<CompletableFuture<HttpResponse<String>>> routeAnswers = keys.stream().map(k -> getAsync(base(m) + "/route/" + k)).toList();
        try {
            JsonNode ring = json(ringAnswer.get(), m, "/ring");
            Set<String> members = new LinkedHashSet<>();
            for (JsonNode member : ring.path("members")) {
                members.add(member.path("address").asText());
            }
            long rebuild = ring.path("lastRebuild").path("generation").asLong(-1);
            JsonNode migration = json(migrationAnswer.get(), m, "/q/ketama/migration");
            Map<String, String> owners = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                HttpResponse<String> r = routeAnswers.get(i).get();
                owners.put(keys.get(i), r.statusCode() == 200 ? JSON.readTree(r.body()).path("owner").path("address").asText("") : "");
            }
            return new MemberView(m.index(), true, members, rebuild, migration.path("generation").asLong(-1),
                    migration.path("v2SharePercent").asDouble(Double.NaN), owners, null);
        } catch (IOException e) {
            return MemberView.silent(m.index(), e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (ExecutionException e) {
            return MemberView.silent(m.index(), e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            routeAnswers.forEach(f -> f.cancel(true));
            return MemberView.silent(m.index(), "interrupted");
        }
    }

    private CompletableFuture<HttpResponse<String>> getAsync(String url) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    boolean ready(MemberRef m) {
        try {
            return get(base(m) + "/q/health/ready").statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code PUT /q/ketama/migration} of split mode at {@code share} per cent, with the admin token. */
    AdminChange changeMigration(MemberRef m, String side, long sentAt, double share, String token) {
        String body = "{\"mode\":\"split\",\"v2SharePercent\":" + share + "}";
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(management(m) + "/q/ketama/migration"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                    .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            long generation = -1;
            if (r.statusCode() == 200) {
                generation = JSON.readTree(r.body()).path("generation").asLong(-1);
            }
            return new AdminChange(m.index(), side, sentAt, share, r.statusCode(), generation, shorten(r.body()));
        } catch (IOException e) {
            return new AdminChange(m.index(), side, sentAt, share, 0, -1, e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new AdminChange(m.index(), side, sentAt, share, 0, -1, "interrupted");
        }
    }

    /** Sends {@code POST /q/ketama/purge} naming {@code keys}: the status (0: no answer) and the body, shortened. */
    String[] purge(MemberRef m, List<String> keys, String token) {
        StringBuilder body = new StringBuilder("{\"keys\":[");
        for (int i = 0; i < keys.size(); i++) {
            body.append(i == 0 ? "" : ",").append('"').append(keys.get(i)).append('"');
        }
        body.append("]}");
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(management(m) + "/q/ketama/purge"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
            return new String[] {Integer.toString(r.statusCode()), shorten(r.body())};
        } catch (IOException e) {
            return new String[] {"0", e.getClass().getSimpleName() + ": " + e.getMessage()};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new String[] {"0", "interrupted"};
        }
    }

    /** {@code GET /cache/<key>} on {@code m}: its {@code Age} in seconds (0 when absent) and {@code X-Ketama-Cache}; null when no 200. */
    String[] cached(MemberRef m, String key) {
        try {
            HttpResponse<String> r = get(base(m) + "/cache/" + key);
            if (r.statusCode() != 200) {
                return null;
            }
            return new String[] {r.headers().firstValue("Age").orElse("0"), r.headers().firstValue("X-Ketama-Cache").orElse("?")};
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static String base(MemberRef m) {
        return "http://" + m.clientHost() + ":" + HTTP_PORT;
    }

    static String management(MemberRef m) {
        return "http://" + m.clientHost() + ":" + MANAGEMENT_PORT;
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r, MemberRef m, String path) throws IOException {
        if (r.statusCode() != 200) {
            throw new IOException(m.name() + " " + path + " answered " + r.statusCode() + ": " + shorten(r.body()));
        }
        return JSON.readTree(r.body());
    }

    static String shorten(String body) {
        String oneLine = body == null ? "" : body.replaceAll("\\s+", " ");
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "..." : oneLine;
    }
}
