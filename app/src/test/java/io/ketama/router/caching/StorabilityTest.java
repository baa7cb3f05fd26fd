package io.ketama.router.caching;

import static io.ketama.router.caching.Fixtures.POLICY;
import static io.ketama.router.caching.Fixtures.answer;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.get;
import static io.ketama.router.caching.Fixtures.ok;
import static io.ketama.router.caching.Fixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StorabilityTest {

    private static boolean storable(OriginAnswer answer) {
        return POLICY.storable(get(), answer);
    }

    @Test
    void onlyFinalCompleteResponsesAreStored_rfc9111_3() {
        assertThat(storable(answer(103, "Cache-Control", "max-age=60"))).isFalse();
        assertThat(storable(answer(100, "Cache-Control", "max-age=60"))).isFalse();
        assertThat(storable(answer(206, "Cache-Control", "max-age=60", "Content-Range", "bytes 0-4/10"))).isFalse();
        assertThat(storable(answer(304, "Cache-Control", "max-age=60"))).isFalse();
        assertThat(storable(answer(200, "Cache-Control", "max-age=60"))).isTrue();
    }

    @Test
    void onlyAnswersToGetAreStored_rfc9111_3() {
        OriginAnswer fresh = ok("Cache-Control", "max-age=60");
        assertThat(POLICY.storable(request("HEAD"), fresh)).isFalse();
        assertThat(POLICY.storable(request("POST"), fresh)).isFalse();
        assertThat(POLICY.storable(request("get"), fresh)).isFalse(); // methods are case-sensitive
    }

    @Test
    void somethingMustMakeItStorable_rfc9111_3() {
        assertThat(storable(answer(201, "Date", date(0)))).isFalse();
        assertThat(storable(answer(201, "Last-Modified", date(-86_400), "Date", date(0)))).isFalse();
        assertThat(storable(answer(201, "Cache-Control", "public"))).isTrue();
        assertThat(storable(answer(201, "Expires", date(60)))).isTrue();
        assertThat(storable(answer(201, "Expires", "0"))).isTrue(); // stored, already expired
        assertThat(storable(answer(201, "Cache-Control", "max-age=60"))).isTrue();
        assertThat(storable(answer(201, "Cache-Control", "s-maxage=60"))).isTrue();
        assertThat(storable(answer(201, "Cache-Control", "private=\"x\""))).isFalse(); // only a private cache stores on that
        assertThat(storable(answer(200, "Date", date(0)))).isTrue(); // heuristically cacheable (RFC 9110 §15.1)
        for (int status : new int[] {202, 302, 303, 307, 400, 403, 500, 502, 503, 504, 599}) {
            assertThat(storable(answer(status, "Last-Modified", date(-86_400), "Date", date(0)))).as("%d", status).isFalse();
        }
    }

    @Test
    void noStoreIsNeverStored_rfc9111_5_2_2_5() {
        assertThat(storable(ok("Cache-Control", "no-store"))).isFalse();
        assertThat(storable(ok("Cache-Control", "No-StOrE"))).isFalse();
        assertThat(storable(ok("Cache-Control", "max-age=10000, no-store", "Expires", date(10_000)))).isFalse();
        assertThat(storable(ok("Cache-Control", "max-age=10000", "Cache-Control", "no-store"))).isFalse();
    }

    @Test
    void mustUnderstandOverridesNoStoreOnlyForUnderstoodStatuses_rfc9111_5_2_2_3() {
        assertThat(storable(answer(200, "Cache-Control", "max-age=3600, no-store, must-understand"))).isTrue();
        assertThat(storable(answer(599, "Cache-Control", "max-age=3600, no-store, must-understand"))).isFalse();
        assertThat(storable(answer(599, "Cache-Control", "max-age=3600, must-understand"))).isFalse();
        assertThat(storable(answer(418, "Cache-Control", "max-age=3600, must-understand"))).isFalse();
        assertThat(storable(answer(404, "Cache-Control", "max-age=3600, must-understand"))).isTrue();
    }

    @Test
    void theRequestsNoStoreKeepsItsAnswerOut_rfc9111_5_2_1_5() {
        assertThat(POLICY.storable(get("Cache-Control", "no-store"), ok("Cache-Control", "max-age=60"))).isFalse();
    }

    @Test
    void privateIsNeverInASharedCache_rfc9111_5_2_2_7() {
        assertThat(storable(ok("Cache-Control", "private, max-age=3600"))).isFalse();
        assertThat(storable(ok("Cache-Control", "PRIVATE"))).isFalse();
        assertThat(storable(ok("Cache-Control", "private=\"Set-Cookie\", max-age=3600"))).isTrue(); // qualified: fields dropped
    }

    @Test
    void authorizationNeedsPublicMustRevalidateOrSMaxage_rfc9111_3_5() {
        CacheRequest authorized = get("Authorization", "FOO");
        assertThat(POLICY.storable(authorized, ok("Cache-Control", "max-age=100000"))).isFalse();
        assertThat(POLICY.storable(authorized, ok("Cache-Control", "max-age=3600, public"))).isTrue();
        assertThat(POLICY.storable(authorized, ok("Cache-Control", "max-age=3600, must-revalidate"))).isTrue();
        assertThat(POLICY.storable(authorized, ok("Cache-Control", "s-maxage=3600"))).isTrue();
        assertThat(POLICY.storable(authorized, ok("Cache-Control", "max-age=3600, proxy-revalidate"))).isFalse();
    }

    @Test
    void setCookieOnlyWhenTheSettingsAllow_rfc9111_3_1() {
        OriginAnswer cookie = ok("Cache-Control", "max-age=3600", "Set-Cookie", "a=b");
        assertThat(storable(cookie)).isFalse();
        CachePolicy storing = new CachePolicy(new CacheSettings(0, 10, 86_400_000L, true, 60_000, 16, List.of()));
        assertThat(storing.storable(get(), cookie)).isTrue();
        assertThat(storable(ok("Cache-Control", "max-age=3600", "Set-Cookie2", "a=b"))).isTrue(); // not Set-Cookie
        assertThat(POLICY.storable(get("Cookie", "a=b"), ok("Cache-Control", "max-age=3600"))).isTrue();
    }

    @Test
    void varyStarAnywhereIsNotStored_rfc9111_4_1() {
        for (String[] vary : new String[][] {{"Vary", "*"}, {"Vary", "*, *"}, {"Vary", ", *"}, {"Vary", "*, Foo"}, {"Vary", "Foo, *"},
            {"Vary", "*", "Vary", "*"}, {"Vary", "", "Vary", "*"}, {"Vary", "Foo", "Vary", "*"}}) {
            String[] fields = new String[vary.length + 2];
            fields[0] = "Cache-Control";
            fields[1] = "max-age=5000";
            System.arraycopy(vary, 0, fields, 2, vary.length);
            assertThat(storable(ok(fields))).as(String.join(" ", vary)).isFalse();
        }
        assertThat(storable(ok("Cache-Control", "max-age=5000", "Vary", "Foo, Bar"))).isTrue();
    }

    @Test
    void aVaryOfTooManyDistinctFieldsIsNotStored_rfc9111_4_1() {
        CachePolicy two = new CachePolicy(new CacheSettings(0, 10, 86_400_000L, false, 60_000, 2, List.of()));
        assertThat(two.storable(get(), ok("Cache-Control", "max-age=5", "Vary", "A, B"))).isTrue();
        assertThat(two.storable(get(), ok("Cache-Control", "max-age=5", "Vary", "A, b", "Vary", "a, B"))).isTrue(); // distinct names
        assertThat(two.storable(get(), ok("Cache-Control", "max-age=5", "Vary", "A, B, C"))).isFalse();
        CachePolicy none = new CachePolicy(new CacheSettings(0, 10, 86_400_000L, false, 60_000, 0, List.of()));
        assertThat(none.storable(get(), ok("Cache-Control", "max-age=5", "Vary", "A"))).isFalse();
        assertThat(none.storable(get(), ok("Cache-Control", "max-age=5"))).isTrue();
    }

    @Test
    void targetedFieldDirectivesDecideStorage_rfc9213_2_2() {
        assertThat(storable(ok("Cache-Control", "no-store", "CDN-Cache-Control", "max-age=10000"))).isTrue();
        assertThat(storable(ok("Cache-Control", "max-age=10000", "CDN-Cache-Control", "no-store", "Expires", date(10_000)))).isFalse();
        assertThat(storable(ok("CDN-Cache-Control", "private", "Cache-Control", "max-age=10000"))).isFalse();
        assertThat(storable(ok("CDN-Cache-Control", "max-age=10000, &&&&&", "Cache-Control", "no-store"))).isFalse();
        assertThat(storable(ok("CDN-Cache-Control", "max-age=\"10000\"", "Cache-Control", "no-store"))).isFalse();
        assertThat(storable(answer(201, "CDN-Cache-Control", "max-age=60"))).isTrue();
        assertThat(storable(answer(201, "CDN-Cache-Control", "none", "Expires", date(60)))).isFalse(); // Expires replaced
    }

    @Test
    void usesCacheOnlyForGetAndHeadWithoutNoStore_rfc9111_5_2_1_5() {
        assertThat(POLICY.usesCache(get())).isTrue();
        assertThat(POLICY.usesCache(request("HEAD"))).isTrue();
        assertThat(POLICY.usesCache(request("POST"))).isFalse();
        assertThat(POLICY.usesCache(request("OPTIONS"))).isFalse();
        assertThat(POLICY.usesCache(get("Cache-Control", "no-store"))).isFalse();
        assertThat(POLICY.usesCache(get("Cache-Control", "nothing-to-see-here", "Pragma", "no-store"))).isTrue();
    }

    @Test
    void unsafeMethodsAnsweredSuccessfullyInvalidate_rfc9111_4_4() {
        for (String method : new String[] {"POST", "PUT", "DELETE", "M-SEARCH", "PATCH", "get"}) {
            assertThat(CachePolicy.invalidates(method, 200)).as(method).isTrue();
            assertThat(CachePolicy.invalidates(method, 303)).as(method).isTrue();
            assertThat(CachePolicy.invalidates(method, 500)).as(method).isFalse();
            assertThat(CachePolicy.invalidates(method, 404)).as(method).isFalse();
            assertThat(CachePolicy.invalidates(method, 100)).as(method).isFalse();
        }
        for (String method : new String[] {"GET", "HEAD", "OPTIONS", "TRACE"}) {
            assertThat(CachePolicy.invalidates(method, 200)).as(method).isFalse();
        }
    }

    @Test
    void anAnswerStaleOnArrivalWithoutAValidatorIsNotWorthKeeping_rfc9111_3() {
        OriginAnswer saysNothing = ok();
        assertThat(storable(saysNothing)).as("a 200 may be stored: heuristically cacheable").isTrue();
        assertThat(POLICY.worthKeeping(saysNothing, saysNothing.responseTime())).as("but it could never be served").isFalse();
        OriginAnswer tagged = ok("ETag", "\"a\"");
        assertThat(POLICY.worthKeeping(tagged, tagged.responseTime())).as("a validator: revalidated later for a 304").isTrue();
        OriginAnswer fresh = ok("Cache-Control", "max-age=2");
        assertThat(POLICY.worthKeeping(fresh, fresh.responseTime())).isTrue();
        assertThat(POLICY.worthKeeping(fresh, fresh.responseTime() + 2_000)).as("stale by the time it is stored").isFalse();
    }
}
