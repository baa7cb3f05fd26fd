package io.ketama.router.serving;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import java.util.function.Function;

/**
 * The body of an HTTP answer, read only up to a limit: refused at once when its
 * {@code Content-Length} is larger, else read whole (the length frames it); without a length,
 * gathered as it arrives and refused as soon as it grows past the limit. Where the body's bytes
 * come out of an {@link BodyBudget}, a declared length is reserved whole before a byte is read,
 * and a body without one is reserved chunk by chunk before each chunk is kept. A refusal resets the
 * request, which closes the connection rather than reading the rest. The head before the body is
 * bounded by the client's own limits (Vert.x: 4 KiB initial line, 8 KiB of headers by default).
 */
public final class BoundedBody {

    private BoundedBody() {
    }

    /**
     * @param tooLarge the failure for a body refused, given what was refused: {@code "N bytes (its
     *                 Content-Length)"} or {@code "more than N bytes (no Content-Length; refused as
     *                 they arrived)"}
     */
    public static Future<Buffer> read(HttpClientRequest request, HttpClientResponse response, int maxBytes,
                                      Function<String, ? extends RuntimeException> tooLarge) {
        return read(request, response, maxBytes, tooLarge, null);
    }

    /**
     * As {@link #read(HttpClientRequest, HttpClientResponse, int, Function)}, holding only bytes
     * that {@code bytes} reserved first; failed with {@link OverloadedException} when it cannot
     * reserve them ({@link NoRoomForReplyException} for a reply's share,
     * {@link BodyBudget#openForReply}). The caller releases {@code bytes} when its fetch ends,
     * whichever way, or hands them over to the body it keeps.
     *
     * @param bytes the fetch's share of its member's budget; null: none (nothing reserved)
     */
    public static Future<Buffer> read(HttpClientRequest request, HttpClientResponse response, int maxBytes,
                               Function<String, ? extends RuntimeException> tooLarge, BodyBudget.Reservation bytes) {
        long declared = contentLength(response.getHeader("Content-Length"));
        if (declared > maxBytes) {
            request.reset();
            return Future.failedFuture(tooLarge.apply(declared + " bytes (its Content-Length)"));
        }
        if (declared >= 0) {
            if (bytes != null && !bytes.reserve(declared)) {
                request.reset();
                return Future.failedFuture(bytes.refusal("an answer of " + declared + " bytes (its Content-Length)"));
            }
            return response.body();
        }
        Promise<Buffer> body = Promise.promise();
        Buffer received = Buffer.buffer();
        response.handler(chunk -> {
            if (body.future().isComplete()) {
                return;
            }
            if (received.length() + chunk.length() > maxBytes) {
                body.tryFail(tooLarge.apply("more than " + maxBytes + " bytes (no Content-Length; refused as they arrived)"));
                request.reset();
                return;
            }
            if (bytes != null && !bytes.reserve(chunk.length())) {
                body.tryFail(bytes.refusal(chunk.length() + " more bytes of an answer without Content-Length ("
                        + received.length() + " read so far)"));
                request.reset();
                return;
            }
            received.appendBuffer(chunk);
        });
        response.exceptionHandler(body::tryFail);
        response.endHandler(v -> body.tryComplete(received));
        return body.future();
    }

    /** The value of a {@code Content-Length} header, or -1 where there is none or it is not a length. */
    private static long contentLength(String header) {
        if (header == null) {
            return -1;
        }
        try {
            long length = Long.parseLong(header.trim());
            return length < 0 ? -1 : length;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
