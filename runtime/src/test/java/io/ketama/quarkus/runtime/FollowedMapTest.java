package io.ketama.quarkus.runtime;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.EntryEventType;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.testing.Await;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.StartedMembers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FollowedMap} on a real member: every kind of entry event reaches its one consumer, a
 * re-read that throws keeps being run, the owner's tasks run on the one thread in order, and
 * nothing runs once it is closed.
 */
class FollowedMapTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private final StartedMembers started = new StartedMembers();

    @AfterEach
    void stop() {
        started.close();
    }

    private HazelcastInstance member(String name) {
        return started.start(LoopbackHazelcast.anyFreePort(LoopbackHazelcast.clusterName(name), List.of()));
    }

    @Test
    void everyKindOfChangeOfTheKeyFollowedReachesTheConsumerAndNoOtherKeysDo() {
        HazelcastInstance hz = member("followed-events");
        List<EntryEventType> heard = new CopyOnWriteArrayList<>();
        AtomicReference<String> lastValue = new AtomicReference<>();
        try (FollowedMap followed = new FollowedMap(hz, "followed", FollowedMap.daemon("followed-test"))) {
            followed.listen("k", (EntryEvent<String, String> e) -> {
                heard.add(e.getEventType());
                lastValue.set(e.getValue());
            }, () -> { });
            followed.map().set("other", "x");
            followed.map().set("k", "1");
            followed.map().set("k", "2");
            followed.map().delete("k");
            Await.until(() -> heard.size() >= 3, WAIT, () -> "three events of k, heard " + heard);
            assertThat(heard).containsExactly(EntryEventType.ADDED, EntryEventType.UPDATED, EntryEventType.REMOVED);
            assertThat(lastValue.get()).as("a removal carries no value").isNull();
        }
    }

    @Test
    void aRereadThatThrowsIsRunAgainAndTasksRunInOrderOnTheOneThread() {
        HazelcastInstance hz = member("followed-reread");
        AtomicInteger rereads = new AtomicInteger();
        List<String> order = new CopyOnWriteArrayList<>();
        try (FollowedMap followed = new FollowedMap(hz, "followed", FollowedMap.daemon("followed-test"))) {
            followed.rereadEvery(Duration.ofMillis(20), () -> {
                rereads.incrementAndGet();
                throw new IllegalStateException("a re-read that fails");
            });
            Await.until(() -> rereads.get() >= 3, WAIT, () -> "three re-reads, ran " + rereads.get());
            for (int i = 0; i < 50; i++) {
                int n = i;
                followed.execute(() -> order.add(n + "@" + Thread.currentThread().getName()));
            }
            followed.schedule(() -> order.add("scheduled@" + Thread.currentThread().getName()), Duration.ofMillis(50));
            Await.until(() -> order.size() == 51, WAIT, () -> "51 tasks, ran " + order.size());
            for (int i = 0; i < 50; i++) {
                assertThat(order.get(i)).isEqualTo(i + "@followed-test");
            }
            assertThat(order.get(50)).isEqualTo("scheduled@followed-test");
        }
    }

    @Test
    void nothingRunsOnceClosedAndASubmitterIsToldSo() throws Exception {
        HazelcastInstance hz = member("followed-close");
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger events = new AtomicInteger();
        FollowedMap followed = new FollowedMap(hz, "followed", FollowedMap.daemon("followed-test"));
        followed.listen(null, e -> events.incrementAndGet(), () -> { });
        assertThat(followed.submit(() -> "done").get(10, TimeUnit.SECONDS)).isEqualTo("done");
        followed.close();
        followed.close();
        followed.execute(ran::incrementAndGet);
        followed.schedule(ran::incrementAndGet, Duration.ZERO);
        followed.rereadEvery(Duration.ofMillis(10), ran::incrementAndGet);
        assertThatThrownBy(() -> followed.submit(() -> "late")).isInstanceOf(RejectedExecutionException.class);
        hz.getMap("followed").set("after-close", "v");
        // The map's own write is acknowledged; an event for it, were the listener still there, follows within milliseconds.
        Thread.sleep(300);
        assertThat(ran).hasValue(0);
        assertThat(events).as("entry events after close").hasValue(0);
    }
}
