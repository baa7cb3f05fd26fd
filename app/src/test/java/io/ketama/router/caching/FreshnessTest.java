package io.ketama.router.caching;

import static io.ketama.router.caching.Fixtures.POLICY;
import static io.ketama.router.caching.Fixtures.answer;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.ok;
import static io.ketama.router.caching.Fixtures.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FreshnessTest {

    private static long lifetime(OriginAnswer answer) {
        return POLICY.freshnessLifetimeMillis(answer);
    }

    @Test
    void sMaxageWinsOverMaxAgeInASharedCache_rfc9111_5_2_2_10() {
        assertThat(lifetime(ok("Cache-Control", "max-age=3600, s-maxage=1"))).isEqualTo(seconds(1));
        assertThat(lifetime(ok("Cache-Control", "s-maxage=1, max-age=3600"))).isEqualTo(seconds(1));
        assertThat(lifetime(ok("Cache-Control", "max-age=3600", "Cache-Control", "s-maxage=1"))).isEqualTo(seconds(1));
        assertThat(lifetime(ok("Cache-Control", "max-age=0, s-maxage=3600", "Expires", date(-10)))).isEqualTo(seconds(3600));
    }

    @Test
    void maxAgeWinsOverExpires_rfc9111_5_2_2_1() {
        assertThat(lifetime(ok("Cache-Control", "max-age=0", "Expires", date(3600), "Date", date(0)))).isZero();
        assertThat(lifetime(ok("Cache-Control", "max-age=3600", "Expires", date(-7200), "Date", date(0)))).isEqualTo(seconds(3600));
        assertThat(lifetime(ok("Cache-Control", "max-age=3600", "Expires", "0", "Date", date(0)))).isEqualTo(seconds(3600));
    }

    @Test
    void anInvalidMaxAgeMakesTheResponseStaleNotHeuristic_rfc9111_4_2_1() {
        assertThat(lifetime(ok("Cache-Control", "max-age=-3600", "Last-Modified", date(-86400), "Date", date(0)))).isZero();
        assertThat(lifetime(ok("Cache-Control", "max-age='3600'"))).isZero();
    }

    @Test
    void maxAgePast2To31IsCapped_rfc9111_1_2_2() {
        assertThat(lifetime(ok("Cache-Control", "max-age=99999999999"))).isEqualTo(seconds(2_147_483_648L));
    }

    @Test
    void expiresMinusDate_rfc9111_5_3() {
        assertThat(lifetime(ok("Expires", date(2_592_000), "Date", date(0)))).isEqualTo(seconds(2_592_000));
        assertThat(lifetime(ok("Expires", date(300), "Date", date(400)))).isZero(); // Expires before Date
        assertThat(lifetime(ok("Expires", date(0), "Date", date(0)))).isZero();
        assertThat(lifetime(ok("Expires", date(20), "Date", date(10)))).isEqualTo(seconds(10)); // Date fast: Expires - Date, not - now
    }

    @Test
    void withoutAValidDateExpiresCountsFromArrival_rfc9111_4_2_1() {
        assertThat(lifetime(ok("Expires", date(10), "Date", "foo"))).isEqualTo(seconds(10));
        assertThat(lifetime(ok("Expires", date(10)))).isEqualTo(seconds(10));
    }

    @Test
    void anInvalidExpiresMeansAlreadyExpired_rfc9111_5_3() {
        assertThat(lifetime(ok("Expires", "0", "Date", date(0)))).isZero();
        assertThat(lifetime(ok("Expires", "Thu, 18 Aug 2050 02:01:18 UTC", "Date", date(0)))).isZero();
        assertThat(lifetime(ok("Expires", "Thu, 18 Aug 50 02:01:18 GMT", "Date", date(0)))).isZero();
    }

    @Test
    void expiresLinesThatDisagreeMeanStaleAndLinesThatAgreeCount_rfc9111_4_2_1() {
        assertThat(lifetime(ok("Expires", date(100), "Expires", date(200), "Date", date(0)))).isZero();
        assertThat(lifetime(ok("Expires", date(100), "Expires", date(100), "Date", date(0)))).isEqualTo(seconds(100));
    }

    @Test
    void heuristicIsAPercentageOfTheTimeSinceLastModifiedCapped_rfc9111_4_2_2() {
        assertThat(lifetime(ok("Last-Modified", date(-86_400), "Date", date(0)))).isEqualTo(seconds(8_640));
        assertThat(lifetime(ok("Last-Modified", date(-30), "Date", date(0)))).isEqualTo(seconds(3));
        assertThat(lifetime(ok("Last-Modified", date(-86_400 * 100), "Date", date(0)))).isEqualTo(86_400_000L); // capped at a day
        assertThat(lifetime(ok("Last-Modified", date(10), "Date", date(0)))).isZero(); // modified "after" Date
        CachePolicy half = new CachePolicy(new CacheSettings(0, 50, 1000, false, 0, 16, List.of()));
        assertThat(half.freshnessLifetimeMillis(ok("Last-Modified", date(-100), "Date", date(0)))).isEqualTo(1000);
        assertThat(half.freshnessLifetimeMillis(ok("Last-Modified", date(-1), "Date", date(0)))).isEqualTo(500);
    }

    @Test
    void heuristicsOnlyForHeuristicallyCacheableStatusesOrPublic_rfc9111_4_2_2() {
        for (int status : new int[] {200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501}) {
            assertThat(lifetime(answer(status, "Last-Modified", date(-86_400), "Date", date(0)))).as("%d", status).isEqualTo(seconds(8_640));
        }
        for (int status : new int[] {201, 202, 302, 303, 307, 400, 403, 500, 502, 503, 504, 599}) {
            assertThat(lifetime(answer(status, "Last-Modified", date(-86_400), "Date", date(0)))).as("%d", status).isZero();
        }
        assertThat(lifetime(answer(599, "Last-Modified", date(-86_400), "Date", date(0), "Cache-Control", "public")))
                .isEqualTo(seconds(8_640));
    }

    @Test
    void theDefaultTtlIsAHeuristicWhereThereIsNoLastModified_rfc9111_4_2_2() {
        CachePolicy ttl = new CachePolicy(new CacheSettings(60_000, 10, 86_400_000L, false, 0, 16, List.of()));
        assertThat(ttl.freshnessLifetimeMillis(ok("Date", date(0)))).isEqualTo(60_000);
        assertThat(ttl.freshnessLifetimeMillis(ok("Last-Modified", date(-100), "Date", date(0)))).isEqualTo(seconds(10));
        assertThat(ttl.freshnessLifetimeMillis(answer(503, "Date", date(0)))).isZero(); // no heuristic for a 503
        assertThat(ttl.freshnessLifetimeMillis(ok("Cache-Control", "max-age=5"))).isEqualTo(seconds(5));
        assertThat(lifetime(ok("Date", date(0)))).isZero();
    }

    @Test
    void pragmaInAResponseHasNoEffectOnFreshness_rfc9111_5_4() {
        assertThat(lifetime(ok("Cache-Control", "max-age=3600", "Pragma", "no-cache"))).isEqualTo(seconds(3600));
    }

    @Test
    void aValidTargetedFieldReplacesCacheControlAndExpires_rfc9213_2_2() {
        assertThat(lifetime(ok("Cache-Control", "max-age=3600", "CDN-Cache-Control", "max-age=1"))).isEqualTo(seconds(1));
        assertThat(lifetime(ok("Cache-Control", "max-age=1", "CDN-Cache-Control", "max-age=3600"))).isEqualTo(seconds(3600));
        assertThat(lifetime(ok("CDN-Cache-Control", "max-age=0", "Expires", date(10_000), "Date", date(0)))).isZero();
        assertThat(lifetime(ok("CDN-Cache-Control", "max-age=3600", "Expires", date(-10_000), "Date", date(0)))).isEqualTo(seconds(3600));
        assertThat(lifetime(ok("CDN-Cache-Control", "s-maxage=5, max-age=3600"))).isEqualTo(seconds(5));
        // a targeted field without a lifetime still replaces Expires: heuristics then
        assertThat(lifetime(ok("CDN-Cache-Control", "public", "Expires", date(10_000), "Date", date(0)))).isZero();
    }

    @Test
    void anInvalidTargetedFieldIsIgnored_rfc9213_2_1() {
        assertThat(lifetime(ok("Cache-Control", "max-age=1", "CDN-Cache-Control", "max-age =100"))).isEqualTo(seconds(1));
        assertThat(lifetime(ok("Cache-Control", "max-age=1", "CDN-Cache-Control", "max-age=\"100\""))).isEqualTo(seconds(1));
    }

    @Test
    void factsAreReadOnceAndReadAgainForOtherSettings() {
        OriginAnswer answer = ok("Last-Modified", date(-1000), "Date", date(0));
        assertThat(lifetime(answer)).isEqualTo(seconds(100));
        Object facts = answer.directives;
        assertThat(lifetime(answer)).isEqualTo(seconds(100));
        assertThat(answer.directives).isSameAs(facts);
        CachePolicy half = new CachePolicy(new CacheSettings(0, 50, 86_400_000L, false, 0, 16, List.of()));
        assertThat(half.freshnessLifetimeMillis(answer)).isEqualTo(seconds(500));
        assertThat(new CachePolicy(CacheSettings.defaults()).freshnessLifetimeMillis(answer)).isEqualTo(seconds(100));
    }
}
