package io.ketama.router;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /bench/bare}: a constant 1 KiB answered on the event loop, touching neither ring nor
 * cache. It is the floor the throughput benchmark (load-tests/throughput.sh) holds a local cache
 * hit against: what this HTTP stack costs on its own, in the same JVM with the same settings.
 */
@Path("/bench/bare")
@Tag(name = "benchmark", description = "Yardsticks for load tests")
public class BareResource {

    /** The size of the answer, as the benchmark's origin and nginx's owners answer. */
    static final int SIZE = 1024;

    private static final byte[] BODY = body();

    private static byte[] body() {
        String line = "ketama-router bare endpoint, 1 KiB, the same bytes every time ...\n";
        StringBuilder text = new StringBuilder(SIZE);
        while (text.length() < SIZE) {
            text.append(line);
        }
        return text.substring(0, SIZE).getBytes(StandardCharsets.US_ASCII);
    }

    @GET
    @NonBlocking
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    @Operation(summary = "A constant 1 KiB",
            description = "Answered on the event loop without ring, cache or forward: the HTTP stack's own cost, "
                    + "the yardstick of a local cache hit in load-tests/throughput.sh.")
    @APIResponse(responseCode = "200", description = "1024 bytes, always the same")
    public byte[] bare() {
        return BODY;
    }
}
