package io.ketama.it;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.Selection;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** What a new user writes first: who owns a key, and what cluster this member is in. */
@Path("/")
@Produces(MediaType.TEXT_PLAIN)
public class OwnerResource {

    @Inject
    RingSelector rings;
    @Inject
    HazelcastInstance hazelcast;

    /** {@code owner=<address> ring=<v1|v2>}. */
    @GET
    @Path("owner/{key}")
    public String owner(@PathParam("key") String key) {
        Selection s = rings.select(key);
        return "owner=" + s.owner().getAddress() + " ring=" + s.version().label();
    }

    /** {@code cluster=<name> members=<count> self=<address>}. */
    @GET
    @Path("cluster")
    public String cluster() {
        return "cluster=" + hazelcast.getConfig().getClusterName() + " members=" + hazelcast.getCluster().getMembers().size()
                + " self=" + hazelcast.getCluster().getLocalMember().getAddress();
    }

    /** Whether this JVM gave Hazelcast the module access it asks for (the jar's manifest does, when run with java -jar). */
    @GET
    @Path("module-access")
    public String moduleAccess() {
        Module hz = HazelcastInstance.class.getModule();
        boolean all = Object.class.getModule().isOpen("java.lang", hz)
                && Object.class.getModule().isOpen("sun.nio.ch", hz)
                && Object.class.getModule().isExported("jdk.internal.ref", hz)
                && ModuleLayer.boot().findModule("java.management").map(m -> m.isOpen("sun.management", hz)).orElse(false)
                && ModuleLayer.boot().findModule("jdk.management")
                        .map(m -> m.isOpen("com.sun.management.internal", hz)).orElse(false);
        return "open=" + all;
    }
}
