package io.ketama.router.hot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The heavy-hitter sketch: in a Zipf stream it lists the heaviest keys (the true top ones, in order),
 * estimates never below the true count and close above it, rates as the requests a second; counts
 * halve every window and a key that goes quiet leaves the list; a uniform stream lists no key; a
 * record allocates nothing once the list is settled; its memory is fixed.
 */
class HotKeysTest {

    private final AtomicLong now = new AtomicLong();

    /** Ranks 0..n-1 with weights 1/(r+1)^s. */
    private static int[] zipf(int keys, double s, int requests, long seed) {
        double[] cdf = new double[keys];
        double sum = 0;
        for (int k = 0; k < keys; k++) {
            sum += Math.pow(k + 1, -s);
            cdf[k] = sum;
        }
        Random random = new Random(seed);
        int[] out = new int[requests];
        for (int i = 0; i < requests; i++) {
            double u = random.nextDouble() * sum;
            int lo = 0;
            int hi = keys - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            out[i] = lo;
        }
        return out;
    }

    @Test
    void aZipfStreamsHeaviestKeysAreListedInOrderWithTheirRates() {
        HotKeys hot = new HotKeys(32, 16, Duration.ofSeconds(1), now::get);
        String[] names = new String[20_000];
        for (int i = 0; i < names.length; i++) {
            names[i] = "/objects/" + i + ".bin";
        }
        int[] stream = zipf(names.length, 1.1, 20_000, 7); // one second of 20,000 requests
        int[] truth = new int[names.length];
        for (int i = 0; i < stream.length; i++) {
            now.set(i * 50_000L); // 50 us apart
            hot.record(names[stream[i]]);
            truth[stream[i]]++;
        }
        List<HotKeys.HotKey> top = hot.top();
        assertThat(top).hasSize(32);
        for (int rank = 0; rank < 10; rank++) {
            assertThat(top.get(rank).key()).as("rank %d", rank).isEqualTo(names[rank]);
        }
        for (HotKeys.HotKey k : top) {
            int key = Integer.parseInt(k.key().substring(9, k.key().length() - 4));
            assertThat(k.estimate()).as(k.key()).isBetween((long) truth[key], truth[key] + 30L);
        }
        // a second in: the rate of the hottest is its count over the window and the time since it began
        assertThat(top.get(0).rate()).isCloseTo(top.get(0).estimate() / 2.0, org.assertj.core.data.Offset.offset(1.0));
        assertThat(hot.isHot(names[0])).isTrue();
        assertThat(hot.isHot(names[19_999])).isFalse();
    }

    @Test
    void countsHalveEveryWindowAndAQuietKeyLeavesTheList() {
        HotKeys hot = new HotKeys(4, 16, Duration.ofSeconds(1), now::get);
        for (int i = 0; i < 100; i++) {
            hot.record("loud");
        }
        assertThat(hot.estimate("loud")).isEqualTo(100);
        hot.halve();
        assertThat(hot.estimate("loud")).isEqualTo(50);
        hot.halve(); // 25
        assertThat(hot.top()).extracting(HotKeys.HotKey::key).containsExactly("loud");
        hot.halve(); // 12
        assertThat(hot.top()).as("below min-requests: dropped").isEmpty();
        assertThat(hot.isHot("loud")).isFalse();
    }

    @Test
    void aUniformStreamListsNoKeyAndAlmostNoneCountsAsHot() {
        // 10 s over 20,000 keys, halved every second, at 10,000 and at 50,000 requests a second into one
        // member: each key 0.5 or 2.5 a second (a true count of up to 1 or 5), the sketch's error on top
        for (int rate : new int[] {10_000, 50_000}) {
            HotKeys hot = new HotKeys(32, 16, Duration.ofSeconds(1), now::get);
            Random random = new Random(11);
            int listed = 0;
            long seenHot = 0;
            for (int second = 0; second < 10; second++) {
                for (int i = 0; i < rate; i++) {
                    String key = "/uniform/" + random.nextInt(20_000);
                    hot.record(key);
                    if (hot.estimate(key) >= hot.minCount()) {
                        seenHot++; // a request whose forwarded answer the near cache would keep
                    }
                }
                listed = Math.max(listed, hot.top().size());
                hot.halve();
            }
            double share = (double) seenHot / (10L * rate);
            System.out.printf("HotKeysTest: uniform at %d a second: at most %d keys listed, %.5f of the requests counted hot%n",
                    rate, listed, share);
            if (rate == 10_000) {
                assertThat(listed).as("keys listed at 10,000 a second").isZero();
            }
            assertThat(share).as("requests whose key counted as hot at %d a second", rate).isLessThan(0.001);
        }
    }

    @Test
    void recordingAllocatesNothingOnceTheListIsSettled() {
        HotKeys hot = new HotKeys(32, 16, Duration.ofSeconds(1), now::get);
        String[] names = new String[2_000];
        for (int i = 0; i < names.length; i++) {
            names[i] = "/k/" + i;
            names[i].hashCode(); // a request's key computes its hash once, as here
        }
        int[] stream = zipf(names.length, 1.1, 400_000, 3);
        for (int i = 0; i < 200_000; i++) {
            hot.record(names[stream[i]]);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 200_000; i < 400_000; i++) {
            hot.record(names[stream[i]]);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated by 200,000 records (a key entering the list allocates its entry)")
                .isLessThan(4_096);
        assertThat(HotKeys.sketchBytes()).isEqualTo(64 * 1024);
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new HotKeys(0, 16, Duration.ofSeconds(1), now::get))
                .hasMessage(".top: must be 1 to 1024 keys, e.g. 32; was 0");
        assertThatThrownBy(() -> new HotKeys(32, 0, Duration.ofSeconds(1), now::get))
                .hasMessage(".min-requests: must be 1 to 1000000 requests, e.g. 16; was 0");
        assertThatThrownBy(() -> new HotKeys(32, 16, Duration.ofMillis(10), now::get))
                .hasMessage(".window: must be 100 ms to 1 h, e.g. 1s; was PT0.01S");
    }
}
