package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationLedgerTest {

    private static final long T0 = 10_000_000L;

    @Test
    void classifiesFirstAnswersOfAStepAndPredictsFromThePreviousStep() {
        Timeline timeline = new Timeline(T0, 100);
        MigrationLedger ledger = new MigrationLedger(List.of(0, 10, 50), 10);
        RequestLog log = RequestLog.both(RequestLog.of(timeline), ledger);

        ledger.beginStep(0, T0, new ShadowCounters(0, 0));
        log.finished(T0 + 100, 1, Outcome.MISS, 20, false, 0);   // cold
        log.finished(T0 + 200, 2, Outcome.MISS, 20, false, 0);   // cold
        log.finished(T0 + 300, 3, Outcome.MISS, 20, false, 0);   // cold
        log.finished(T0 + 400, 1, Outcome.HIT, 1, false, 0);     // repeat, hit
        log.finished(T0 + 500, 4, Outcome.ERROR, -1, false, 0);  // caches nothing
        log.finished(T0 + 600, 5, Outcome.BYPASS, 30, false, 2); // caches nothing either

        ledger.beginStep(1, T0 + 10_000, new ShadowCounters(60, 100));   // rate 0.6 in step 0
        log.finished(T0 + 10_100, 1, Outcome.HIT, 1, false, 0);   // carried, stayed
        log.finished(T0 + 10_200, 2, Outcome.MISS, 20, true, 0);  // carried, moved
        log.finished(T0 + 10_300, 2, Outcome.MISS, 20, true, 0);  // repeat miss (duplicate or eviction)
        log.finished(T0 + 10_400, 4, Outcome.MISS, 20, false, 0); // cold (its earlier try failed)

        ledger.beginStep(2, T0 + 20_000, new ShadowCounters(110, 200));  // rate 0.5 in step 1
        log.finished(T0 + 20_100, 3, Outcome.MISS, 20, true, 0);  // stale: last answered in step 0
        log.finished(T0 + 20_200, 1, Outcome.MISS, 20, true, 0);  // carried, moved
        ledger.finish(T0 + 30_000, new ShadowCounters(150, 300));
        log.finished(T0 + 30_100, 7, Outcome.MISS, 20, true, 0);  // after the last step: not counted
        log.finished(T0 + 30_200, 2, Outcome.MISS, 20, true, 0);

        List<StepResult> results = ledger.results(timeline, 10);
        assertThat(results).hasSize(3);

        StepResult warmup = results.get(0);
        assertThat(warmup.coldRequests()).isEqualTo(3);
        assertThat(warmup.carriedKeys()).isZero();
        assertThat(warmup.repeatMisses()).isZero();
        assertThat(warmup.predictedMovedFraction()).isZero();
        assertThat(warmup.shadow().rate()).isEqualTo(0.6);
        assertThat(warmup.window().errors()).isEqualTo(1);
        assertThat(warmup.window().bypasses()).isEqualTo(1);

        StepResult ten = results.get(1);
        assertThat(ten.carriedKeys()).isEqualTo(2);
        assertThat(ten.movedMisses()).isEqualTo(1);
        assertThat(ten.repeatMisses()).isEqualTo(1);
        assertThat(ten.coldRequests()).isEqualTo(1);
        assertThat(ten.previousRate()).isEqualTo(0.6);
        assertThat(ten.predictedMovedFraction()).isCloseTo(0.10 * 0.6, within(1e-12));
        assertThat(ten.observedMovedFraction()).isEqualTo(0.5);
        assertThat(ten.startSecond()).isEqualTo(10);
        assertThat(ten.endSecond()).isEqualTo(20);
        assertThat(ten.hitRatioBefore()).isEqualTo(0.2);   // 1 hit of 5 answers: the bypass counts against it

        StepResult fifty = results.get(2);
        assertThat(fifty.coldRequests()).isZero();
        assertThat(fifty.carriedKeys()).isEqualTo(1);
        assertThat(fifty.movedMisses()).isEqualTo(1);
        assertThat(fifty.predictedMovedFraction()).isCloseTo(0.40 * 0.5, within(1e-12));
        assertThat(fifty.shadow().rate()).isCloseTo(0.4, within(1e-12));
    }

    @Test
    void keysThatFailedOverAreLeftOutOfTheMoveCount() {
        Timeline timeline = new Timeline(T0, 100);
        MigrationLedger ledger = new MigrationLedger(List.of(0, 50), 10);
        ledger.beginStep(0, T0, new ShadowCounters(0, 0));
        ledger.finished(T0 + 100, 1, Outcome.MISS, 20, false, 1);   // served after a failover: maybe two copies
        ledger.finished(T0 + 200, 2, Outcome.MISS, 20, false, 0);
        ledger.finished(T0 + 300, 3, Outcome.ERROR, -1, false, 0);  // the server may have cached it anyway
        ledger.finished(T0 + 400, 3, Outcome.MISS, 20, false, 0);
        ledger.beginStep(1, T0 + 10_000, new ShadowCounters(5, 10));
        ledger.finished(T0 + 10_100, 1, Outcome.HIT, 1, true, 0);
        ledger.finished(T0 + 10_200, 2, Outcome.MISS, 20, true, 0);
        ledger.finished(T0 + 10_300, 3, Outcome.HIT, 1, true, 0);
        ledger.finish(T0 + 20_000, new ShadowCounters(10, 20));

        StepResult step = ledger.results(timeline, 5).get(1);
        assertThat(step.carriedKeys()).isEqualTo(1);
        assertThat(step.movedMisses()).isEqualTo(1);
        assertThat(step.taintedCarried()).isEqualTo(2);
    }

    @Test
    void stepsMustBeBegunInOrder() {
        MigrationLedger ledger = new MigrationLedger(List.of(0, 10), 10);
        assertThatThrownBy(() -> ledger.beginStep(1, T0, ShadowCounters.ZERO)).hasMessageContaining("step 1 begun after step -1");
        ledger.beginStep(0, T0, ShadowCounters.ZERO);
        ledger.beginStep(1, T0, ShadowCounters.ZERO);
        assertThatThrownBy(() -> ledger.beginStep(2, T0, ShadowCounters.ZERO)).hasMessageContaining("of 2");
    }

    @Test
    void unknownCountersGiveNoPrediction() {
        Timeline timeline = new Timeline(T0, 30);
        MigrationLedger ledger = new MigrationLedger(List.of(0, 100), 5);
        ledger.beginStep(0, T0, ShadowCounters.UNKNOWN);
        ledger.beginStep(1, T0 + 5000, ShadowCounters.UNKNOWN);
        ledger.finish(T0 + 9000, ShadowCounters.UNKNOWN);
        assertThat(ledger.results(timeline, 2).get(1).predictedMovedFraction()).isNaN();
    }

    @Test
    void planValidatesShares() {
        assertThatThrownBy(() -> new MigrationPlan(List.of(0, 50, 10), 10, 10, "a", List.of("b")))
                .hasMessageContaining("must not decrease");
        assertThatThrownBy(() -> new MigrationPlan(List.of(0), 10, 10, "a", List.of("b"))).hasMessageContaining("at least two steps");
        MigrationPlan plan = new MigrationPlan(List.of(0, 1, 10, 50, 100), 40, 25, "a", List.of("b"));
        assertThat(plan.totalSeconds()).isEqualTo(140);
        assertThat(MigrationPlan.migrationBody(10)).isEqualTo("{\"mode\":\"SPLIT\",\"v2SharePercent\":10,\"shadow\":true}");
    }
}
