package io.ketama.router;

import io.ketama.quarkus.Selection;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /route/{key}}: who owns a key and who would stand in for it, fetching nothing. */
@Path("/route")
@Tag(name = "routing", description = "Where keys go, for clients that route themselves")
public class RouteResource {

    static final String PREFIX = "/route/";

    private final OwnerLookup owners;

    RouteResource(OwnerLookup owners) {
        this.owners = owners;
    }

    /**
     * The route of one key.
     *
     * @param key        the key, as UTF-8 text (bytes that are not UTF-8 show as U+FFFD)
     * @param keyBytes   its length in bytes
     * @param ring       the ring version that chose the owner
     * @param features   the required features
     * @param owner      the owning member
     * @param candidates the failover order, owner first
     */
    @Schema(name = "Route")
    record RouteView(String key, int keyBytes, String ring, Set<String> features, MemberView owner,
                     List<MemberView> candidates) {
    }

    @GET
    @Path("{key: .*}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Route a key without fetching it",
            description = "The key is read as for /cache/{key}: the raw request target after /route/, query included.")
    @Parameter(name = "key", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = FeaturesHeader.NAME, in = ParameterIn.HEADER, description = "Required features, comma-separated")
    @APIResponse(responseCode = "200", description = "The owner, ring version and failover candidates",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RouteView.class)))
    @APIResponse(responseCode = "400", description = "Empty key, malformed or unknown features",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "414", description = "Key over 8 KiB",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = "Ring not ready, or no member has the required features",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RouteView route(@Context HttpServerRequest request, @HeaderParam(FeaturesHeader.NAME) List<String> features) {
        RawKey key = RawKey.fromRequestTarget(request.uri(), PREFIX);
        Selection selection = owners.select(key, features);
        return new RouteView(key.display(), key.length(), selection.version().label(),
                FeaturesHeader.parse(features), MemberView.of(selection.owner()),
                selection.candidates().stream().map(MemberView::of).toList());
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "No key given", description = "Always a 400 problem: a key is required after /route/")
    @APIResponse(responseCode = "400", description = "Empty key",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public RouteView noKey(@Context HttpServerRequest request) {
        RawKey.fromRequestTarget(request.uri(), PREFIX);
        throw new ProblemException(ProblemType.EMPTY_KEY, "a key is required after " + PREFIX);
    }
}
