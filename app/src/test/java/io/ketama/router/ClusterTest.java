package io.ketama.router;

import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.LocalCache;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.RingSelector;
import io.ketama.router.serving.Members;
import jakarta.inject.Inject;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the {@code @QuarkusTest} classes that run the app's member with plain {@link TestMember}s
 * joined to its cluster: the app's beans such a test looks at, and one {@link Cluster} per class,
 * which {@link #addMembers} fills before the first test and which is closed after the last. A
 * subclass states only its key prefix, its members (their features, their origins) and its own
 * profile or test resource; an {@code @AfterAll} of its own runs before the members stop (release
 * what they hold there), and what must outlive them is given to {@link #closeAfterMembers}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ClusterTest {

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    RingSelector selector;

    /** The app member's own parts, as the service's composition root made them. */
    @Inject
    LocalCache localCache;

    @Inject
    OwnerLoad ownerLoad;

    /** Null when near copies are off. */
    @Inject
    NearCache nearCache;

    @Inject
    BodyBudget bodyBudget;

    @Inject
    Forwarder appForwarder;

    Cluster cluster;

    /** Closed after the members, the last given first. */
    private final Deque<AutoCloseable> afterMembers = new ArrayDeque<>();

    /** Starts every key this class uses ({@link Cluster#keyWhere}), so that classes sharing the app never share a cached key. */
    abstract String keyPrefix();

    /** Starts this class's members ({@code cluster.add(...)}); called once, before the first test. */
    abstract void addMembers() throws Exception;

    @BeforeAll
    final void startCluster() throws Exception {
        cluster = new Cluster(hazelcast, selector, keyPrefix());
        addMembers();
    }

    @AfterAll
    final void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        while (!afterMembers.isEmpty()) {
            afterMembers.pop().close();
        }
    }

    /** Closes {@code resource} once the members have stopped (an origin they fetch from, say); answers it. */
    final <T extends AutoCloseable> T closeAfterMembers(T resource) {
        afterMembers.push(resource);
        return resource;
    }

    /** The app's own member. */
    final Member app() {
        return hazelcast.getCluster().getLocalMember();
    }

    /** The app's own member as {@link CacheAnswers#SERVED_BY} and {@link CacheAnswers#OWNER} name it. */
    final String appAddress() {
        return Members.address(app());
    }

    /** Whether {@code a} and {@code b} are the same member (a member's {@link Member} objects differ between views). */
    static boolean is(Member a, Member b) {
        return a.getUuid().equals(b.getUuid());
    }
}
