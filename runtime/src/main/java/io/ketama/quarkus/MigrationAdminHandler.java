package io.ketama.quarkus;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET/PUT /q/ketama/migration} on the management interface: the cluster's migration state,
 * and the one guarded call that changes it for every member.
 *
 * <ul>
 *   <li>{@code GET}: 200 with {@code mode}, {@code v2SharePercent}, {@code shadow},
 *       {@code generation}, {@code changedBy}, {@code changedAt}, {@code source} and what each member
 *       applies ({@code members}); the generation is also the {@code ETag}.</li>
 *   <li>{@code PUT}: a JSON object with any of {@code mode}, {@code v2SharePercent}, {@code shadow}
 *       (fields left out keep their value) and {@code Authorization: Bearer <token>}. 403 when no
 *       token is configured ({@code quarkus.ketama.admin.token}: the plane is read-only), 401 when the
 *       token is missing or wrong, 400 for a bad body, 412 when {@code If-Match} names a generation
 *       that is no longer current, else 200 with the new state. Every change, and every refused
 *       attempt, is logged with the caller's address.</li>
 * </ul>
 *
 * Runs on the event loop; reading and changing the state (remote map operations) runs on a worker.
 */
final class MigrationAdminHandler implements Handler<RoutingContext> {

    private static final Logger LOG = Logger.getLogger(MigrationAdminHandler.class);
    static final String PROBLEM = "application/problem+json";
    static final long MAX_BODY = 4096;

    private final Supplier<RingSelector> selector;
    private final Supplier<Optional<String>> token;

    MigrationAdminHandler(Supplier<RingSelector> selector, Supplier<Optional<String>> token) {
        this.selector = selector;
        this.token = token;
    }

    @Override
    public void handle(RoutingContext rc) {
        HttpMethod method = rc.request().method();
        if (HttpMethod.GET.equals(method)) {
            rc.vertx().executeBlocking(() -> view(selector.get()), false)
                    .onSuccess(view -> json(rc, 200, view))
                    .onFailure(rc::fail);
        } else if (HttpMethod.PUT.equals(method)) {
            put(rc);
        } else {
            rc.response().putHeader(HttpHeaders.ALLOW, "GET, PUT");
            problem(rc, 405, "method-not-allowed", "Method not allowed", method + " is not allowed here; use GET or PUT");
        }
    }

    private void put(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        String caller = caller(request);
        Optional<String> expected = token.get();
        if (expected.isEmpty()) {
            LOG.warnf("ketama admin: PUT from %s refused: no admin token is configured, the admin plane is read-only", caller);
            problem(rc, 403, "read-only", "Read-only", "no admin token is configured (quarkus.ketama.admin.token): the admin plane "
                    + "is read-only");
            return;
        }
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (!matches(authorization, expected.get())) {
            LOG.warnf("ketama admin: PUT from %s refused: %s bearer token", caller, authorization == null ? "no" : "a wrong");
            rc.response().putHeader("WWW-Authenticate", "Bearer realm=\"ketama-admin\"");
            problem(rc, 401, "unauthorized", "Unauthorized", "a valid 'Authorization: Bearer <token>' header is required");
            return;
        }
        if (declaredLength(request) > MAX_BODY) {
            problem(rc, 413, "too-large", "Body too large", "the body may have at most " + MAX_BODY + " bytes");
            return;
        }
        long ifMatch;
        try {
            ifMatch = ifMatch(request.getHeader(HttpHeaders.IF_MATCH));
        } catch (IllegalArgumentException e) {
            problem(rc, 400, "invalid-if-match", "Invalid If-Match", e.getMessage());
            return;
        }
        // The management router reads bodies itself (a BodyHandler precedes this); without one, read it here.
        if (rc.body() != null && rc.body().available()) {
            putBody(rc, rc.body().buffer() == null ? Buffer.buffer() : rc.body().buffer(), ifMatch, caller);
        } else {
            request.body().onSuccess(buffer -> putBody(rc, buffer, ifMatch, caller)).onFailure(rc::fail);
        }
    }

    private void putBody(RoutingContext rc, Buffer buffer, long ifMatch, String caller) {
        if (buffer.length() > MAX_BODY) {
            problem(rc, 413, "too-large", "Body too large", "the body may have at most " + MAX_BODY + " bytes");
            return;
        }
        MigrationChange change;
        try {
            change = MigrationChange.parse(buffer.toString(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            problem(rc, 400, "malformed-body", "Malformed body", e.getMessage());
            return;
        }
        rc.vertx().executeBlocking(() -> apply(selector.get(), change, ifMatch, caller), false).onComplete(done -> {
            if (done.succeeded()) {
                json(rc, 200, done.result());
            } else if (done.cause() instanceof MigrationConflictException conflict) {
                LOG.infof("ketama admin: PUT from %s refused: %s", caller, conflict.getMessage());
                problem(rc, 412, "generation-conflict", "Generation conflict", conflict.getMessage());
            } else if (done.cause() instanceof IllegalArgumentException invalid) {
                problem(rc, 400, "invalid-migration", "Invalid migration settings", invalid.getMessage() + "; nothing was changed");
            } else {
                rc.fail(done.cause());
            }
        });
    }

    private static JsonObject apply(RingSelector selector, MigrationChange change, long ifMatch, String caller) {
        MigrationState before = selector.migration();
        MigrationSettings next = change.applyTo(before.settings());
        MigrationState after = selector.updateMigration(next, ifMatch, "admin " + caller);
        LOG.infof("ketama admin: %s changed the migration from %s to %s, generation %d", caller, before.settings(),
                after.settings(), after.generation());
        return view(selector);
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

    /** The expected generation from {@code If-Match: "N"} (or {@code N}), or any when absent or {@code *}. */
    static long ifMatch(String header) {
        if (header == null || header.isBlank() || header.trim().equals("*")) {
            return ClusterMigration.ANY_GENERATION;
        }
        String t = header.trim();
        if (t.startsWith("W/")) {
            t = t.substring(2);
        }
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            t = t.substring(1, t.length() - 1);
        }
        try {
            long g = Long.parseLong(t);
            if (g >= 1) {
                return g;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("If-Match must be a generation as the ETag gives it (e.g. \"7\") or *, was "
                + (header.length() > 40 ? header.substring(0, 40) + "…" : header));
    }

    /** Constant-time comparison of a {@code Bearer} header with the configured token. */
    static boolean matches(String authorization, String expected) {
        if (authorization == null || authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, expected.getBytes(StandardCharsets.UTF_8));
    }

    static JsonObject view(RingSelector selector) {
        MigrationState s = selector.migration();
        JsonArray members = new JsonArray();
        for (MemberStanding m : selector.memberStandings()) {
            members.add(new JsonObject()
                    .put("member", m.address())
                    .put("state", m.state() == null ? "unreported" : m.state().label())
                    .put("generation", m.migrationGeneration()));
        }
        return new JsonObject()
                .put("mode", s.settings().mode().label())
                .put("v2SharePercent", s.settings().v2SharePercent())
                .put("shadow", s.settings().shadow())
                .put("generation", s.generation())
                .put("changedBy", s.changedBy())
                .put("changedAt", s.changedAt().toString())
                .put("source", selector.migrationSource().label())
                .put("members", members);
    }

    private static String caller(HttpServerRequest request) {
        return request.remoteAddress() == null ? "unknown" : request.remoteAddress().toString();
    }

    private static void json(RoutingContext rc, int status, JsonObject body) {
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.ETAG, "\"" + body.getLong("generation") + "\"")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(body.encode());
    }

    private static void problem(RoutingContext rc, int status, String type, String title, String detail) {
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
}
