package io.ketama.router;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/**
 * A client's request body, read whole up to a limit ({@code ketama.router.proxy.max-request-body-bytes}):
 * refused from its {@code Content-Length} before a byte is read, or as soon as more arrived, with a
 * {@code 413} problem ({@link ProblemType#REQUEST_TOO_LARGE}).
 */
final class RequestBodies {

    private RequestBodies() {
    }

    /** The body of {@code request}, at most {@code maxBytes}; failed with a {@link ProblemException} past it. */
    static Future<Buffer> read(HttpServerRequest request, int maxBytes) {
        String declared = request.getHeader("Content-Length");
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                length = -1;
            }
            if (length > maxBytes) {
                return Future.failedFuture(tooLarge(length + " bytes (its Content-Length)", maxBytes));
            }
        }
        Promise<Buffer> body = Promise.promise();
        Buffer received = Buffer.buffer();
        request.handler(chunk -> {
            if (body.future().isComplete()) {
                return;
            }
            if (received.length() + chunk.length() > maxBytes) {
                body.tryFail(tooLarge("more than " + maxBytes + " bytes", maxBytes));
                return;
            }
            received.appendBuffer(chunk);
        });
        request.exceptionHandler(body::tryFail);
        request.endHandler(v -> body.tryComplete(received));
        return body.future();
    }

    private static ProblemException tooLarge(String what, int maxBytes) {
        return new ProblemException(ProblemType.REQUEST_TOO_LARGE, "the request's body is " + what + "; this service passes at most "
                + maxBytes + " bytes to the origin (ketama.router.proxy.max-request-body-bytes)");
    }
}
