package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Writes every failure as {@code application/problem+json}, so no answer is an HTML or plain-text
 * error page. The answer to a {@code HEAD} carries the {@code Content-Length} of the document its
 * {@code GET} gets: Vert.x sets none on an answer to a {@code HEAD}, and Quarkus REST's implicit
 * {@code HEAD} drops the body without saying its length.
 */
final class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    private static final int MAX_INSTANCE_CHARS = 200;
    /**
     * The methods every resource of this service takes: each answers {@code GET} and, implicitly,
     * {@code HEAD}, nothing else (AllowHeaderTest holds every resource class to it).
     */
    static final String RESOURCE_METHODS = "GET, HEAD";
    /** The detail of an internal error: the cause goes to the log, not to the client. */
    static final String UNEXPECTED = "the service failed on this request; see its log";

    private final ObjectMapper json;

    ProblemMappers(ObjectMapper json) {
        this.json = json;
    }

    @ServerExceptionMapper
    Response problem(ProblemException e, HttpServerRequest request) {
        Response.ResponseBuilder answer = build(e.kind(), e.getMessage(), request, e.extensions());
        if (e.retryAfterSeconds() != null) {
            answer.header("Retry-After", e.retryAfterSeconds());
        }
        return answer.build();
    }

    @ServerExceptionMapper
    Response webApplication(WebApplicationException e, HttpServerRequest request) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        ProblemType kind = switch (status) {
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            default -> status >= 400 && status < 500 ? ProblemType.BAD_REQUEST : ProblemType.INTERNAL;
        };
        if (kind == ProblemType.INTERNAL) {
            LOG.error("request failed", e);
        }
        Response.ResponseBuilder answer = build(kind, e.getMessage(), request, Map.of());
        if (kind == ProblemType.BAD_REQUEST) {
            answer.status(status);
        }
        if (kind == ProblemType.METHOD_NOT_ALLOWED) {
            // RFC 9110 15.5.6: a 405 lists the methods the resource takes. Quarkus REST's own 405
            // (no resource method for the request's method) carries no Allow.
            String allow = e.getResponse().getHeaderString(HttpHeaders.ALLOW);
            answer.header(HttpHeaders.ALLOW, allow != null ? allow : RESOURCE_METHODS);
        }
        return answer.build();
    }

    @ServerExceptionMapper
    Response unexpected(Throwable e, HttpServerRequest request) {
        LOG.error("request failed unexpectedly", e);
        return build(ProblemType.INTERNAL, UNEXPECTED, request, Map.of()).build();
    }

    private Response.ResponseBuilder build(ProblemType kind, String detail, HttpServerRequest request, Map<String, Object> extensions) {
        Problem problem = new Problem(kind, detail, instance(request), extensions);
        Response.ResponseBuilder answer = Response.status(kind.status()).type(Problem.MEDIA_TYPE).entity(problem);
        if (request != null && request.method() == HttpMethod.HEAD) {
            try {
                answer.header("Content-Length", json.writeValueAsBytes(problem).length);
            } catch (JsonProcessingException e) {
                LOG.error("a problem document cannot be written", e); // the HEAD goes without its length
            }
        }
        return answer;
    }

    /** The raw request path, cut short: a key may be kilobytes long. */
    static String instance(HttpServerRequest request) {
        if (request == null) {
            return null;
        }
        String path = request.path();
        if (path == null) {
            return null;
        }
        return path.length() <= MAX_INSTANCE_CHARS ? path : path.substring(0, MAX_INSTANCE_CHARS) + "…";
    }
}
