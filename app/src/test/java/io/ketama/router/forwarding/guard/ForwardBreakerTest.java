package io.ketama.router.forwarding.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A member's circuit breaker on a clock the test moves: it opens once a full window holds enough
 * failures, refuses while open, lets one trial through after the delay, closes on the trial's
 * success and opens again on its failure; late outcomes from an earlier state do not count.
 */
class ForwardBreakerTest {

    private static final long DELAY = TimeUnit.SECONDS.toNanos(5);

    private final AtomicLong now = new AtomicLong(1_000);
    /** Window 4, ratio 0.5: two failures among the last four open it (the defaults). */
    private final ForwardBreaker breaker = new ForwardBreaker(4, 0.5, DELAY, now::get);

    @Test
    void opensOnceAFullWindowHoldsEnoughFailures() {
        record(true);
        record(true);
        assertThat(breaker.isOpen()).as("two failures, but the window of four is not full").isFalse();
        record(false);
        record(false);
        assertThat(breaker.isOpen()).as("full window, two of four failed").isTrue();
        assertThat(breaker.opened()).isEqualTo(1);
    }

    @Test
    void aWindowWithFewerFailuresStaysClosedAsItRolls() {
        for (int i = 0; i < 20; i++) {
            record(i % 4 == 0); // one failure in every four
        }
        assertThat(breaker.isOpen()).isFalse();
        record(true);
        assertThat(breaker.isOpen()).as("the last four: 17, 18, 19 and a failure").isFalse();
        record(true);
        assertThat(breaker.isOpen()).as("the last four: 18, 19 and two failures").isTrue();
    }

    @Test
    void refusesWhileOpenThenLetsOneTrialThroughAfterTheDelay() {
        open();
        assertThat(breaker.enter()).isEqualTo(ForwardBreaker.REFUSED);
        now.addAndGet(DELAY - 1);
        assertThat(breaker.enter()).isEqualTo(ForwardBreaker.REFUSED);
        assertThat(breaker.refused()).isEqualTo(2);

        now.addAndGet(1);
        long trial = breaker.enter();
        assertThat(trial).isNotEqualTo(ForwardBreaker.REFUSED);
        assertThat(breaker.enter()).as("one trial at a time").isEqualTo(ForwardBreaker.REFUSED);
        assertThat(breaker.isOpen()).isTrue();

        breaker.record(trial, false);
        assertThat(breaker.isOpen()).isFalse();
        record(true);
        assertThat(breaker.isOpen()).as("closed with an empty window").isFalse();
    }

    @Test
    void aFailedTrialOpensItForAnotherDelay() {
        open();
        now.addAndGet(DELAY);
        long trial = breaker.enter();
        breaker.record(trial, true);
        assertThat(breaker.isOpen()).isTrue();
        assertThat(breaker.opened()).isEqualTo(2);
        now.addAndGet(DELAY - 1);
        assertThat(breaker.enter()).isEqualTo(ForwardBreaker.REFUSED);
        now.addAndGet(1);
        assertThat(breaker.enter()).isNotEqualTo(ForwardBreaker.REFUSED);
    }

    @Test
    void outcomesFromAnEarlierStateDoNotCount() {
        long early = breaker.enter(); // a slow forward, started while closed
        open();
        now.addAndGet(DELAY);
        long trial = breaker.enter();
        breaker.record(early, false); // its success arrives during the trial
        assertThat(breaker.isOpen()).as("only the trial decides").isTrue();
        breaker.record(trial, false);
        assertThat(breaker.isOpen()).isFalse();
        long afterClose = breaker.enter();
        breaker.record(trial, true); // a stale ticket
        breaker.record(afterClose, false);
        assertThat(breaker.isOpen()).isFalse();
    }

    private void open() {
        for (int i = 0; i < 4; i++) {
            record(true);
        }
        assertThat(breaker.isOpen()).isTrue();
    }

    private void record(boolean failed) {
        long ticket = breaker.enter();
        assertThat(ticket).isNotEqualTo(ForwardBreaker.REFUSED);
        breaker.record(ticket, failed);
    }
}
