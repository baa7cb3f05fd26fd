package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import io.ketama.router.caching.HttpDates;
import io.ketama.router.caching.CacheTags;
import io.ketama.router.caching.HttpFields;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A built-in origin so the service runs with zero setup: after a fixed delay (standing in for the
 * origin's latency) it answers a {@code GET} of target {@code /t} with a {@code 200} and a small text
 * body that is a pure function of the target, so every member fetching it gets the same bytes, with
 * what a well-behaved origin sends for static content: {@code Date}, {@code Cache-Control: max-age}
 * ({@code maxAge}), a strong {@code ETag} (from the body's SHA-256) and {@code Last-Modified} (the
 * time this origin was made). A request whose {@code If-None-Match} names that tag gets a
 * {@code 304}, so revalidation can be seen without an origin of one's own. A target under
 * {@code /private/} is a page for one user: {@code Cache-Control: private}, its body naming the
 * request's {@code Cookie}, so what a shared cache does with it can be seen too. Every answer to a
 * {@code GET} carries a purge tag, {@code Surrogate-Key: <its first path segment>} ({@code images} for
 * {@code /images/a.png}, {@code root} for a target without one), so purges by tag can be tried. A
 * {@code POST}, {@code PUT}, {@code PATCH} or {@code DELETE} is taken ({@code 200}, {@code no-store};
 * the content stays a pure function of the target), so an unsafe method's invalidation can be seen;
 * any other method gets a {@code 405}. The delay holds no thread: answers are released by one shared timer thread.
 */
public final class DemoOrigin implements Origin {

    /** The methods the demo origin takes as writes. */
    private static final java.util.Set<String> WRITES = java.util.Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final String ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE";

    /** One daemon timer thread for every demo origin in the JVM, started on first use. */
    private static final class Timer {
        static final ScheduledExecutorService INSTANCE = timer();

        private static ScheduledExecutorService timer() {
            ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
                Thread t = new Thread(task, "ketama-demo-origin-timer");
                t.setDaemon(true);
                return t;
            });
            timer.setRemoveOnCancelPolicy(true);
            return timer;
        }
    }

    /** What the demo origin's answers say of their freshness where none is configured. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofHours(1);

    private final Duration delay;
    private final String cacheControl;
    private final String lastModified = HttpDates.format(System.currentTimeMillis());

    /** A demo origin whose answers may be cached for {@link #DEFAULT_MAX_AGE}. */
    public DemoOrigin(Duration delay) {
        this(delay, DEFAULT_MAX_AGE);
    }

    /**
     * @param delay  how long each answer takes
     * @param maxAge what its answers say in {@code Cache-Control: max-age} (whole seconds)
     */
    public DemoOrigin(Duration delay, Duration maxAge) {
        check(delay);
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("demo origin max age must be >= 0, was " + maxAge);
        }
        this.delay = delay;
        this.cacheControl = "max-age=" + maxAge.toSeconds();
    }

    /** @throws IllegalArgumentException when {@code delay} is negative */
    public static void check(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("demo origin delay must be >= 0, was " + delay);
        }
    }

    /** The body the demo origin answers for {@code key}, without the delay. */
    public static byte[] contentFor(String key) {
        byte[] keyBytes = key.getBytes(StandardCharsets.ISO_8859_1);
        String digest = HexFormat.of().formatHex(sha256(keyBytes));
        byte[] head = "ketama-router demo origin\nkey: ".getBytes(StandardCharsets.US_ASCII);
        byte[] tail = ("\nsha-256: " + digest + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[head.length + keyBytes.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(keyBytes, 0, body, head.length, keyBytes.length);
        System.arraycopy(tail, 0, body, head.length + keyBytes.length, tail.length);
        return body;
    }

    @Override
    public CompletionStage<OriginAnswer> fetch(OriginRequest request) {
        OriginAnswer answer = answer(request);
        if (delay.isZero()) {
            return CompletableFuture.completedFuture(answer);
        }
        CompletableFuture<OriginAnswer> later = new CompletableFuture<>();
        Timer.INSTANCE.schedule(() -> later.complete(answer), delay.toNanos(), TimeUnit.NANOSECONDS);
        return later;
    }

    /** The answer to {@code request}: the key is the target without its leading slash. */
    private OriginAnswer answer(OriginRequest request) {
        long now = System.currentTimeMillis();
        String method = request.method();
        if (WRITES.contains(method)) {
            int bytes = request.body() == null ? 0 : request.body().length;
            return new OriginAnswer(200, HttpFields.of("Date", HttpDates.format(now), "Cache-Control", "no-store",
                    "Content-Type", "text/plain; charset=ISO-8859-1"), ("the demo origin took a " + method + " of " + bytes
                    + " bytes to " + request.target() + "\n").getBytes(StandardCharsets.ISO_8859_1), now, 0);
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return new OriginAnswer(405, HttpFields.of("Date", HttpDates.format(now), "Allow", ALLOW,
                    "Content-Type", "text/plain; charset=ISO-8859-1"), ("the demo origin answers " + ALLOW + "\n")
                    .getBytes(StandardCharsets.US_ASCII), now, 0);
        }
        String target = request.target();
        if (target.startsWith("/private/")) {
            String cookie = request.headers().first("Cookie");
            return new OriginAnswer(200, HttpFields.of("Date", HttpDates.format(now), "Cache-Control", "private, " + cacheControl,
                    "Content-Type", "text/plain; charset=ISO-8859-1"), ("ketama-router demo origin\npage of " + target
                    + " for " + (cookie == null ? "no cookie" : cookie) + "\n").getBytes(StandardCharsets.ISO_8859_1), now, 0);
        }
        byte[] body = contentFor(target.startsWith("/") ? target.substring(1) : target);
        String etag = "\"" + HexFormat.of().formatHex(sha256(body), 0, 8) + "\"";
        HttpFields.Builder fields = HttpFields.builder(6).add("Date", HttpDates.format(now))
                .add("Cache-Control", cacheControl).add("ETag", etag).add("Last-Modified", lastModified)
                .add(CacheTags.SURROGATE_KEY, tag(target));
        if (etag.equals(request.headers().first("If-None-Match"))) {
            return new OriginAnswer(304, fields.build(), new byte[0], now, 0);
        }
        return new OriginAnswer(200, fields.add("Content-Type", "text/plain; charset=ISO-8859-1").build(), body, now, 0);
    }

    /** The demo's purge tag of {@code target}: its first path segment ({@code /images/a.png}: {@code images}), else {@code root}. */
    static String tag(String target) {
        int start = target.startsWith("/") ? 1 : 0;
        int end = start;
        while (end < target.length() && target.charAt(end) != '/' && target.charAt(end) != '?') {
            end++;
        }
        String segment = target.substring(start, end);
        return end < target.length() && target.charAt(end) == '/' && !segment.isEmpty() && segment.chars().allMatch(c -> c > 0x20 && c < 0x7F)
                ? segment : "root";
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "DemoOrigin[delay=" + delay.toMillis() + "ms, " + cacheControl + "]";
    }
}
