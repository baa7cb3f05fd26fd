package io.ketama.router.serving;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A built-in origin so the service runs with zero setup: after a fixed delay (standing in for the
 * origin's latency) it answers 200 with a small text body that is a pure function of the key, so
 * every member fetching a key gets the same bytes.
 */
public final class DemoOrigin implements Origin {

    private final Duration delay;

    public DemoOrigin(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("demo origin delay must be >= 0, was " + delay);
        }
        this.delay = delay;
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
    public OriginAnswer fetch(String key) {
        if (!delay.isZero()) {
            try {
                Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OriginUnavailableException("interrupted while waiting for the demo origin", e);
            }
        }
        return new OriginAnswer(200, "text/plain; charset=ISO-8859-1", contentFor(key));
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
