package io.ketama.load.throughput;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads one HTTP/1.1 response at a time off a keep-alive connection, fed in whatever pieces the
 * socket delivers. Only what a load generator needs is kept: the status, whether the server will
 * close the connection, and where the response ends (Content-Length, chunked, or end of stream).
 * The body is skipped, never copied.
 */
final class ResponseParser {

    private enum State { HEAD, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILER, UNTIL_EOF, DONE }

    private static final int MAX_LINE = 64 * 1024;

    private final byte[] line = new byte[MAX_LINE];
    private int lineLength;
    private State state = State.HEAD;
    private boolean statusLineSeen;
    private int status;
    private long contentLength;
    private boolean chunked;
    private boolean close;
    private long remaining;

    /** Makes ready for the next response on the same connection. */
    void reset() {
        lineLength = 0;
        state = State.HEAD;
        statusLineSeen = false;
        status = 0;
        contentLength = -1;
        chunked = false;
        close = false;
        remaining = 0;
    }

    ResponseParser() {
        reset();
    }

    /**
     * Consumes bytes of {@code in} (from its position) until one response is complete or the bytes run out.
     *
     * @return true when a whole response has been read; {@code in}'s position is then just past it
     * @throws IllegalStateException when the bytes are not an HTTP/1.1 response
     */
    boolean feed(ByteBuffer in) {
        while (in.hasRemaining() && state != State.DONE) {
            switch (state) {
                case HEAD, CHUNK_SIZE, CHUNK_END, TRAILER -> {
                    if (readLine(in)) {
                        onLine();
                    }
                }
                case BODY, CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    in.position(in.position() + n);
                    remaining -= n;
                    if (remaining == 0) {
                        state = state == State.BODY ? State.DONE : State.CHUNK_END;
                    }
                }
                case UNTIL_EOF -> in.position(in.limit());
                default -> throw new IllegalStateException("unreachable: " + state);
            }
        }
        return state == State.DONE;
    }

    /** The stream ended: true if that ends a response whose body runs until the connection closes. */
    boolean endOfStream() {
        if (state == State.UNTIL_EOF) {
            state = State.DONE;
            close = true;
            return true;
        }
        return false;
    }

    /** Whether nothing of a response has been read yet (an end of stream here loses no answer). */
    boolean idle() {
        return state == State.HEAD && !statusLineSeen && lineLength == 0;
    }

    int status() {
        return status;
    }

    /** Whether the server closes the connection after this response. */
    boolean closes() {
        return close || state == State.UNTIL_EOF;
    }

    /** Reads up to and including a CRLF; true once a whole line (without CRLF) is in {@link #line}. */
    private boolean readLine(ByteBuffer in) {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (b == '\n' && lineLength > 0 && line[lineLength - 1] == '\r') {
                lineLength--;
                return true;
            }
            if (lineLength == MAX_LINE) {
                throw new IllegalStateException("HTTP line longer than " + MAX_LINE + " bytes");
            }
            line[lineLength++] = b;
        }
        return false;
    }

    private void onLine() {
        String text = new String(line, 0, lineLength, StandardCharsets.ISO_8859_1);
        lineLength = 0;
        switch (state) {
            case HEAD -> onHeadLine(text);
            case CHUNK_SIZE -> {
                int semicolon = text.indexOf(';');
                String hex = (semicolon < 0 ? text : text.substring(0, semicolon)).trim();
                try {
                    remaining = Long.parseLong(hex, 16);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("bad chunk size line '" + text + "'");
                }
                state = remaining == 0 ? State.TRAILER : State.CHUNK_DATA;
            }
            case CHUNK_END -> {
                if (!text.isEmpty()) {
                    throw new IllegalStateException("chunk not followed by CRLF");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILER -> {
                if (text.isEmpty()) {
                    state = State.DONE;
                }
            }
            default -> throw new IllegalStateException("unreachable: " + state);
        }
    }

    private void onHeadLine(String text) {
        if (!statusLineSeen) {
            if (!text.startsWith("HTTP/1.") || text.length() < 12) {
                throw new IllegalStateException("not an HTTP/1.x status line: '" + text + "'");
            }
            try {
                status = Integer.parseInt(text.substring(9, 12));
            } catch (NumberFormatException e) {
                throw new IllegalStateException("bad status in '" + text + "'");
            }
            close = text.startsWith("HTTP/1.0");
            statusLineSeen = true;
            return;
        }
        if (!text.isEmpty()) {
            int colon = text.indexOf(':');
            if (colon <= 0) {
                throw new IllegalStateException("bad header line '" + text + "'");
            }
            String name = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = text.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> {
                    String v = value.toLowerCase(Locale.ROOT);
                    if (v.contains("close")) {
                        close = true;
                    } else if (v.contains("keep-alive")) {
                        close = false;
                    }
                }
                default -> { }
            }
            return;
        }
        // end of the head: decide how the body is delimited (RFC 9112 section 6.3)
        if (status / 100 == 1) {
            statusLineSeen = false; // an interim answer: the real one follows
            return;
        }
        if (status == 204 || status == 304) {
            state = State.DONE;
        } else if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (contentLength >= 0) {
            remaining = contentLength;
            state = remaining == 0 ? State.DONE : State.BODY;
        } else {
            state = State.UNTIL_EOF;
        }
    }
}
