package io.ketama.router;

import io.ketama.router.serving.HttpOrigin;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A {@link ClusterTest} of the app behind a real HTTP origin (a subclass runs with
 * {@code @TestProfile(HttpOriginProfile.class)}): the
 * {@link HttpTestOrigin} on the port the profile named, and one plain member {@code b} that fetches
 * from it too, with the app's {@link HttpOriginProfile#MAX_BODY_BYTES}. A subclass sets the origin's
 * answers per key ({@code origin.answer(...)}) and asks for keys owned here or by {@code b}.
 */
abstract class HttpOriginClusterTest extends ClusterTest {

    @ConfigProperty(name = "ketama.router.origin.base-url")
    String baseUrl;

    HttpTestOrigin origin;
    TestMember b;

    @Override
    void addMembers() throws Exception {
        origin = closeAfterMembers(HttpTestOrigin.start(URI.create(baseUrl).getPort()));
        HttpOrigin membersOrigin = new HttpOrigin(origin.vertx(), baseUrl, Duration.ofSeconds(10), 4,
                HttpOriginProfile.MAX_BODY_BYTES);
        closeAfterMembers(membersOrigin::close);
        b = cluster.add(Set.of(), membersOrigin);
    }

    /** A key the origin was never asked for, owned by this member or by {@code b}. */
    final String freshKeyOwnedBy(boolean local) {
        return cluster.keyWhere(Set.of(), s -> is(s.owner(), local ? app() : b.member()), k -> origin.requests(k) == 0);
    }
}
