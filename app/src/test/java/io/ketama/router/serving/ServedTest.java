package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** What an answer holds of its member's budget: a received one its bytes until released, once; one served here nothing. */
class ServedTest {

    private static final OriginAnswer ANSWER = new OriginAnswer(200, "text/plain", new byte[100]);

    @Test
    void aReceivedAnswerHoldsItsBytesUntilReleasedOnceHoweverOftenAndFromWherever() throws Exception {
        BodyBudget budget = new BodyBudget(1000);
        List<Served> answers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            assertThat(budget.take(100)).isTrue();
            answers.add(Served.received(ANSWER, CacheStatus.MISS, "m", budget, 100));
        }
        assertThat(budget.take(1)).as("full").isFalse();
        assertThat(answers.get(0).holdsBytes()).isTrue();
        assertThat(answers.get(0).heldBytes()).isEqualTo(100);

        // each released from 4 threads at once, as a write's end and a failure seen together would
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                answers.forEach(Served::release);
            });
            threads.add(thread);
            thread.start();
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(budget.usedBytes()).as("given back once each").isZero();
        assertThat(answers).noneMatch(Served::holdsBytes);
    }

    @Test
    void anAnswerServedHereHoldsNothingAndEqualsAsTheAnswerItCarries() {
        Served here = new Served(ANSWER, CacheStatus.HIT, "m");
        assertThat(here.holdsBytes()).isFalse();
        here.release(); // nothing to give back, nothing thrown
        assertThat(here.heldBytes()).isZero();
        BodyBudget budget = new BodyBudget(1000);
        budget.take(100);
        Served received = Served.received(ANSWER, CacheStatus.HIT, "m", budget, 100);
        assertThat(received).as("what it holds is not what it is").isEqualTo(here).hasSameHashCodeAs(here);
        received.release();
        assertThat(received).isEqualTo(here);
        assertThat(new Served(ANSWER, CacheStatus.MISS, "m")).isNotEqualTo(here);
    }

    @Test
    void aReservationHandedOverPassesItsBytesToTheAnswerAndEndsItself() {
        BodyBudget budget = new BodyBudget(1000);
        BodyBudget.Reservation reservation = budget.openForReply();
        assertThat(reservation.reserve(60)).isTrue();
        assertThat(reservation.reserve(40)).isTrue();
        Served served = Served.received(ANSWER, CacheStatus.MISS, "m", budget, reservation.handOver());
        reservation.release(); // a failure seen after the hand-over gives back nothing
        assertThat(budget.usedBytes()).isEqualTo(100);
        assertThat(served.heldBytes()).isEqualTo(100);
        assertThat(reservation.reserve(1)).as("ended").isFalse();
        served.release();
        assertThat(budget.usedBytes()).isZero();
        assertThat(reservation.handOver()).as("nothing left to hand over").isZero();
    }

    @Test
    void aReplysShareIsRefusedAsNoRoomForAReply() {
        BodyBudget budget = new BodyBudget(100);
        budget.take(70);
        assertThat(budget.openForReply().refusal("an answer of 40 bytes (its Content-Length)"))
                .isInstanceOf(NoRoomForReplyException.class)
                .hasMessage("this member holds 70 of at most 100 bytes of received bodies "
                        + "(ketama.router.admission.max-buffered-bytes): no room for an answer of 40 bytes (its Content-Length)");
        assertThat(budget.open().refusal("x")).isNotInstanceOf(NoRoomForReplyException.class);
        assertThat(budget.replyRefusal("a reply of 40 bytes from member m over binary"))
                .hasMessageEndingWith("no room for a reply of 40 bytes from member m over binary");
    }
}
