package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequestFiguresTest {

    private final Fault isolate3 = new FaultPlan(5, 30, 20, 3, 5).fault(FaultKind.ISOLATE, 3);
    private final Fault pause2 = new FaultPlan(5, 30, 20, 3, 5).fault(FaultKind.PAUSE, 2);

    private static RequestRecord ok(long at, int entry, String key, String owner, String servedBy, String cache) {
        return new RequestRecord(at, entry, key, 200, 5, owner, servedBy, cache, false, null, null);
    }

    private static RequestRecord status(long at, int entry, int status, long millis, boolean retryAfter, String problem) {
        return new RequestRecord(at, entry, "k", status, millis, null, null, null, retryAfter, problem, null);
    }

    private static RequestRecord noAnswer(long at, int entry) {
        return new RequestRecord(at, entry, "k", 0, 15_000, null, null, null, false, null, "timed out");
    }

    @Test
    void requestsAreJudgedByWhereTheyEnteredWhileTheFaultLasts() {
        List<RequestRecord> rs = List.of(
                ok(1_000, 1, "a", "m1", "m1", "HIT"),
                status(1_100, 1, 502, 30, false, "origin-unavailable"),
                ok(1_200, 3, "b", "m3", "m3", "MISS"),
                status(1_300, 3, 503, 4, true, "overloaded"),
                status(1_400, 3, 503, 1_500, true, "overloaded"), // too slow to be a fast refusal
                status(1_450, 3, 503, 3, false, "ring-not-ready"), // no Retry-After
                noAnswer(1_500, 3),
                ok(500, 1, "z", "m1", "m1", "HIT"), // before the window
                noAnswer(9_000, 3) // after the classes end: judged as connected
        );
        RequestFigures f = RequestFigures.of(isolate3, rs, 1_000, 5_000, 10_000, 1_000);
        assertThat(f.connected()).isEqualTo(new RequestFigures.Counts(3, 1, 0, 1, 1, 15_000));
        assertThat(f.connected().failed()).isEqualTo(2);
        assertThat(f.cutOff()).isEqualTo(new RequestFigures.Counts(5, 1, 1, 1, 2, 15_000));
        assertThat(f.impaired().total()).isZero();
        assertThat(f.ringNotReady()).isEqualTo(1);
        assertThat(f.failedExamples()).hasSize(2).first().asString().contains("m1 k at 1100 ms: 502 origin-unavailable");
        assertThat(f.connectedFailuresText(3)).isEqualTo("1 502 origin-unavailable on m1, 1 no answer on m3");
    }

    @Test
    void theImpairedMembersRequestsAreCountedApart() {
        List<RequestRecord> rs = List.of(noAnswer(1_000, 2), noAnswer(1_001, 2), ok(1_002, 1, "a", "m2", "m3", "MISS"));
        RequestFigures f = RequestFigures.of(pause2, rs, 0, 10_000, 10_000, 1_000);
        assertThat(f.impaired().failed()).isEqualTo(2);
        assertThat(f.connected().failed()).isZero();
        assertThat(f.servedByOther()).isEqualTo(1);
    }

    @Test
    void keysServedByTwoMembersCountOnceAndBypassesDoNotCount() {
        List<RequestRecord> rs = List.of(
                ok(1, 1, "a", "m1", "m1", "HIT"), ok(2, 2, "a", "m3", "m3", "MISS"), ok(3, 3, "a", "m3", "m3", "HIT"),
                ok(4, 1, "b", "m2", "m2", "HIT"), ok(5, 3, "b", "m2", "m3", "BYPASS"),
                ok(6, 1, "c", "m4", "m4", "HIT"));
        RequestFigures f = RequestFigures.of(isolate3, rs, 0, 10, 10, 1_000);
        assertThat(f.keysServedByTwo()).isEqualTo(1);
        assertThat(f.bypasses()).isEqualTo(1);
        assertThat(f.servedByOther()).isEqualTo(1);
    }
}
