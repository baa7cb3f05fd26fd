package io.ketama.quarkus.runtime;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET/DELETE /q/ketama/quorum} on the management interface: how many members a migration
 * change needs ({@link MigrationQuorum}) and the cluster's expected members ({@link ClusterRoster}),
 * and the one guarded call that takes a failed member off them.
 *
 * <ul>
 *   <li>{@code GET}: 200 with {@link #view}: {@code rule} ({@code learned} or {@code min-members}),
 *       {@code expectedMembers}, {@code seenMembers}, {@code requiredMembers}, {@code refusing}, and
 *       {@code expected}, each expected member with {@code missingSince} when it is missing.</li>
 *   <li>{@code DELETE ?member=<identity>} with {@code Authorization: Bearer <token>}: takes a member
 *       that failed and will not return off the expected members, so it no longer counts toward the
 *       majority. 200 with the view after; 400 {@code no-member} without the parameter; 404
 *       {@code not-expected} for a member not on the list; 409 {@code member-present} for a member in
 *       the cluster now (it counts while it is there); 503 {@code not-changed} when the list could not
 *       be changed in time; 403/401 as every guarded call. Logged with the caller's address.</li>
 * </ul>
 *
 * Runs on the event loop; the removal (remote map operations) runs on a worker.
 */
final class QuorumAdminHandler implements Handler<RoutingContext> {

    private static final Logger LOG = Logger.getLogger(QuorumAdminHandler.class);

    private final Supplier<ClusterRings> rings;
    private final Supplier<Optional<String>> token;

    QuorumAdminHandler(Supplier<ClusterRings> rings, Supplier<Optional<String>> token) {
        this.rings = rings;
        this.token = token;
    }

    @Override
    public void handle(RoutingContext rc) {
        HttpMethod method = rc.request().method();
        if (HttpMethod.GET.equals(method)) {
            AdminHttp.json(rc, 200, view(rings.get()), null);
        } else if (HttpMethod.DELETE.equals(method)) {
            delete(rc);
        } else {
            AdminHttp.methodNotAllowed(rc, "GET, DELETE");
        }
    }

    private void delete(RoutingContext rc) {
        if (!AdminHttp.authorized(rc, token.get(), "DELETE")) {
            return;
        }
        String member = rc.request().getParam("member");
        if (member == null || member.isBlank()) {
            AdminHttp.refused(rc, 400, "no-member", "No member named", "name the member to remove: DELETE /q/ketama/quorum?member="
                    + "<node id, else host:port, as GET /q/ketama/quorum lists it>");
            return;
        }
        String caller = AdminHttp.caller(rc.request());
        rc.vertx().executeBlocking(() -> rings.get().roster().remove(member.trim()), false).onComplete(done -> {
            if (done.failed()) {
                AdminHttp.refused(rc, 503, "not-changed", "Expected members not changed", done.cause().getMessage()
                        + "; nothing was changed, try again");
                return;
            }
            switch (done.result()) {
                case REMOVED -> {
                    LOG.infof("ketama admin: %s removed member %s from the cluster's expected members", caller, member.trim());
                    AdminHttp.json(rc, 200, view(rings.get()), null);
                }
                case NOT_EXPECTED -> AdminHttp.refused(rc, 404, "not-expected", "Not an expected member",
                        "member '" + member.trim() + "' is not among the cluster's expected members; nothing was changed");
                case PRESENT -> AdminHttp.refused(rc, 409, "member-present", "Member present",
                        "member '" + member.trim() + "' is in the cluster now and counts while it is there; nothing was changed");
                default -> rc.fail(new IllegalStateException(done.result().name()));
            }
        });
    }

    /** The quorum and the expected members as this member knows them now (no remote call). */
    static JsonObject view(ClusterRings rings) {
        MigrationQuorum.Status s = rings.quorum().status();
        JsonArray expected = new JsonArray();
        for (Map.Entry<String, Instant> e : rings.roster().current().members().entrySet()) {
            JsonObject m = new JsonObject().put("member", e.getKey());
            if (e.getValue() != null) {
                m.put("missingSince", e.getValue().toString());
            }
            expected.add(m);
        }
        return new JsonObject()
                .put("rule", s.learned() ? "learned" : "min-members")
                .put("expectedMembers", s.expected())
                .put("seenMembers", s.seen())
                .put("requiredMembers", s.required())
                .put("refusing", s.refusing())
                .put("expected", expected);
    }
}
