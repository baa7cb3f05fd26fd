package io.ketama.router.caching;

import static io.ketama.router.caching.Fixtures.NOW;
import static io.ketama.router.caching.Fixtures.POLICY;
import static io.ketama.router.caching.Fixtures.answer;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.get;
import static io.ketama.router.caching.Fixtures.ok;
import static io.ketama.router.caching.Fixtures.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StaleOnErrorTest {

    private static boolean at(long secondsAfter, OriginAnswer stored, CacheRequest request) {
        return POLICY.staleOnError(stored, request, NOW + seconds(secondsAfter));
    }

    @Test
    void aDisconnectedCacheMayServeStaleForTheDefaultWindow_rfc9111_4_2_4() {
        OriginAnswer answer = ok("Cache-Control", "max-age=2", "Date", date(0));
        assertThat(at(3, answer, get())).isTrue();
        assertThat(at(62, answer, get())).isTrue(); // 60 s stale
        assertThat(POLICY.staleOnError(answer, get(), NOW + 62_001)).isFalse();
        CachePolicy never = new CachePolicy(new CacheSettings(0, 10, 86_400_000L, false, 0, 16, List.of()));
        assertThat(never.staleOnError(answer, get(), NOW + 3000)).isFalse();
    }

    @Test
    void staleIfErrorOfTheResponseOrRequestSetsTheWindow_rfc5861_4() {
        OriginAnswer sie = ok("Cache-Control", "max-age=2, stale-if-error=600");
        assertThat(at(500, sie, get())).isTrue();
        assertThat(at(603, sie, get())).isFalse();
        OriginAnswer short10 = ok("Cache-Control", "max-age=2, stale-if-error=10");
        assertThat(at(30, short10, get())).isFalse(); // the response's own window, not the default minute
        assertThat(at(30, short10, get("Cache-Control", "stale-if-error=100"))).isTrue();
        assertThat(at(300, ok("Cache-Control", "max-age=2"), get("Cache-Control", "stale-if-error=300"))).isTrue();
        assertThat(at(300, ok("Cache-Control", "max-age=2"), get("Cache-Control", "max-stale"))).isTrue();
    }

    @Test
    void neverWhenTheResponseForbidsStale_rfc9111_4_2_4() {
        for (String cc : new String[] {"max-age=2, must-revalidate", "max-age=2, proxy-revalidate", "max-age=2, no-cache",
            "max-age=2, s-maxage=2", "max-age=2, must-revalidate, stale-if-error=60"}) {
            assertThat(at(3, ok("Cache-Control", cc), get())).as(cc).isFalse();
        }
    }

    @Test
    void usefulPastStaleIsForeverWithAValidatorElseTheLongestStaleWindow_rfc9111_4_3() {
        assertThat(POLICY.usefulPastStaleMillis(ok("Cache-Control", "max-age=2, must-revalidate", "ETag", "\"a\""))).isEqualTo(Long.MAX_VALUE);
        assertThat(POLICY.usefulPastStaleMillis(ok("Last-Modified", date(-100)))).isEqualTo(Long.MAX_VALUE);
        assertThat(POLICY.usefulPastStaleMillis(ok("Cache-Control", "max-age=2, must-revalidate"))).isZero();
        assertThat(POLICY.usefulPastStaleMillis(ok("Cache-Control", "s-maxage=2"))).isZero();
        assertThat(POLICY.usefulPastStaleMillis(ok("Cache-Control", "max-age=2"))).isEqualTo(60_000);
        assertThat(POLICY.usefulPastStaleMillis(ok("Cache-Control", "max-age=2, stale-while-revalidate=3600"))).isEqualTo(seconds(3600));
        assertThat(POLICY.usefulPastStaleMillis(answer(200, "Cache-Control", "max-age=2, stale-if-error=120"))).isEqualTo(seconds(120));
    }
}
