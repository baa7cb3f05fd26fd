package io.ketama.client;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Objects;

/**
 * A member's answer to a {@link DirectClient} request.
 *
 * @param response         the member's HTTP answer as it came (status, headers, body)
 * @param member           {@code host:port} of the member that answered
 * @param owner            whether that member is the key's owner on this client's rings (false: an
 *                         earlier candidate failed, was held off, or published no HTTP port)
 * @param failedCandidates candidates that failed or were skipped before this one answered
 * @param sentToOthers     the other members ({@code host:port} as {@code member}) this request was sent
 *                         to, in order, each of which failed or answered {@code 503} with
 *                         {@code Retry-After}; a candidate skipped without a request (held off by its
 *                         breaker, or with no HTTP port) is not here
 */
public record DirectAnswer(HttpResponse<byte[]> response, String member, boolean owner, int failedCandidates, List<String> sentToOthers) {

    /** The service's header saying the owner was past its bound and the key's next candidate served it. */
    public static final String SPILLED = "X-Ketama-Spilled";

    public DirectAnswer {
        Objects.requireNonNull(response, "response");
        Objects.requireNonNull(member, "member");
        sentToOthers = List.copyOf(sentToOthers);
    }

    public int status() {
        return response.statusCode();
    }

    public byte[] body() {
        return response.body();
    }

    /** Whether the owner spilled the key to its next candidate (bounded loads): served, one forward on the members. */
    public boolean spilled() {
        return response.headers().firstValue(SPILLED).isPresent();
    }
}
