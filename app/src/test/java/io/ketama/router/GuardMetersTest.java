package io.ketama.router;

import io.ketama.router.serving.KeyRequest;
import io.ketama.router.tracing.TraceContext;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.forwarding.ForwardSettings;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.forwarding.GuardCounts;
import io.ketama.router.forwarding.TransportKind;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.ketama.testing.LoopbackHazelcast;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A target member's guard meters live as long as the member is in the cluster: made with the
 * first forward to it, removed when it leaves, also when it leaves while that first forward is
 * making its guard (the membership listener runs on a Hazelcast event thread, the forward on an
 * event loop).
 */
class GuardMetersTest {

    private static HazelcastInstance target;

    @BeforeAll
    static void startMember() {
        target = Hazelcast.newHazelcastInstance(LoopbackHazelcast.anyFreePort(LoopbackHazelcast.clusterName("guard-meters"),
                List.of()));
    }

    @AfterAll
    static void stopMember() {
        target.shutdown();
    }

    @Test
    void aMemberThatLeavesWhileItsFirstForwardMakesItsGuardKeepsNoMeters() throws Exception {
        Member member = target.getCluster().getLocalMember();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        GuardMeters meters = new GuardMeters(registry);
        Forwarder forwarder = new Forwarder(new Answering(), new ForwardSettings(Duration.ofSeconds(2), 0, Duration.ZERO, 4, 0.5,
                Duration.ofSeconds(5), 3, 8, 2), Set.of(member.getUuid()));
        forwarder.watchGuards(new Forwarder.GuardWatcher() {
            @Override
            public void made(GuardCounts guard) {
                // the membership listener says the member left just as its guard was put in place
                forwarder.membersNow(Set.of());
                meters.made(guard);
            }

            @Override
            public void dropped(GuardCounts guard) {
                meters.dropped(guard);
            }
        });

        forwarder.forward(member, "k").toCompletableFuture().handle((served, failure) -> null).get(30, TimeUnit.SECONDS);

        // only the zero series of no member, there from the start (issue 40), are left
        assertThat(registry.getMeters()).as("meters of a member that has left")
                .extracting(m -> m.getId().getTag("member")).isNotEmpty().containsOnly("none");
    }

    /** A transport whose every forward is answered at once. */
    private static final class Answering implements ForwardTransport {
        @Override
        public CompletionStage<Served> forward(Member target, KeyRequest request, boolean spillable, TraceContext trace) {
            return CompletableFuture.completedFuture(new Served(new OriginAnswer(200, "text/plain", new byte[] {1}),
                    CacheStatus.HIT, "m"));
        }

        @Override
        public CompletionStage<Void> invalidate(Member target, String key) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public TransportKind kind() {
            return TransportKind.BINARY;
        }

        @Override
        public void close() {
        }
    }
}
