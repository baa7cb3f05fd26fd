package io.ketama.load.skew;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads HTTP/1.1 responses from bytes as they arrive on one connection: the status, the headers
 * the benchmark counts ({@code X-Ketama-Served-By}, {@code X-Ketama-Owner}, {@code X-Ketama-Cache},
 * {@code X-Ketama-Failover}) and the body, framed by {@code Content-Length} or chunked, which it
 * skips. One response at a time (one request in flight per connection); {@link #reset} before the
 * next. A malformed response is an {@link IllegalStateException}: the caller drops the connection.
 */
final class ReplyParser {

    /** A header line longer than this is malformed here (the service's are short). */
    static final int MAX_LINE = 16 * 1024;

    private enum State { STATUS, HEADERS, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, DONE }

    private final byte[] line = new byte[MAX_LINE];
    private int lineLength;
    private State state = State.STATUS;
    private long remaining;
    private boolean chunked;

    private int status;
    private boolean close;
    private String servedBy;
    private String owner;
    private String cache;
    private String failover;
    private long bodyBytes;

    void reset() {
        state = State.STATUS;
        lineLength = 0;
        remaining = 0;
        chunked = false;
        status = 0;
        close = false;
        servedBy = owner = cache = failover = null;
        bodyBytes = 0;
    }

    /**
     * Consumes bytes of {@code in} until the response is complete or the bytes run out.
     *
     * @return whether the response is complete (the bytes after it stay in {@code in})
     */
    boolean feed(ByteBuffer in) {
        while (state != State.DONE && in.hasRemaining()) {
            switch (state) {
                case BODY, CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    in.position(in.position() + n);
                    remaining -= n;
                    bodyBytes += n;
                    if (remaining == 0) {
                        state = state == State.BODY ? State.DONE : State.CHUNK_END;
                    }
                }
                default -> {
                    if (readLine(in)) {
                        onLine();
                    }
                }
            }
        }
        return state == State.DONE;
    }

    private boolean readLine(ByteBuffer in) {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (b == '\n') {
                if (lineLength > 0 && line[lineLength - 1] == '\r') {
                    lineLength--;
                }
                return true;
            }
            if (lineLength == MAX_LINE) {
                throw new IllegalStateException("a response line longer than " + MAX_LINE + " bytes");
            }
            line[lineLength++] = b;
        }
        return false;
    }

    private void onLine() {
        String text = new String(line, 0, lineLength, StandardCharsets.ISO_8859_1);
        lineLength = 0;
        switch (state) {
            case STATUS -> {
                if (!text.startsWith("HTTP/1.") || text.length() < 12) {
                    throw new IllegalStateException("not an HTTP/1.x status line: '" + text + "'");
                }
                try {
                    status = Integer.parseInt(text.substring(9, 12));
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("no status code in '" + text + "'");
                }
                close = text.startsWith("HTTP/1.0");
                state = State.HEADERS;
            }
            case HEADERS -> {
                if (text.isEmpty()) {
                    endOfHeaders();
                } else {
                    header(text);
                }
            }
            case CHUNK_SIZE -> {
                int semi = text.indexOf(';');
                String hex = (semi < 0 ? text : text.substring(0, semi)).trim();
                try {
                    remaining = Long.parseLong(hex, 16);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("a chunk size that is not hexadecimal: '" + text + "'");
                }
                state = remaining == 0 ? State.TRAILERS : State.CHUNK_DATA;
            }
            case CHUNK_END -> {
                if (!text.isEmpty()) {
                    throw new IllegalStateException("a chunk not followed by CRLF");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (text.isEmpty()) {
                    state = State.DONE;
                }
            }
            default -> throw new IllegalStateException("unexpected state " + state);
        }
    }

    private void header(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new IllegalStateException("a header line without a name: '" + text + "'");
        }
        String name = text.substring(0, colon).trim();
        String value = text.substring(colon + 1).trim();
        if (name.equalsIgnoreCase("content-length")) {
            try {
                remaining = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalStateException("a Content-Length that is not a number: '" + value + "'");
            }
        } else if (name.equalsIgnoreCase("transfer-encoding")) {
            chunked = value.toLowerCase(java.util.Locale.ROOT).contains("chunked");
        } else if (name.equalsIgnoreCase("connection")) {
            close = value.equalsIgnoreCase("close");
        } else if (name.equalsIgnoreCase("x-ketama-served-by")) {
            servedBy = value;
        } else if (name.equalsIgnoreCase("x-ketama-owner")) {
            owner = value;
        } else if (name.equalsIgnoreCase("x-ketama-cache")) {
            cache = value;
        } else if (name.equalsIgnoreCase("x-ketama-failover")) {
            failover = value;
        }
    }

    private void endOfHeaders() {
        if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (status == 204 || status == 304 || (status >= 100 && status < 200)) {
            state = State.DONE;
        } else if (remaining > 0) {
            state = State.BODY;
        } else {
            state = State.DONE;
        }
    }

    int status() {
        return status;
    }

    /** Whether the server closes the connection after this response. */
    boolean close() {
        return close;
    }

    String servedBy() {
        return servedBy;
    }

    String owner() {
        return owner;
    }

    String cache() {
        return cache;
    }

    String failover() {
        return failover;
    }

    long bodyBytes() {
        return bodyBytes;
    }
}
