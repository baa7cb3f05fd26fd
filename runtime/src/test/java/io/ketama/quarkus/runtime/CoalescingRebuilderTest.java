package io.ketama.quarkus.runtime;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CoalescingRebuilderTest {

    @Test
    void requestsWhileOneIsPendingFoldIntoOneRebuild() throws Exception {
        List<String> runs = new CopyOnWriteArrayList<>();
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        CountDownLatch thirdDone = new CountDownLatch(1);
        try (CoalescingRebuilder rebuilder = new CoalescingRebuilder(Duration.ZERO, reason -> {
            runs.add(reason);
            if (runs.size() == 1) {
                firstStarted.countDown();
                await(release);
            } else if (runs.size() == 2) {
                secondDone.countDown();
            } else if (runs.size() == 3) {
                thirdDone.countDown();
            }
        })) {
            rebuilder.request("a");
            assertThat(firstStarted.await(30, TimeUnit.SECONDS)).isTrue();
            // The rebuild thread is busy: the next request schedules one rebuild, the rest fold into it.
            for (int i = 0; i < 20; i++) {
                rebuilder.request("e" + i);
            }
            release.countDown();
            assertThat(secondDone.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(runs).hasSize(2);
            assertThat(runs.get(0)).isEqualTo("a");
            assertThat(runs.get(1)).startsWith("e0; e1; e2").endsWith("e7; and 12 more");
            // Once the folded rebuild ran, a request is a rebuild of its own again, with only its own reason.
            rebuilder.request("after");
            assertThat(thirdDone.await(30, TimeUnit.SECONDS)).as("a rebuild requested after the folded one ran; runs: %s", runs)
                    .isTrue();
            assertThat(runs.get(2)).isEqualTo("after");
            rebuilder.runAndWait("sync", Duration.ofSeconds(30));
            assertThat(runs).as("no other rebuild ran").containsExactly("a", runs.get(1), "after", "sync");
        }
    }

    @Test
    void aFailedRebuildDoesNotStopLaterOnes() throws Exception {
        List<String> runs = new CopyOnWriteArrayList<>();
        CountDownLatch good = new CountDownLatch(1);
        try (CoalescingRebuilder rebuilder = new CoalescingRebuilder(Duration.ZERO, reason -> {
            runs.add(reason);
            if (reason.equals("bad")) {
                throw new IllegalStateException("boom");
            }
            if (reason.equals("good")) {
                good.countDown();
            }
        })) {
            rebuilder.request("bad");
            rebuilder.runAndWait("noop-wait", Duration.ofSeconds(30)); // runs after "bad" on the one thread
            // a requested rebuild (as every membership event asks for one), not the direct run above
            rebuilder.request("good");
            assertThat(good.await(30, TimeUnit.SECONDS)).as("the rebuild requested after the failed one ran; runs: %s", runs)
                    .isTrue();
            assertThat(runs).containsExactly("bad", "noop-wait", "good");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
