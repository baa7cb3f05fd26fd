package io.ketama.load.skew;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The lines of a log file: the origin's access log has one line per fetch, so the difference of two
 * counts is the fetches between them. A file not there yet has none.
 */
final class LineCount {

    private LineCount() {
    }

    static long of(Path file) {
        if (file == null) {
            return 0;
        }
        long lines = 0;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
            }
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return lines;
    }
}
