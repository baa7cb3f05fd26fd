package io.ketama.router.forwarding.binary;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Byte streams an attacker or a broken peer could send on the binary channel, from a seeded
 * generator (the same seed, the same streams): mostly frames of any kind, id and payload, some at
 * the longest length taken, and among them lengths out of range (negative, under 5, past the
 * limit, huge), runs of random bytes, streams cut off mid-frame. And an independent reference
 * reading of a whole stream ({@link #expected}), plain and slow, that the reader under test must
 * agree with however the stream is cut.
 */
final class GarbageStreams {

    /** One frame as a reader hands it over: its header and a digest of its payload. */
    record Frame(int id, byte kind, int length, long digest) {
    }

    /** What a reader must make of a whole stream: these frames, then a fatal length or not. */
    record Reading(List<Frame> frames, boolean fatal) {
    }

    private final SplittableRandom random;
    private final int maxFrame;

    /** Streams for a reader that takes frames of up to {@code maxFrame} bytes (length field). */
    GarbageStreams(long seed, int maxFrame) {
        this.random = new SplittableRandom(seed);
        this.maxFrame = maxFrame;
    }

    SplittableRandom random() {
        return random;
    }

    /**
     * A stream of {@code frames} items: frames of the kinds given (or any byte), and, in two streams
     * of five, one item of garbage somewhere among them (random bytes or a length out of range: what
     * follows it is never read); one stream in four is cut off anywhere, mid-frame as likely as not.
     */
    byte[] stream(int frames, byte[] kinds) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int garbageAt = random.nextInt(5) < 2 ? random.nextInt(frames) : -1;
        for (int i = 0; i < frames; i++) {
            if (i == garbageAt) {
                if (random.nextBoolean()) {
                    out.writeBytes(badLength());
                } else {
                    byte[] junk = new byte[1 + random.nextInt(64)];
                    random.nextBytes(junk);
                    out.writeBytes(junk);
                }
            } else if (random.nextInt(1000) == 0) {
                out.writeBytes(frame(maxFrame, kinds)); // the longest taken
            } else if (random.nextInt(4) == 0 && contains(kinds, BinaryFrames.ANSWERED)) {
                out.writeBytes(answered(random.nextInt(3) == 0)); // one a reader admits, or nearly
            } else if (random.nextInt(4) == 0 && contains(kinds, BinaryFrames.FETCH)) {
                out.writeBytes(fetch(random.nextInt(3) == 0));
            } else {
                out.writeBytes(frame(5 + small(), kinds));
            }
        }
        byte[] whole = out.toByteArray();
        if (whole.length > 0 && random.nextInt(4) == 0) {
            byte[] cut = new byte[random.nextInt(whole.length)];
            System.arraycopy(whole, 0, cut, 0, cut.length);
            return cut;
        }
        return whole;
    }

    private static boolean contains(byte[] kinds, byte kind) {
        for (byte k : kinds) {
            if (k == kind) {
                return true;
            }
        }
        return false;
    }

    /** A string of up to {@code max} chars of any byte (of at least one where {@code nonEmpty}). */
    private String string(int max, boolean nonEmpty) {
        int n = (nonEmpty ? 1 : 0) + random.nextInt(max + 1);
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) random.nextInt(256));
        }
        return b.toString();
    }

    /** Fields as a frame carries them ({@link BinaryFrames#appendFields}), of random lines. */
    private io.ketama.router.caching.HttpFields fields() {
        io.ketama.router.caching.HttpFields.Builder b = io.ketama.router.caching.HttpFields.builder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            b.add(string(20, true), string(random.nextInt(10) == 0 ? 3000 : 60, false));
        }
        return b.build();
    }

    /**
     * An {@link BinaryFrames#ANSWERED} frame as a member writes it (any cache status, status, age, fields
     * and body), and, where {@code mutated}, with a few of its bytes after the header set at random.
     */
    byte[] answered(boolean mutated) {
        int status = random.nextInt(10) == 0 ? random.nextInt(65_536) : 100 + random.nextInt(900);
        io.ketama.router.caching.OriginAnswer answer = new io.ketama.router.caching.OriginAnswer(Math.max(100, Math.min(999, status)),
                fields(), new byte[random.nextInt(10) == 0 ? random.nextInt(70_000) : random.nextInt(200)], 0, random.nextInt(1 << 30));
        io.ketama.router.serving.CacheStatus[] statuses = io.ketama.router.serving.CacheStatus.values();
        io.vertx.core.buffer.Buffer frame = BinaryFrames.answered(random.nextInt(), new io.ketama.router.serving.Served(answer,
                statuses[random.nextInt(statuses.length)], "m"), random.nextInt(1 << 30));
        frame.setShort(BinaryFrames.HEADER + 1, (short) status);
        return mutate(frame.getBytes(), mutated);
    }

    /**
     * A {@link BinaryFrames#FETCH} frame as a member writes it (a request it may send), and, where
     * {@code mutated}, of any request, with a few bytes set at random.
     */
    byte[] fetch(boolean mutated) {
        // as written, a request a member sends; mangled, anything
        io.ketama.router.serving.KeyRequest request = new io.ketama.router.serving.KeyRequest(
                string(40, !mutated || random.nextInt(20) != 0),
                (mutated && random.nextInt(20) == 0 ? "" : "/") + string(40, false),
                new io.ketama.router.caching.CacheRequest(random.nextBoolean() ? "GET" : string(8, !mutated || random.nextInt(20) != 0),
                        fields()));
        io.ketama.router.tracing.TraceContext trace = random.nextBoolean() ? null
                : new io.ketama.router.tracing.TraceContext(string(55, false), string(30, false));
        return mutate(BinaryFrames.fetch(random.nextInt(), request, random.nextBoolean(), trace).getBytes(), mutated);
    }

    /** {@code frame} with, where {@code mutated}, one to four of its bytes after the header set at random. */
    private byte[] mutate(byte[] frame, boolean mutated) {
        if (mutated && frame.length > BinaryFrames.HEADER) {
            for (int n = 1 + random.nextInt(4); n > 0; n--) {
                frame[BinaryFrames.HEADER + random.nextInt(frame.length - BinaryFrames.HEADER)] = (byte) random.nextInt(256);
            }
        }
        return frame;
    }

    /** A frame whose length field is {@code length}: a kind from {@code kinds} (or any byte), any id, random payload. */
    byte[] frame(int length, byte[] kinds) {
        ByteBuffer b = ByteBuffer.allocate(4 + length);
        b.putInt(length).putInt(random.nextInt(8) == 0 ? BinaryFrames.CONTROL_ID : random.nextInt());
        b.put(kinds.length == 0 || random.nextInt(5) == 0 ? (byte) random.nextInt(256) : kinds[random.nextInt(kinds.length)]);
        byte[] payload = new byte[length - 5];
        random.nextBytes(payload);
        b.put(payload);
        if (b.get(8) == BinaryFrames.ANSWERED && length >= 5 + 15 && random.nextInt(10) != 0) {
            b.putInt(9 + 11, random.nextInt(length - 5 - 15 + 1)); // most answers' fields fit their frame
        }
        return b.array();
    }

    private int small() {
        int dice = random.nextInt(1000);
        return dice < 800 ? random.nextInt(48) : dice < 998 ? random.nextInt(4096) : random.nextInt(maxFrame - 4);
    }

    private byte[] badLength() {
        int length = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(5) - random.nextInt(2) * Integer.MAX_VALUE;   // 0..4, or far below
            case 1 -> maxFrame + 1 + random.nextInt(1024);
            case 2 -> BinaryFrames.MAX_FRAME;                                      // a large reply's, at a member
            default -> maxFrame + 1 + random.nextInt(Integer.MAX_VALUE - maxFrame - 1);
        };
        return ByteBuffer.allocate(9).putInt(length).putInt(0).put(BinaryFrames.SERVE).array();
    }

    /** The reference reading of {@code stream} by a reader taking frames of up to {@code maxFrame} bytes. */
    static Reading expected(byte[] stream, int maxFrame) {
        return expected(stream, maxFrame, maxFrame, false);
    }

    /**
     * The reference reading of {@code stream} by a reader taking replies ({@code SERVED},
     * {@code REDIRECTED}, {@code ANSWERED}) of up to {@code maxFrame} bytes and other frames of up to
     * {@code maxOther}, and no {@code ANSWERED} frame whose fields length its frame cannot hold.
     */
    static Reading expected(byte[] stream, int maxFrame, int maxOther) {
        return expected(stream, maxFrame, maxOther, true);
    }

    private static Reading expected(byte[] stream, int maxFrame, int maxOther, boolean replies) {
        List<Frame> frames = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(stream);
        while (b.remaining() >= 4) {
            int length = b.getInt(b.position());
            if (length < 5 || length > maxFrame) {
                return new Reading(frames, true);
            }
            if (replies && b.remaining() >= 9 && length > maxOther && !BinaryFrames.isReply(b.get(b.position() + 8))) {
                return new Reading(frames, true);
            }
            // an answer's head: cache status, HTTP status, age, then its fields' length, which must fit the frame
            if (replies && b.remaining() >= 9 + 15 && length >= 5 + 15 && b.get(b.position() + 8) == BinaryFrames.ANSWERED) {
                int fieldsLength = b.getInt(b.position() + 9 + 11);
                if (fieldsLength < 0 || fieldsLength > BinaryFrames.MAX_ANSWER_FIELDS || fieldsLength > length - 5 - 15) {
                    return new Reading(frames, true);
                }
            }
            if (b.remaining() - 4 < length) {
                break;
            }
            int start = b.position();
            frames.add(new Frame(b.getInt(start + 4), b.get(start + 8), length, digest(stream, start + 9, start + 4 + length)));
            b.position(start + 4 + length);
        }
        return new Reading(frames, false);
    }

    /** A digest of {@code bytes[from, to)}: FNV-1a, enough to tell payloads apart. */
    static long digest(byte[] bytes, int from, int to) {
        long h = 0xcbf29ce484222325L;
        for (int i = from; i < to; i++) {
            h = (h ^ (bytes[i] & 0xFF)) * 0x100000001b3L;
        }
        return h;
    }

    /** Cut points for feeding a stream in pieces as a socket might deliver it: single bytes, small and large reads. */
    int[] cuts(int length) {
        List<Integer> at = new ArrayList<>();
        int pos = 0;
        while (pos < length) {
            int dice = random.nextInt(10);
            int n = dice < 2 ? 1 : dice < 7 ? 1 + random.nextInt(64) : 1 + random.nextInt(65_536);
            pos = Math.min(length, pos + n);
            at.add(pos);
        }
        return at.stream().mapToInt(Integer::intValue).toArray();
    }
}
