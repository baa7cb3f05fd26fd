package io.ketama.router;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.ExcludedMember;
import io.ketama.quarkus.HotKeySource;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingPicture;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.RingStats;
import io.ketama.router.serving.Members;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /ring}: the rings this member routes with, and what they were built from. */
@Path("/ring")
@Tag(name = "routing")
public class RingResource {

    /** Hot keys marked on the picture: more would hide the arcs. */
    static final int PICTURE_KEYS = 8;

    private final OwnerLookup owners;
    private final HotKeySource hotKeys;

    RingResource(OwnerLookup owners, HotKeySource hotKeys) {
        this.owners = owners;
        this.hotKeys = hotKeys;
    }

    /** A member on the rings. */
    @Schema(name = "RingMember")
    record MemberEntry(String address, String uuid, String identity, int weight, List<String> features, String datacenter,
                       String nodeId, boolean local) {
    }

    /** A member left off the rings. */
    @Schema(name = "ExcludedMember")
    record ExcludedEntry(String address, String uuid, String reason) {
    }

    /** One ring version's size and balance; {@code coefficientOfVariation} is null for an empty ring. */
    @Schema(name = "RingStats")
    record StatsEntry(int points, long bytes, int pointsPerWeight, Double coefficientOfVariation) {
    }

    /** The last rebuild. */
    @Schema(name = "Rebuild")
    record RebuildEntry(long generation, Instant builtAt, String reason, double buildMillis) {
    }

    @Schema(name = "Ring")
    record RingView(String localMember, RebuildEntry lastRebuild, List<MemberEntry> members, List<ExcludedEntry> excluded,
                    Map<String, StatsEntry> rings, List<String> knownFeatures) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The current rings",
            description = "Members in ring node order with weight, features and data centre; members left out and why; "
                    + "per ring version the points, bytes and coefficient of variation of load over weight; the last rebuild. "
                    + "Answered also while this member is not ready, to show why.")
    @APIResponse(responseCode = "200", description = "The snapshot",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RingView.class)))
    @APIResponse(responseCode = "503", description = "No ring built yet",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RingView ring() {
        RingSnapshot s = owners.anySnapshot();
        var local = s.localMember();
        List<MemberEntry> members = s.members().stream().map(m -> entry(m, local != null
                && m.member().getUuid().equals(local.getUuid()))).toList();
        List<ExcludedEntry> excluded = s.excluded().stream().map(RingResource::entry).toList();
        Map<String, StatsEntry> rings = new TreeMap<>();
        for (Map.Entry<RingVersion, RingStats> e : s.rings().entrySet()) {
            RingStats r = e.getValue();
            double cov = r.coefficientOfVariation();
            rings.put(e.getKey().label(), new StatsEntry(r.points(), r.bytes(), r.pointsPerWeight(),
                    Double.isFinite(cov) ? cov : null));
        }
        RebuildEntry rebuild = new RebuildEntry(s.generation(), s.builtAt(), s.reason(), s.buildTime().toNanos() / 1e6);
        return new RingView(local == null ? null : Members.address(local), rebuild, members, excluded, rings,
                List.copyOf(new TreeSet<>(s.knownFeatures())));
    }

    /** The SVG media type {@link #picture} answers with. */
    static final String SVG = "image/svg+xml";

    @GET
    @Produces(SVG + ";qs=0.5") // below JSON: a client that accepts anything gets JSON, as before
    @Operation(summary = "The current rings as a picture",
            description = "With Accept: image/svg+xml: the hash circle with each member's arcs (outer band v1, inner band v2), "
                    + "each member's share of the circle against its weight share, members left out and why, the v1/v2 split and "
                    + "how many keys the next step of the split moves to another member, and the heaviest keys entering this member "
                    + "(up to " + PICTURE_KEYS + ") marked where they hash.")
    @APIResponse(responseCode = "200", description = "The picture", content = @Content(mediaType = SVG))
    @APIResponse(responseCode = "503", description = "No ring built yet",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public jakarta.ws.rs.core.Response picture() {
        // the type set here, without the qs parameter that only ranks this method against the JSON one
        List<String> hot = hotKeys.heaviest().stream().limit(PICTURE_KEYS).map(HotKeySource.HotKey::key).toList();
        return jakarta.ws.rs.core.Response.ok(RingPicture.svg(owners.anySnapshot(), owners.migration(), Double.NaN, hot),
                SVG + ";charset=UTF-8").build();
    }

    private static MemberEntry entry(MemberInfo m, boolean local) {
        return new MemberEntry(m.address(), m.member().getUuid().toString(), m.identity(), m.weight(),
                List.copyOf(new TreeSet<>(m.features())), m.datacenter(), m.nodeId(), local);
    }

    private static ExcludedEntry entry(ExcludedMember m) {
        return new ExcludedEntry(Members.address(m.member()), m.member().getUuid().toString(), m.reason());
    }
}
