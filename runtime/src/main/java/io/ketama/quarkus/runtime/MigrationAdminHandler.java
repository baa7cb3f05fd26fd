package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MemberStanding;
import io.ketama.quarkus.MigrationConflictException;
import io.ketama.quarkus.MigrationQuorumException;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationState;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * {@code GET/PUT /q/ketama/migration} on the management interface: the cluster's migration state,
 * and the one guarded call that changes it for every member.
 *
 * <ul>
 *   <li>{@code GET}: 200 with {@code mode}, {@code v2SharePercent}, {@code shadow},
 *       {@code generation}, {@code changedBy}, {@code changedAt}, {@code source}, what each member
 *       applies ({@code members}) and how many members a change needs ({@code quorum}: the members
 *       the cluster expects, those seen, those required, {@link QuorumAdminHandler#view}); the
 *       generation is also the {@code ETag}.</li>
 *   <li>{@code PUT}: a JSON object with any of {@code mode}, {@code v2SharePercent}, {@code shadow}
 *       (fields left out keep their value) and {@code Authorization: Bearer <token>}. 403 when no
 *       token is configured ({@code quarkus.ketama.admin.token}: the plane is read-only), 401 when the
 *       token is missing or wrong, 400 for a bad body, 412 when {@code If-Match} names a generation
 *       that is no longer current, 503 with {@code Retry-After} when the change needs more members
 *       than this member sees or than confirmed it (a majority of the expected members, or
 *       {@code quarkus.ketama.migration.min-members}:
 *       {@code too-few-members}, nothing changed; {@code unconfirmed}, stored on this side but not
 *       acknowledged), else 200 with the new state. Every change, and every refused attempt, is
 *       logged with the caller's address.</li>
 * </ul>
 *
 * Runs on the event loop; reading and changing the state (remote map operations) runs on a worker.
 */
final class MigrationAdminHandler implements Handler<RoutingContext> {

    private static final Logger LOG = Logger.getLogger(MigrationAdminHandler.class);

    private final Supplier<ClusterRings> rings;
    private final Supplier<Optional<String>> token;

    MigrationAdminHandler(Supplier<ClusterRings> rings, Supplier<Optional<String>> token) {
        this.rings = rings;
        this.token = token;
    }

    @Override
    public void handle(RoutingContext rc) {
        HttpMethod method = rc.request().method();
        if (HttpMethod.GET.equals(method)) {
            rc.vertx().executeBlocking(() -> view(rings.get()), false)
                    .onSuccess(view -> AdminHttp.json(rc, 200, view, Long.toString(view.getLong("generation"))))
                    .onFailure(rc::fail);
        } else if (HttpMethod.PUT.equals(method)) {
            put(rc);
        } else {
            AdminHttp.methodNotAllowed(rc, "GET, PUT");
        }
    }

    private void put(RoutingContext rc) {
        if (!AdminHttp.authorized(rc, token.get(), "PUT")) {
            return;
        }
        String caller = AdminHttp.caller(rc.request());
        IfMatch.read(rc, ifMatch -> AdminHttp.body(rc, body -> change(rc, body, ifMatch, caller)));
    }

    private void change(RoutingContext rc, String body, long ifMatch, String caller) {
        MigrationChange change;
        try {
            change = MigrationChange.parse(body);
        } catch (IllegalArgumentException e) {
            AdminHttp.refused(rc, 400, "malformed-body", "Malformed body", e.getMessage());
            return;
        }
        rc.vertx().executeBlocking(() -> apply(rings.get(), change, ifMatch, caller), false).onComplete(done -> {
            if (done.succeeded()) {
                AdminHttp.json(rc, 200, done.result(), Long.toString(done.result().getLong("generation")));
            } else if (done.cause() instanceof MigrationConflictException conflict) {
                LOG.infof("ketama admin: PUT from %s refused: %s", caller, conflict.getMessage());
                AdminHttp.problem(rc, 412, "generation-conflict", "Generation conflict", conflict.getMessage());
            } else if (done.cause() instanceof MigrationQuorumException quorum) {
                AdminHttp.quorum(rc, quorum);
            } else if (done.cause() instanceof IllegalArgumentException invalid) {
                AdminHttp.refused(rc, 400, "invalid-migration", "Invalid migration settings",
                        invalid.getMessage() + "; nothing was changed");
            } else {
                rc.fail(done.cause());
            }
        });
    }

    private static JsonObject apply(ClusterRings rings, MigrationChange change, long ifMatch, String caller) {
        // the fields left out keep the values current when the change is applied, not those this
        // member applied when the request came: a change made meanwhile (here or on another member) stays
        MigrationSettings[] before = new MigrationSettings[1];
        MigrationState after = rings.migrations().update(current -> {
            before[0] = current;
            return change.applyTo(current);
        }, ifMatch, MigrationState.BY_ADMIN + caller);
        LOG.infof("ketama admin: %s changed the migration from %s to %s, generation %d", caller, before[0],
                after.settings(), after.generation());
        return view(rings);
    }

    static JsonObject view(ClusterRings rings) {
        MigrationState s = rings.migration();
        JsonArray members = new JsonArray();
        for (MemberStanding m : rings.standings()) {
            members.add(new JsonObject()
                    .put("member", m.address())
                    .put("state", m.state() == null ? "unreported" : m.state().label())
                    .put("generation", m.migrationGeneration()));
        }
        JsonObject view = new JsonObject()
                .put("mode", s.settings().mode().label())
                .put("v2SharePercent", s.settings().v2SharePercent())
                .put("shadow", s.settings().shadow())
                .put("generation", s.generation())
                .put("changedBy", s.changedBy())
                .put("changedAt", s.changedAt().toString())
                .put("origin", s.origin().label())
                .put("source", rings.migrationSource().label());
        try {
            view.put("configuration", configuration(rings.migrations().adoptedConfiguration(ClusterMigration.VIEW_READ_TIMEOUT)));
        } catch (TimeoutException e) {
            // a paused or cut-off owner of the entry, not yet dropped: say so rather than wait for it
            view.put("configurationUnknown", "not read within " + ClusterMigration.VIEW_READ_TIMEOUT.toMillis()
                    + " ms: the member holding it may be paused or cut off; ask again");
        }
        // issue 40: how many members a change needs now, and how many the cluster expects
        JsonObject quorum = QuorumAdminHandler.view(rings);
        quorum.remove("expected");
        return view.put("members", members).put("quorum", quorum);
    }

    /** The configuration the cluster last adopted, or null. */
    private static JsonObject configuration(AdoptedConfiguration adopted) {
        if (adopted == null) {
            return null;
        }
        MigrationSettings c = adopted.configured().settings();
        JsonObject out = new JsonObject()
                .put("mode", c.mode().label())
                .put("v2SharePercent", c.v2SharePercent())
                .put("shadow", c.shadow());
        if (adopted.configured().revision() > 0) {
            out.put("revision", adopted.configured().revision());
        }
        return out.put("generation", adopted.generation())
                .put("from", adopted.from())
                .put("at", adopted.at().toString())
                .put("pending", new JsonArray(List.copyOf(new java.util.TreeSet<>(adopted.pending().keySet()))));
    }
}
