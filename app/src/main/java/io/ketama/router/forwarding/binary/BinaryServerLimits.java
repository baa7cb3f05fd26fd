package io.ketama.router.forwarding.binary;

import io.ketama.router.forwarding.channel.ForwardSecret;
import java.time.Duration;

/**
 * What the binary channel's server takes from the network at most, whoever connects. A connection
 * holds at most one incomplete request frame, and all of them together at most {@code maxHeldBytes};
 * a connection that sends slowly (a slow-loris) holds its share for at most {@code frameDeadline}.
 * A connection that holds nothing costs only its socket: there is no limit on how many connect
 * (a limit would let a stranger's idle connections lock the members out), only the OS's on open
 * files; where a secret is required a connection that has not shown it within the deadline is closed.
 *
 * @param maxHeldBytes       bytes of incomplete request frames held at once, over every connection;
 *                           a connection that would take more is closed
 * @param maxRequestFrame    the longest request frame (its length field) taken; a longer one ends its connection
 * @param frameDeadlineNanos how long a frame may take to arrive once begun, and a connection to show the
 *                           forward secret where one is required; past it the connection is closed
 */
public record BinaryServerLimits(long maxHeldBytes, int maxRequestFrame, long frameDeadlineNanos) {

    /** Bytes of incomplete requests held at once by default: a thousand frames of the longest kind. */
    public static final long DEFAULT_MAX_HELD_BYTES = 64L * 1024 * 1024;
    /** How long a frame may take by default: a request frame is a few KiB, sent in one write. */
    public static final Duration DEFAULT_FRAME_DEADLINE = Duration.ofSeconds(10);

    public BinaryServerLimits {
        if (maxRequestFrame < 5) {
            throw new IllegalArgumentException("max request frame must be >= 5, was " + maxRequestFrame);
        }
        if (maxHeldBytes < maxRequestFrame + 4L) {
            throw new IllegalArgumentException("max held bytes must hold one request frame (" + (maxRequestFrame + 4L)
                    + " bytes), was " + maxHeldBytes);
        }
        if (frameDeadlineNanos < 1) {
            throw new IllegalArgumentException("frame deadline must be positive, was " + frameDeadlineNanos + " ns");
        }
    }

    /**
     * The defaults for a member that requires {@code secret}: request frames of
     * {@link BinaryFrames#MAX_REQUEST_FRAME}, or longer where a {@code HELLO} with the secret needs it.
     */
    public static BinaryServerLimits defaults(ForwardSecret secret) {
        return of(DEFAULT_MAX_HELD_BYTES, DEFAULT_FRAME_DEADLINE, secret);
    }

    /** {@code maxHeldBytes} and {@code frameDeadline}, request frames as {@link #defaults}. */
    public static BinaryServerLimits of(long maxHeldBytes, Duration frameDeadline, ForwardSecret secret) {
        int hello = secret.required() ? 5 + secret.bytes().length : 0;
        return new BinaryServerLimits(maxHeldBytes, Math.max(BinaryFrames.MAX_REQUEST_FRAME, hello), frameDeadline.toNanos());
    }
}
