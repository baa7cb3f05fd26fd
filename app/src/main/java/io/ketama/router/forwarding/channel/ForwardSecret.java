package io.ketama.router.forwarding.channel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The secret members show each other before one serves another's forwards
 * ({@code ketama.router.forward.secret}). Whoever can reach a member's forward endpoints (the
 * binary channel's port, {@code /_ketama/forward/} on the HTTP port) can otherwise make it fetch
 * and cache any key as its owner would, whether it owns the key or not. With a secret, a binary
 * connection must open with it ({@link io.ketama.router.forwarding.binary.BinaryFrames#HELLO}) and an {@code http} forward must carry
 * it ({@link io.ketama.router.forwarding.http.HttpForwarding#SECRET}); anything else is refused and the sender fails over. The
 * {@code hazelcast} transport needs none: only a member of the cluster can use it.
 *
 * <p>At least {@value #MIN_LENGTH} visible ASCII characters, so it fits an HTTP header as is and
 * cannot be guessed by trying. Compared in constant time; never logged.
 */
public final class ForwardSecret {

    /** No secret: every connection and request is served (the default, as before secrets). */
    public static final ForwardSecret NONE = new ForwardSecret(null);
    static final int MIN_LENGTH = 16;

    private final byte[] bytes;

    private ForwardSecret(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The configured secret, or {@link #NONE} where none (or a blank one) is configured. */
    public static ForwardSecret of(Optional<String> configured) {
        return configured.filter(s -> !s.isBlank()).map(ForwardSecret::of).orElse(NONE);
    }

    /**
     * @throws IllegalArgumentException when {@code secret} is shorter than {@value #MIN_LENGTH}
     *                                  characters or has any but visible ASCII (the message never
     *                                  repeats the secret)
     */
    public static ForwardSecret of(String secret) {
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new IllegalArgumentException("must be visible ASCII characters only (no spaces or control "
                        + "characters), but character " + (i + 1) + " of " + secret.length() + " is not");
            }
        }
        if (secret.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("must be at least " + MIN_LENGTH + " characters, was " + secret.length());
        }
        return new ForwardSecret(secret.getBytes(StandardCharsets.US_ASCII));
    }

    /** Whether forwards must show the secret. */
    public boolean required() {
        return bytes != null;
    }

    /** Whether {@code presented} (null: none) opens the door: always when no secret is required. */
    public boolean admits(byte[] presented) {
        return bytes == null || presented != null && MessageDigest.isEqual(bytes, presented);
    }

    /** {@link #admits(byte[])} for an HTTP header's value. */
    public boolean admits(String presented) {
        return bytes == null || presented != null && admits(presented.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The secret as sent; only when {@link #required()}. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The secret as an HTTP header value; only when {@link #required()}. */
    public String text() {
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return required() ? "ForwardSecret[set]" : "ForwardSecret[none]";
    }
}
