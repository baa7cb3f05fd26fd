package io.ketama.quarkus.runtime;

import io.ketama.quarkus.AdminToken;
import io.ketama.quarkus.MigrationQuorumException;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the admin plane's handlers share: the token check, reading a small body, and JSON and
 * problem (RFC 9457) answers. Runs on the event loop.
 */
final class AdminHttp {

    private static final Logger LOG = Logger.getLogger(AdminHttp.class);
    static final String PROBLEM = "application/problem+json";
    static final long MAX_BODY = 4096;

    private AdminHttp() {
    }

    /** The caller's address, for the log. */
    static String caller(HttpServerRequest request) {
        return request.remoteAddress() == null ? "unknown" : request.remoteAddress().toString();
    }

    /**
     * Whether the request may change something: answers 403 when no token is configured (the plane
     * is read-only) and 401 when the token is missing or wrong, and logs the refusal.
     */
    static boolean authorized(RoutingContext rc, Optional<String> token, String what) {
        String caller = caller(rc.request());
        if (token.isEmpty()) {
            LOG.warnf("ketama admin: %s from %s refused: no admin token is configured, the admin plane is read-only", what, caller);
            problem(rc, 403, "read-only", "Read-only", "no admin token is configured (quarkus.ketama.admin.token): the admin plane "
                    + "is read-only");
            return false;
        }
        String authorization = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (!AdminToken.matches(authorization, token.get())) {
            LOG.warnf("ketama admin: %s from %s refused: %s bearer token", what, caller, authorization == null ? "no" : "a wrong");
            rc.response().putHeader("WWW-Authenticate", "Bearer realm=\"ketama-admin\"");
            problem(rc, 401, "unauthorized", "Unauthorized", "a valid 'Authorization: Bearer <token>' header is required");
            return false;
        }
        return true;
    }

    /** Hands the body (at most {@value #MAX_BODY} bytes, else a 413) to {@code then} as text. */
    static void body(RoutingContext rc, Consumer<String> then) {
        if (declaredLength(rc.request()) > MAX_BODY) {
            tooLarge(rc);
            return;
        }
        Consumer<Buffer> check = buffer -> {
            if (buffer.length() > MAX_BODY) {
                tooLarge(rc);
            } else {
                then.accept(buffer.toString(StandardCharsets.UTF_8));
            }
        };
        // The management router reads bodies itself (a BodyHandler precedes this); without one, read it here.
        if (rc.body() != null && rc.body().available()) {
            check.accept(rc.body().buffer() == null ? Buffer.buffer() : rc.body().buffer());
        } else {
            rc.request().body().onSuccess(check::accept).onFailure(rc::fail);
        }
    }

    private static void tooLarge(RoutingContext rc) {
        refused(rc, 413, "too-large", "Body too large", "the body may have at most " + MAX_BODY + " bytes");
    }

    /** The Content-Length, or 0 when absent or unreadable (the body read then enforces the limit). */
    private static long declaredLength(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        try {
            return length == null ? 0 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static void json(RoutingContext rc, int status, JsonObject body, String etag) {
        if (etag != null) {
            rc.response().putHeader(HttpHeaders.ETAG, "\"" + etag + "\"");
        }
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(body.encode());
    }

    /**
     * Answers a change that is refused for what it asks (a malformed body, header or plan, or a ramp
     * call that does not fit the ramp's phase) and logs it with the caller, as the token check and the
     * generation conflicts log theirs: an operator reading the log sees every attempt, not only those
     * that changed something.
     */
    static void refused(RoutingContext rc, int status, String type, String title, String detail) {
        LOG.infof("ketama admin: %s %s from %s refused (%d %s): %s", rc.request().method(), rc.request().path(),
                caller(rc.request()), status, type, detail);
        problem(rc, status, type, title, detail);
    }

    /** Seconds a caller refused for too few members should wait before trying again. */
    static final String QUORUM_RETRY_AFTER = "5";

    /**
     * Answers a change the cluster could not make safely ({@link MigrationQuorumException}): 503
     * with {@code Retry-After}, {@code too-few-members} when nothing was written, {@code unconfirmed}
     * when the change was stored on this side of a possibly split cluster but not acknowledged.
     */
    static void quorum(RoutingContext rc, MigrationQuorumException e) {
        rc.response().putHeader(HttpHeaders.RETRY_AFTER, QUORUM_RETRY_AFTER);
        if (e.stored()) {
            refused(rc, 503, "unconfirmed", "Change not confirmed by enough members", e.getMessage());
        } else {
            refused(rc, 503, "too-few-members", "Too few members for a change", e.getMessage());
        }
    }

    static void problem(RoutingContext rc, int status, String type, String title, String detail) {
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, PROBLEM)
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(new JsonObject()
                        .put("type", "urn:ketama:problem:" + type)
                        .put("title", title)
                        .put("status", status)
                        .put("detail", detail)
                        .put("instance", rc.request().path())
                        .encode());
    }

    static void methodNotAllowed(RoutingContext rc, String allowed) {
        rc.response().putHeader(HttpHeaders.ALLOW, allowed);
        problem(rc, 405, "method-not-allowed", "Method not allowed", rc.request().method() + " is not allowed here; use " + allowed);
    }
}
