package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The budget's accounting: never past its bound, each reservation given back once. */
class BodyBudgetTest {

    @Test
    void reservationsFitTogetherUpToTheBoundAndNoFurther() {
        BodyBudget budget = new BodyBudget(100);
        BodyBudget.Reservation a = budget.open();
        BodyBudget.Reservation b = budget.open();
        assertThat(a.reserve(60)).isTrue();
        assertThat(b.reserve(41)).as("60 + 41 > 100").isFalse();
        assertThat(budget.usedBytes()).as("a refusal takes nothing").isEqualTo(60);
        assertThat(b.reserve(40)).isTrue();
        assertThat(budget.usedBytes()).isEqualTo(100);
        assertThat(a.reserve(1)).isFalse();
        assertThat(a.reserve(0)).as("nothing more always fits").isTrue();
        assertThat(a.held()).isEqualTo(60);
    }

    @Test
    void aReservationIsGivenBackOnceAndTakesNothingAfterwards() {
        BodyBudget budget = new BodyBudget(100);
        BodyBudget.Reservation a = budget.open();
        BodyBudget.Reservation b = budget.open();
        assertThat(a.reserve(30)).isTrue();
        assertThat(a.reserve(20)).isTrue();
        assertThat(b.reserve(10)).isTrue();
        a.release();
        assertThat(budget.usedBytes()).isEqualTo(10);
        a.release();
        assertThat(budget.usedBytes()).as("released twice, given back once").isEqualTo(10);
        assertThat(a.reserve(5)).as("a fetch that ended holds no more").isFalse();
        assertThat(a.reserve(0)).isFalse();
        assertThat(budget.usedBytes()).isEqualTo(10);
        assertThat(a.held()).isZero();
        b.release();
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void manyFetchesAtOnceNeverHoldMoreThanTheBoundAndGiveEverythingBack() throws Exception {
        long max = 10_000;
        BodyBudget budget = new BodyBudget(max);
        AtomicLong highest = new AtomicLong();
        AtomicBoolean past = new AtomicBoolean();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int seed = t;
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 20_000; i++) {
                    BodyBudget.Reservation r = budget.open();
                    for (int chunk = 0; chunk < 4; chunk++) {
                        if (!r.reserve(1 + (seed * 31 + i * 7 + chunk) % 997)) {
                            break;
                        }
                        long used = budget.usedBytes();
                        highest.accumulateAndGet(used, Math::max);
                        past.compareAndSet(false, used > max);
                    }
                    r.release();
                    if (i % 3 == 0) {
                        r.release(); // a second release, as an end seen twice would make
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(past).as("never past the bound; highest seen " + highest.get()).isFalse();
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void theDefaultIsAQuarterOfTheHeapButNeverLessThanOneLargestBody() {
        long quarter = Runtime.getRuntime().maxMemory() / 4;
        assertThat(BodyBudget.defaultBytes(16 << 20)).isEqualTo(Math.max(quarter, 16 << 20));
        assertThat(BodyBudget.defaultBytes(quarter + 1)).isEqualTo(quarter + 1);
    }

    @Test
    void aRefusalNamesTheKeyAndWhatDidNotFit() {
        BodyBudget budget = new BodyBudget(100);
        BodyBudget.Reservation r = budget.open();
        r.reserve(70);
        assertThat(budget.open().refusal("an answer of 40 bytes (its Content-Length)"))
                .isInstanceOf(OverloadedException.class)
                .hasMessage("this member holds 70 of at most 100 bytes of received bodies "
                        + "(ketama.router.admission.max-buffered-bytes): no room for an answer of 40 bytes (its Content-Length)");
        assertThatThrownBy(() -> new BodyBudget(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
