package io.ketama.cli;

import io.ketama.core.KetamaRing;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code route}: one output line per input key. A key is every byte up to {@code \n} (a
 * {@code \r} belongs to the key; a last line without {@code \n} is a key too). The line is the
 * owner's address exactly as written in the servers file or, with {@code --candidates K}, the
 * first K distinct servers in failover order separated by single spaces (fewer when the ring has
 * fewer servers, or for spymemcached and xmemcached, whose probes may find fewer).
 *
 * <p>Built for batches: keys are hashed straight from a 64 KiB input buffer and the answers are
 * precomputed address bytes copied into a buffered output, so nothing is allocated per key.
 */
final class RouteCommand {

    private static final int BUFFER = 1 << 16;

    private final KetamaRing<String> ring;
    private final int candidates;
    private final byte[][] names;

    RouteCommand(KetamaRing<String> ring, int candidates) {
        this.ring = ring;
        this.candidates = candidates;
        this.names = new byte[ring.nodeCount()][];
        for (int i = 0; i < names.length; i++) {
            names[i] = ring.points().node(i).payload().getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Routes every key of {@code in} to {@code out}; returns how many keys it routed. */
    long run(InputStream in, OutputStream out) throws IOException {
        OutputStream sink = new BufferedOutputStream(out, BUFFER);
        int[] chosen = new int[Math.min(candidates, names.length)];
        byte[] buf = new byte[BUFFER];
        int start = 0;
        int end = 0;
        long keys = 0;
        while (true) {
            if (end == buf.length) {
                if (start > 0) {
                    // compact the partial key to the front
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                } else {
                    buf = Arrays.copyOf(buf, buf.length * 2); // a key longer than the buffer
                }
            }
            int read = in.read(buf, end, buf.length - end);
            if (read < 0) {
                break;
            }
            int scan = end;
            end += read;
            for (int i = scan; i < end; i++) {
                if (buf[i] == '\n') {
                    write(sink, buf, start, i - start, chosen);
                    keys++;
                    start = i + 1;
                }
            }
            if (start == end) {
                start = 0;
                end = 0;
            }
        }
        if (end > start) {
            write(sink, buf, start, end - start, chosen);
            keys++;
        }
        sink.flush();
        return keys;
    }

    private void write(OutputStream sink, byte[] key, int offset, int length, int[] chosen) throws IOException {
        if (chosen.length <= 1) {
            sink.write(names[ring.points().nodeIndexForHash(ring.hashKey(key, offset, length))]);
        } else {
            int n = ring.points().candidateIndices(key, offset, length, chosen);
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    sink.write(' ');
                }
                sink.write(names[chosen[i]]);
            }
        }
        sink.write('\n');
    }
}
