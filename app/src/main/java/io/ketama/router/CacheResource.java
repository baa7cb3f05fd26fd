package io.ketama.router;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The OpenAPI description of {@code GET /cache/{key}}, and the answer Quarkus REST gives for
 * {@code /cache} itself: the {@code 400} of a request with no key at all.
 *
 * <p>{@link CacheRoute} serves every request under {@code /cache/} (and every proxied path at the
 * root) on the HTTP route, ahead of Quarkus REST, and hands none on: {@link #get} is the endpoint's
 * description, never a second way to serve it (reached, it would be a defect, answered as an
 * internal error).
 */
@Path("/cache")
@Tag(name = "cache", description = "Cached content, each key served by its owner")
public class CacheResource {

    @GET
    @Path("{key: .*}")
    @Produces(MediaType.WILDCARD)
    @Operation(summary = "Fetch a key through its owner, as a shared HTTP cache does",
            description = "The key is everything after /cache/ in the raw request target, query string included, byte for byte "
                    + "and never decoded (nginx's $request_uri), 1 to 8192 bytes; /cache/k is <base-url>/k at the origin. "
                    + "Every path at the root but the service's own is proxied the same way, keyed by the whole target. "
                    + "The owning member answers from its store when a stored answer may answer the request (RFC 9111), "
                    + "revalidates a stale one with the origin, or asks the origin and stores what HTTP lets a shared cache "
                    + "store, for as long as the answer says; when it fails, the next distinct member on the ring serves; when "
                    + "every candidate fails, this member asks the origin directly (X-Ketama-Cache: BYPASS). The origin's "
                    + "status, end-to-end fields and body pass through, a redirect's Location with them (not followed; one "
                    + "that points into the origin is rewritten onto this service unless ketama.router.origin.rewrite-location "
                    + "is false). Any other method on /cache/k is passed to the origin (X-Ketama-Cache: PASS).")
    @Parameter(name = "key", in = ParameterIn.PATH, required = true, description = "The key: the rest of the raw request target",
            schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING))
    @Parameter(name = FeaturesHeader.NAME, in = ParameterIn.HEADER, example = "pci,ssd",
            description = "Features the serving member must have, comma-separated")
    @APIResponse(responseCode = "200", description = "The content, from the owner's cache (HIT) or the origin (MISS, BYPASS)",
            headers = {
                @Header(name = CacheAnswers.OWNER, description = "host:port of the member that owns the key"),
                @Header(name = CacheAnswers.SERVED_BY, description = "host:port of the member that served it"),
                @Header(name = CacheAnswers.RING, description = "Ring version that chose the owner: v1 or v2"),
                @Header(name = CacheAnswers.CACHE, description = "HIT, MISS, STALE, REVALIDATED, NEAR, PASS, or BYPASS "
                        + "(origin fetched directly, nothing stored)"),
                @Header(name = CacheAnswers.FAILOVER, description = "Present when candidates failed first: how many"),
                @Header(name = CacheAnswers.SPILLED, description = "Present (1) when the owner was past its bound and the key's next "
                        + "candidate served it (bounded loads)")
            })
    @APIResponse(responseCode = "400", description = "Empty key, malformed or unknown features",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "414", description = "Key over 8 KiB",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "502", description = "The origin gave no answer, or one whose body is larger than "
            + "ketama.router.origin.max-body-bytes",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = "Ring not ready, no member has the required features, or the "
            + "members that could serve the key, or this one, are at their limits: requests, forwards, origin fetches, "
            + "or bytes of bodies held (Retry-After says when to try again)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response get() {
        throw new IllegalStateException("GET /cache/{key} reached Quarkus REST: CacheRoute serves it on the HTTP route");
    }

    @GET
    @Produces(MediaType.WILDCARD)
    @Operation(summary = "No key given", description = "Always a 400 problem: a key is required after /cache/")
    @APIResponse(responseCode = "400", description = "Empty key",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response noKey(@Context HttpServerRequest request) {
        RawKey.fromRequestTarget(request.uri(), CacheRoute.PREFIX);
        throw new ProblemException(ProblemType.EMPTY_KEY, "a key is required after " + CacheRoute.PREFIX);
    }
}
