package io.ketama.router;

import com.hazelcast.cluster.Member;
import io.ketama.quarkus.Selection;
import io.ketama.router.forwarding.FailoverChain;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.OriginAnswerTooLargeException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;
import io.ketama.router.serving.Served;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /cache/{key}}: the key's owner serves it, from its cache or the origin; any member
 * takes the request and forwards it to the owner when another member owns the key. Runs on the
 * event loop and never blocks it: a local hit is answered at once, everything else when the
 * failover chain completes.
 *
 * <p>{@link CacheRoute} serves the {@code GET}s it can route and every {@code HEAD} on the HTTP
 * route, before this resource, with the same answers; this resource answers the rest (the
 * {@code GET}s that end in a problem before any work: a bad key or features header, rings not
 * ready, no member with the features) and is the endpoint's OpenAPI description.
 *
 * <p>A {@code GET} that gets this far and is then served after all (the rings became ready in
 * between) may carry an answer another member sent, whose body holds bytes of this member's budget
 * ({@code ketama.router.admission.max-buffered-bytes}): they are released when the response ends or
 * the connection closes ({@link RoutingContext#addEndHandler}), i.e. once Quarkus REST has handed
 * the body, copied, to the connection: the copy it writes is not counted, unlike {@link CacheRoute},
 * which writes the body's own array and releases once it is written.
 */
@Path("/cache")
@Tag(name = "cache", description = "Cached content, each key served by its owner")
public class CacheResource {

    static final String OWNER = "X-Ketama-Owner";
    static final String SERVED_BY = "X-Ketama-Served-By";
    static final String RING = "X-Ketama-Ring";
    static final String CACHE = "X-Ketama-Cache";
    static final String FAILOVER = "X-Ketama-Failover";
    /** On an answer a later candidate served because the owner was past its bound (bounded loads): {@code 1}. */
    static final String SPILLED = "X-Ketama-Spilled";
    static final String PREFIX = "/cache/";

    private final OwnerLookup owners;
    private final RouterMetrics metrics;
    private final KeyServer keyServer;
    private final FailoverChain chain;
    private final RedirectLocations redirects;
    private final io.ketama.router.load.OwnerLoad load;

    CacheResource(OwnerLookup owners, ServingParts parts, RouterMetrics metrics) {
        this.owners = owners;
        this.metrics = metrics;
        this.keyServer = parts.keyServer();
        this.chain = parts.chain();
        this.redirects = parts.redirects();
        this.load = parts.ownerLoad();
    }

    @GET
    @Path("{key: .*}")
    @Produces(MediaType.WILDCARD)
    @Operation(summary = "Fetch a key through its owner",
            description = "The key is everything after /cache/ in the raw request target, query string included, byte for byte "
                    + "and never decoded (nginx's $request_uri), 1 to 8192 bytes. The owning member answers from its cache "
                    + "or from the origin (then caches); when it fails, the next distinct member on the ring serves; when "
                    + "every candidate fails, this member fetches from the origin directly (X-Ketama-Cache: BYPASS). "
                    + "The origin's status, content type and body pass through, a redirect's Location with them "
                    + "(not followed; one that points into the origin, <base-url>/k, is sent as /cache/k unless "
                    + "ketama.router.origin.rewrite-location is false); only a plain 200 is cached.")
    @Parameter(name = "key", in = ParameterIn.PATH, required = true, description = "The key: the rest of the raw request target",
            schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING))
    @Parameter(name = FeaturesHeader.NAME, in = ParameterIn.HEADER, example = "pci,ssd",
            description = "Features the serving member must have, comma-separated")
    @APIResponse(responseCode = "200", description = "The content, from the owner's cache (HIT) or the origin (MISS, BYPASS)",
            headers = {
                @Header(name = OWNER, description = "host:port of the member that owns the key"),
                @Header(name = SERVED_BY, description = "host:port of the member that served it"),
                @Header(name = RING, description = "Ring version that chose the owner: v1 or v2"),
                @Header(name = CACHE, description = "HIT, MISS, or BYPASS (origin fetched directly, nothing cached)"),
                @Header(name = FAILOVER, description = "Present when candidates failed first: how many"),
                @Header(name = SPILLED, description = "Present (1) when the owner was past its bound and the key's next "
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
    public CompletionStage<Response> get(@Context HttpServerRequest request, @Context RoutingContext routing,
                                         @HeaderParam(FeaturesHeader.NAME) List<String> features) {
        RawKey key = RawKey.fromRequestTarget(request.uri(), PREFIX);
        Selection selection = owners.select(key, features);
        Member owner = selection.owner();
        boolean ownerSpilled = false;
        if (owner.localMember()) {
            if (load.admit(key.text())) {
                Served hit = keyServer.hit(key.text());
                if (hit != null) {
                    metrics.served(CacheStatus.HIT, false, 0);
                    return CompletableFuture.completedFuture(answer(selection, hit).build());
                }
            } else {
                ownerSpilled = true;
            }
        }
        CompletableFuture<Response> response = new CompletableFuture<>();
        (ownerSpilled ? chain.serveSpilled(key.text(), selection.candidates()) : chain.serve(key.text(), selection.candidates()))
                .whenComplete((outcome, failure) -> {
            if (failure != null) {
                response.completeExceptionally(problem(Failures.cause(failure)));
                return;
            }
            Served served = outcome.served();
            if (served.holdsBytes()) {
                if (routing.response().closed() || routing.response().ended()) {
                    served.release(); // gone already: its end handlers have run
                } else {
                    routing.addEndHandler(ended -> served.release()); // ended or the connection closed, once either way
                }
            }
            metrics.served(served.cache(), outcome.forwarded(), outcome.failures().size());
            Response.ResponseBuilder answer = answer(selection, served);
            if (!outcome.failures().isEmpty()) {
                answer.header(FAILOVER, outcome.failures().size());
            }
            if (outcome.spilled()) {
                metrics.spilled();
                answer.header(SPILLED, "1");
            }
            response.complete(answer.build());
        });
        return response;
    }

    private Response.ResponseBuilder answer(Selection selection, Served served) {
        Response.ResponseBuilder answer = Response.status(served.answer().status())
                .entity(served.answer().body())
                .type(served.answer().contentType())
                .header(OWNER, Members.address(selection.owner()))
                .header(SERVED_BY, served.servedBy())
                .header(RING, selection.version().label())
                .header(CACHE, served.cache().name());
        if (served.answer().location() != null) {
            answer.header("Location", redirects.forClient(served.answer().location()));
        }
        return answer;
    }

    /** What a failed chain is answered with: a problem, or the failure itself when it is unexpected. */
    static Throwable problem(Throwable failure) {
        if (failure instanceof OriginAnswerTooLargeException) {
            return new ProblemException(ProblemType.ORIGIN_ANSWER_TOO_LARGE, "the origin's answer is larger than this "
                    + "service takes (" + ServingParts.MAX_BODY_BYTES_KEY + "), so it was not served or cached: "
                    + failure.getMessage());
        }
        if (failure instanceof OriginUnavailableException) {
            return new ProblemException(ProblemType.ORIGIN_UNAVAILABLE, failure.getMessage());
        }
        if (failure instanceof OverloadedException) {
            return new ProblemException(ProblemType.OVERLOADED, failure.getMessage() + "; retry shortly", Map.of(), 1);
        }
        return failure;
    }

    @GET
    @Produces(MediaType.WILDCARD)
    @Operation(summary = "No key given", description = "Always a 400 problem: a key is required after /cache/")
    @APIResponse(responseCode = "400", description = "Empty key",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response noKey(@Context HttpServerRequest request) {
        RawKey.fromRequestTarget(request.uri(), PREFIX);
        throw new ProblemException(ProblemType.EMPTY_KEY, "a key is required after " + PREFIX);
    }
}
