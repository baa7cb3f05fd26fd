package io.ketama.load.throughput;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills the members' caches before a throughput run, without a single forward: asks one member
 * for the owner of every key ({@code GET /route/k/N}), then fetches each key from its owner
 * ({@code GET /cache/k/N} there, a local miss that the owner caches). Writes the keys each member
 * owns, one a line, to {@code <out>/keys-<http port>.txt} (the local-hit run reads them).
 *
 * <pre>
 * java -cp CLASSES io.ketama.load.throughput.Warm --entry=127.0.0.1:19100 \
 *   --members=127.0.0.1:19701=19100,127.0.0.1:19702=19101,127.0.0.1:19703=19102 \
 *   [--keys=100000] [--key-prefix=k/] [--concurrency=32] --out=DIR
 * </pre>
 * Exits 1 when any key could not be routed or fetched with a 200 answer.
 */
public final class Warm {

    /** Tries of one key after a 503, each after the member's Retry-After. */
    static final int MAX_RETRIES = 30;

    private static final Pattern OWNER = Pattern.compile("\"owner\"\\s*:\\s*\\{[^}]*?\"address\"\\s*:\\s*\"([^\"]+)\"");

    private Warm() {
    }

    /** The owner's cluster address in a {@code /route} answer, or null. */
    static String owner(String routeJson) {
        Matcher m = OWNER.matcher(routeJson);
        return m.find() ? m.group(1) : null;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts;
        int keys;
        int concurrency;
        Map<String, Integer> httpPortOf = new LinkedHashMap<>();
        try {
            opts = Overload.Args.parse(args, List.of("entry", "members", "keys", "key-prefix", "concurrency", "out"));
            for (String name : List.of("entry", "members", "out")) {
                if (!opts.containsKey(name)) {
                    throw new IllegalArgumentException("--" + name + " is required");
                }
            }
            Overload.Args.targets(opts.get("entry"));
            keys = Overload.Args.intIn(opts, "keys", 100_000, 1, Integer.MAX_VALUE);
            concurrency = Overload.Args.intIn(opts, "concurrency", 32, 1, 1024);
            for (String pair : opts.get("members").split(",")) {
                int eq = pair.lastIndexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("--members: '" + pair + "' is not <cluster address>=<http port>");
                }
                httpPortOf.put(pair.substring(0, eq).trim(), Integer.parseInt(pair.substring(eq + 1).trim()));
            }
        } catch (IllegalArgumentException e) {
            System.err.println("Warm: " + e.getMessage());
            System.exit(2);
            return;
        }
        String entry = opts.get("entry");
        String keyPrefix = opts.getOrDefault("key-prefix", "k/");
        Path out = Path.of(opts.get("out"));
        Files.createDirectories(out);

        ExecutorService executor = Executors.newFixedThreadPool(2);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                .connectTimeout(Duration.ofSeconds(5)).build();
        Semaphore permits = new Semaphore(concurrency);
        Map<Integer, List<String>> owned = new ConcurrentHashMap<>();
        httpPortOf.values().forEach(p -> owned.put(p, java.util.Collections.synchronizedList(new ArrayList<>())));
        Map<String, AtomicLong> cacheStatus = new ConcurrentHashMap<>();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong retried = new AtomicLong();
        long start = System.nanoTime();
        for (int i = 0; i < keys && failures.size() < 20; i++) {
            String key = keyPrefix + i;
            permits.acquire();
            client.sendAsync(get("http://" + entry + "/route/" + key), HttpResponse.BodyHandlers.ofString())
                    .thenCompose(route -> {
                        String owner = route.statusCode() == 200 ? owner(route.body()) : null;
                        Integer port = owner == null ? null : httpPortOf.get(owner);
                        if (port == null) {
                            throw new IllegalStateException("GET /route/" + key + " on " + entry + ": status " + route.statusCode()
                                    + ", owner " + owner + " is not one of " + httpPortOf.keySet());
                        }
                        return fetch(client, "http://127.0.0.1:" + port + "/cache/" + key, retried, 0).thenApply(r -> {
                                    if (r.statusCode() != 200) {
                                        throw new IllegalStateException("GET /cache/" + key + " on :" + port + ": status " + r.statusCode());
                                    }
                                    owned.get(port).add(key);
                                    String status = r.headers().firstValue("X-Ketama-Cache").orElse("none");
                                    cacheStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
                                    return r;
                                });
                    })
                    .whenComplete((r, e) -> {
                        if (e != null) {
                            failures.add(e.getCause() != null ? e.getCause().toString() : e.toString());
                        }
                        permits.release();
                    });
        }
        if (!permits.tryAcquire(concurrency, 120, TimeUnit.SECONDS)) {
            failures.add("requests still outstanding after 120 s");
        }
        executor.shutdownNow();
        double seconds = (System.nanoTime() - start) / 1e9;
        for (Map.Entry<Integer, List<String>> e : owned.entrySet()) {
            List<String> list = new ArrayList<>(e.getValue());
            list.sort(null);
            try (Writer w = Files.newBufferedWriter(out.resolve("keys-" + e.getKey() + ".txt"), StandardCharsets.US_ASCII)) {
                for (String k : list) {
                    w.write(k);
                    w.write('\n');
                }
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        StringBuilder line = new StringBuilder(String.format(java.util.Locale.ROOT, "warm keys=%d seconds=%.1f", keys, seconds));
        owned.forEach((port, list) -> line.append(" owned_by_").append(port).append('=').append(list.size()));
        cacheStatus.forEach((status, n) -> line.append(" cache_").append(status).append('=').append(n.get()));
        line.append(" retried_after_503=").append(retried.get());
        System.out.println(line);
        if (!failures.isEmpty()) {
            System.err.println("Warm: " + failures.size() + " failure(s), first: " + failures.get(0));
            System.exit(1);
        }
    }

    /**
     * GET {@code url}; a 503 (the member turned the request away, with {@code Retry-After}) is tried
     * again after the wait it asks for, at most 1 s, up to {@link #MAX_RETRIES} times, as a client
     * that honours {@code Retry-After} does: a member run with an admission limit below the warm-up's
     * concurrency ({@code ketama.router.admission.max-in-flight}) turns the excess away, and that is
     * no reason to abandon the run.
     */
    private static java.util.concurrent.CompletableFuture<HttpResponse<Void>> fetch(HttpClient client, String url,
                                                                                 AtomicLong retried, int attempt) {
        return client.sendAsync(get(url), HttpResponse.BodyHandlers.discarding()).thenCompose(r -> {
            if (r.statusCode() != 503 || attempt >= MAX_RETRIES) {
                return java.util.concurrent.CompletableFuture.completedFuture(r);
            }
            retried.incrementAndGet();
            long waitMillis = Math.min(1_000L, 1_000L * r.headers().firstValueAsLong("Retry-After").orElse(1L));
            java.util.concurrent.Executor later = java.util.concurrent.CompletableFuture.delayedExecutor(waitMillis, TimeUnit.MILLISECONDS);
            return java.util.concurrent.CompletableFuture.supplyAsync(() -> null, later)
                    .thenCompose(v -> fetch(client, url, retried, attempt + 1));
        });
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build();
    }
}

