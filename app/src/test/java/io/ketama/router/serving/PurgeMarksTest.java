package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What a member remembers of its purges: which fetches may still store, the bound, the fence, the pause watch. */
class PurgeMarksTest {

    @Test
    void aFetchMayStoreUnlessItsKeyOrOneOfItsTagsWasPurgedAfterItStarted() {
        PurgeMarks marks = new PurgeMarks();
        long before = marks.mark();
        assertThat(marks.purgedSince(before, "/a", List.of("t"))).as("nothing purged since").isFalse();

        marks.purged(List.of("/a"), Set.of("news"));
        long after = marks.mark();
        assertThat(marks.purgedSince(before, "/a", List.of())).as("its key, purged after it started").isTrue();
        assertThat(marks.purgedSince(before, "/b", List.of("sport", "news"))).as("one of its tags").isTrue();
        assertThat(marks.purgedSince(before, "/b", List.of("sport"))).as("neither its key nor its tags").isFalse();
        assertThat(marks.purgedSince(after, "/a", List.of("news"))).as("started after the purge").isFalse();
    }

    @Test
    void pastTheBoundEveryFetchUnderWayCountsAsPurged() {
        PurgeMarks marks = new PurgeMarks();
        long before = marks.mark();
        List<String> many = new ArrayList<>();
        for (int i = 0; i <= PurgeMarks.MAX_REMEMBERED; i++) {
            many.add("/k" + i);
        }
        marks.purged(many, Set.of());
        assertThat(marks.purgedSince(before, "/never-purged", List.of())).as("forgotten names count as everything").isTrue();
        long after = marks.mark();
        assertThat(marks.purgedSince(after, "/k1", List.of())).isFalse();
    }

    @Test
    void aFenceDropsEveryStoreAndEveryFetchUnderWay() {
        PurgeMarks marks = new PurgeMarks();
        AtomicInteger dropped = new AtomicInteger();
        marks.onFence(dropped::incrementAndGet);
        marks.onFence(dropped::incrementAndGet);
        long before = marks.mark();
        marks.fence("a test");
        assertThat(dropped).hasValue(2);
        assertThat(marks.purgedSince(before, "/any", List.of())).isTrue();
        assertThat(marks.fences()).isEqualTo(1);
        assertThat(marks.lastFence()).isEqualTo("a test");
    }

    @Test
    void aStandStillLongerThanTheBoundFencesOnTheFirstLookupOrTickAfterIt() {
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        PurgeMarks marks = new PurgeMarks(nanos::get, 1_500);
        AtomicInteger dropped = new AtomicInteger();
        marks.onFence(dropped::incrementAndGet);
        assertThat(marks.awake()).as("no watch yet: nothing to judge by").isFalse();

        marks.tick();
        nanos.addAndGet(1_400_000_000L);
        assertThat(marks.awake()).as("1.4 s since the last tick, within the bound").isFalse();
        marks.tick();
        nanos.addAndGet(1_600_000_000L);
        assertThat(marks.awake()).as("1.6 s without a tick: this JVM stood still").isTrue();
        assertThat(dropped).hasValue(1);
        assertThat(marks.awake()).as("one fence per stand-still").isFalse();

        nanos.addAndGet(5_000_000_000L);
        marks.tick(); // the watch runs first after this stand-still
        assertThat(dropped).hasValue(2);
        assertThat(marks.lastFence()).startsWith("this member stood still for 5000 ms");
    }
}
