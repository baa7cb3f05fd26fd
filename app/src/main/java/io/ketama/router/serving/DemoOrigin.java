package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

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
 * origin's latency) it answers 200 with a small text body that is a pure function of the key, so
 * every member fetching a key gets the same bytes. The delay holds no thread: answers are released
 * by one shared timer thread.
 */
public final class DemoOrigin implements Origin {

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

    private final Duration delay;

    public DemoOrigin(Duration delay) {
        check(delay);
        this.delay = delay;
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
    public CompletionStage<OriginAnswer> fetch(String key) {
        OriginAnswer answer = new OriginAnswer(200, "text/plain; charset=ISO-8859-1", contentFor(key));
        if (delay.isZero()) {
            return CompletableFuture.completedFuture(answer);
        }
        CompletableFuture<OriginAnswer> later = new CompletableFuture<>();
        Timer.INSTANCE.schedule(() -> later.complete(answer), delay.toNanos(), TimeUnit.NANOSECONDS);
        return later;
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
        return "DemoOrigin[delay=" + delay.toMillis() + "ms]";
    }
}
