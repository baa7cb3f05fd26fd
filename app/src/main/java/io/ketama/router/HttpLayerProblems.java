package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * Problem documents for what the HTTP layer refuses before any endpoint sees the request: a
 * request target that is not a valid URI (a {@code %} not followed by two hex digits, say), and a
 * path no endpoint serves.
 */
@Singleton
class HttpLayerProblems {

    private final ObjectMapper json;

    HttpLayerProblems(ObjectMapper json) {
        this.json = json;
    }

    void register(@Observes Router router) {
        router.errorHandler(400, ctx -> write(ctx, ProblemType.BAD_REQUEST_TARGET,
                "the request target is not a valid URI (a '%' must start an escape of two hex digits: send '%' as %25)"));
        router.errorHandler(404, ctx -> write(ctx, ProblemType.NOT_FOUND,
                "no endpoint here; the service answers /cache/{key}, /route/{key}, /ring and /q/health (metrics and the admin plane are on the management port)"));
    }

    private void write(RoutingContext ctx, ProblemType kind, String detail) {
        if (ctx.response().headWritten() || ctx.response().ended()) {
            return;
        }
        String body;
        try {
            body = json.writeValueAsString(new Problem(kind, detail, null, Map.of()));
        } catch (JsonProcessingException e) {
            ctx.response().setStatusCode(kind.status()).end();
            return;
        }
        ctx.response().setStatusCode(kind.status()).putHeader("Content-Type", Problem.MEDIA_TYPE).end(body);
    }
}
