package io.ketama.router.caching;

import static io.ketama.router.caching.SuiteStep.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every {@code required} test of the HTTP caching test suite (http-tests/cache-tests), and every test
 * a required one depends on (its {@code depends_on}, walked to the end: 189 tests, of kinds required,
 * optimal and check), played against {@link CachePolicy} with the suite's own origin fields, request
 * fields and times ({@link SuiteRun}: the suite's client and server around the smallest serving path
 * that follows the policy; a pause is 3 s of clock). Each method is named after the suite's id and
 * asserts what the suite expects of that test.
 *
 * <p>Out of a pure policy's reach, so covered here only in part and left to the serving path:
 * <ul>
 *   <li>{@code interim-not-cached}: passing a 103 through and not replaying it is the connection's
 *       business; here only that a 1xx is never stored and the final answer is.</li>
 *   <li>{@code invalidate-POST}, {@code -PUT}, {@code -DELETE}, {@code -M-SEARCH}: the policy says
 *       {@link CachePolicy#invalidates}; dropping the key's answers on every member that holds a copy
 *       (owner, spill candidates, near copies) is the cluster's.</li>
 *   <li>{@code query-args-different}: the cache key (URL with its query) is the serving path's; here
 *       one key per query.</li>
 *   <li>{@code headers-store-*} for hop-by-hop fields and {@code headers-omit-headers-listed-in-Connection}:
 *       {@link HttpFields#endToEnd()} drops them on the way in, as {@link OriginAnswer} requires;
 *       {@code Content-Length} must then be written for the body actually sent.</li>
 *   <li>{@code other-age-*}, {@code other-date-*}: the policy gives {@link CachePolicy#ageValue} and never
 *       rewrites {@code Date}; writing {@code Age} on every answer is the serving path's.</li>
 *   <li>{@code partial-use-*}: the policy gives {@link CachePolicy#range}; slicing the body and writing
 *       206 is the serving path's.</li>
 *   <li>{@code headers-store-Set-Cookie}: passes only with {@code storeSetCookie} on; the defaults keep
 *       responses with {@code Set-Cookie} out (see that test).</li>
 * </ul>
 */
class SuiteScenariosTest {

    private static final CachePolicy POLICY = new CachePolicy(CacheSettings.defaults());

    /** The defaults, but storing responses with {@code Set-Cookie}, as {@code headers-store-Set-Cookie} requires. */
    private static final CachePolicy STORING_SET_COOKIE = new CachePolicy(new CacheSettings(0, 10, 86_400_000L, true, 60_000L, 16,
            List.of("CDN-Cache-Control")));

    /** [check] RFC 9111 §4.2.2: Does HTTP cache avoid reusing a response without explict freshness information or a validator (reuse is allowed, but not common, and many tests rely upon a cache _not_ doing it)? */
    @Test
    void freshness_none() {
        SuiteRun.run(POLICY,
                get().pause(),
                get().notCached());
    }

    /** [optimal] RFC 9111 §4.2.1, §5.2.2.1: An optimal HTTP cache reuses a response with positive `Cache-Control: max-age` (after freshness-none) */
    @Test
    void freshness_max_age() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=3600").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache must not reuse a response with `Cache-Control: max-age` after it becomes stale (after freshness-max-age) */
    @Test
    void freshness_max_age_stale() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2").resp("Date", 0).resp("Template-A", "1").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache must not reuse a response with `Cache-Control: max-age=0` (after freshness-none) */
    @Test
    void freshness_max_age_0() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=0").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache must not reuse a response when the `Age` header is greater than its `Cache-Control: max-age` freshness lifetime (after freshness-max-age) */
    @Test
    void freshness_max_age_age() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").resp("Age", "7200").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache must not reuse a response with `Cache-Control: max-age=0` and a future `Expires` (after freshness-none) */
    @Test
    void freshness_max_age_0_expires() {
        SuiteRun.run(POLICY,
                get().resp("Expires", 3600).resp("Cache-Control", "max-age=0").resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache must not reuse a response with negative `Cache-Control: max-age` (after freshness-none) */
    @Test
    void freshness_max_age_negative() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=-3600").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.10: An optimal shared HTTP cache reuses a response with positive `Cache-Control: s-maxage` (after freshness-none) */
    @Test
    void freshness_s_maxage_shared() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "s-maxage=3600").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §5.2.2.10: Shared HTTP cache must prefer short `Cache-Control: s-maxage` over a longer `Cache-Control: max-age` (after freshness-s-maxage-shared) */
    @Test
    void freshness_max_age_s_maxage_shared_longer() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=3600, s-maxage=1").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.10: Shared HTTP cache must prefer short `Cache-Control: s-maxage` over a longer `Cache-Control: max-age` (reversed) (after freshness-s-maxage-shared) */
    @Test
    void freshness_max_age_s_maxage_shared_longer_reversed() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "s-maxage=1, max-age=3600").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.10: Shared HTTP cache must prefer short `Cache-Control: s-maxage` over a longer `Cache-Control: max-age` (multiple headers) (after freshness-s-maxage-shared) */
    @Test
    void freshness_max_age_s_maxage_shared_longer_multiple() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=3600").resp("Cache-Control", "s-maxage=1").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache must not reuse a response with `max-age` in a quoted string (before the "real" `max-age`) (after freshness-max-age) */
    @Test
    void freshness_max_age_ignore_quoted() {
        SuiteRun.run(POLICY,
                get().raw("Cache-Control", "extension=\"max-age=3600\", max-age=1").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache mut not reuse a response with `max-age` in a quoted string (after the "real" `max-age`) (after freshness-max-age) */
    @Test
    void freshness_max_age_ignore_quoted_rev() {
        SuiteRun.run(POLICY,
                get().raw("Cache-Control", "max-age=1, extension=\"max-age=3600\"").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: An optimal HTTP cache reuses max-age with the value `003600` (after freshness-none) */
    @Test
    void freshness_max_age_leading_zero() {
        SuiteRun.run(POLICY,
                get().raw("Cache-Control", "max-age=003600").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.1, §5.2.2.1: HTTP cache must not reuse a response with a single-quoted `Cache-Control: max-age` (after freshness-none) */
    @Test
    void freshness_max_age_single_quoted() {
        SuiteRun.run(POLICY,
                get().raw("Cache-Control", "max-age='3600'").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should ignore an `Age` header with a non-numeric value (after freshness-max-age-age) */
    @Test
    void age_parse_nonnumeric() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "abc").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should ignore an `Age` header with a negative value (after freshness-max-age-age) */
    @Test
    void age_parse_negative() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "-7200").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should ignore an `Age` header with a float value (after freshness-max-age-age) */
    @Test
    void age_parse_float() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "7200.0").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with a `Age` value of 2147483647 to be stale (after freshness-max-age-age) */
    @Test
    void age_parse_large_minus_one() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "2147483647").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with a `Age` value of 2147483648 to be stale (after freshness-max-age-age) */
    @Test
    void age_parse_large() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "2147483648").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with a `Age` value of 2147483649 to be stale (after freshness-max-age-age) */
    @Test
    void age_parse_larger() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "2147483649").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with a single `Age` header line `old, 0` to be stale (after freshness-max-age-age) */
    @Test
    void age_parse_suffix() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "7200, 0").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with a single `Age` header line `0, old` to be fresh (after freshness-max-age-age) */
    @Test
    void age_parse_prefix() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "0, 7200").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should use the first line in a response with multiple `Age` header lines: `old`, `0` (after freshness-max-age-age) */
    @Test
    void age_parse_suffix_twoline() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "7200").raw("Age", "0").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should use the first line in a response with multiple `Age` header lines: `0`, `old` (after freshness-max-age-age) */
    @Test
    void age_parse_prefix_twoline() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "0").raw("Age", "7200").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with a single line `Age: 0, 0` to be fresh (after freshness-max-age-age) */
    @Test
    void age_parse_dup_0() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "0, 0").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with two `Age: 0` header lines to be fresh (after freshness-max-age-age) */
    @Test
    void age_parse_dup_0_twoline() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").raw("Age", "0").raw("Age", "0").pause(),
                get().cached());
    }

    /** [required] RFC 9111 §4.2.3, §5.1: HTTP cache should consider a response with two `Age: not_old` header lines to be fresh (after freshness-max-age-age) */
    @Test
    void age_parse_dup_old() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=10000").raw("Age", "3600").raw("Age", "3600").pause(),
                get().cached());
    }

    /** [optimal] RFC 9111 §5.3: An optimal HTTP cache reuses a response with a future `Expires` (after freshness-none) */
    @Test
    void freshness_expires_future() {
        SuiteRun.run(POLICY,
                get().resp("Expires", 2592000).resp("Date", 0).pause(),
                get().cached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with a past `Expires` (after freshness-expires-future) */
    @Test
    void freshness_expires_past() {
        SuiteRun.run(POLICY,
                get().resp("Expires", -2592000).resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with a present `Expires` (after freshness-none) */
    @Test
    void freshness_expires_present() {
        SuiteRun.run(POLICY,
                get().resp("Expires", 0).resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an `Expires` older than `Date`, both fast (after freshness-expires-future) */
    @Test
    void freshness_expires_old_date() {
        SuiteRun.run(POLICY,
                get().resp("Expires", 300).resp("Date", 400).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (0) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "0").resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response when the `Age` header is greater than its `Expires` minus `Date`, and `Date` is slow (after freshness-expires-future) */
    @Test
    void freshness_expires_age_slow_date() {
        SuiteRun.run(POLICY,
                get().resp("Date", -10).resp("Expires", 10).resp("Age", "25"),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response when the `Age` header is greater than its `Expires` minus `Date`, and `Date` is fast (after freshness-expires-future) */
    @Test
    void freshness_expires_age_fast_date() {
        SuiteRun.run(POLICY,
                get().resp("Date", 10).resp("Expires", 20).resp("Age", "15"),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (UTC) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_utc() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18 Aug 2050 02:01:18 UTC").resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (other tz) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_aest() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18 Aug 2050 02:01:18 AEST").resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (two-digit year) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_2_digit_year() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18 Aug 50 02:01:18 GMT").resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (missing comma) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_no_comma() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu 18 Aug 2050 02:01:18 GMT").resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (multiple spaces) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_multiple_spaces() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18  Aug  2050 02:01:18 GMT").resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (date dashes) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_date_dashes() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18-Aug-2050 02:01:18 GMT").resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (time periods) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_time_periods() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18 Aug 2050 02.01.18 GMT").resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (1-digit hour) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_1_digit_hour() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18 Aug 2050 2:01:18 GMT").resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.3: HTTP cache must not reuse a response with an invalid `Expires` (multiple lines) (after freshness-expires-future) */
    @Test
    void freshness_expires_invalid_multiple_lines() {
        SuiteRun.run(POLICY,
                get().raw("Expires", "Thu, 18 Aug 2050 2:01:18 GMT").raw("Expires", "Thu, 18 Aug 2050 2:01:19 GMT").resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.7: Shared HTTP cache must not store a response with `Cache-Control: private` */
    @Test
    void cc_resp_private_shared() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "private, max-age=3600"),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.5: HTTP cache must not store a response with `Cache-Control: no-store` */
    @Test
    void cc_resp_no_store() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "no-store"),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.5: HTTP cache must not store a response with `Cache-Control: nO-StOrE` (after cc-resp-no-store) */
    @Test
    void cc_resp_no_store_case_insensitive() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "No-StOrE"),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.5: HTTP cache must not store a response with `Cache-Control: no-store`, even with `max-age` and `Expires` (after cc-resp-no-store) */
    @Test
    void cc_resp_no_store_fresh() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=10000, no-store").resp("Expires", 10000).resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.5: Does HTTP cache use older stored response when newer one came with `Cache-Control: no-store`? (after cc-resp-no-store) */
    @Test
    void cc_resp_no_store_old_new() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=10000").resp("Expires", 10000).resp("Date", 0).resp("A", "1").pause(),
                get().resp("Cache-Control", "no-store").resp("Date", 0).resp("A", "2").pause(),
                get().cached().expectHeader("a", "1"));
    }

    /** [required] RFC 9111 §5.2.2.5: Does HTTP cache use older stored response when newer one came with `Cache-Control: no-store, max-age=0`? (after cc-resp-no-store) */
    @Test
    void cc_resp_no_store_old_max_age() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=10000").resp("Expires", 10000).resp("Date", 0).resp("A", "1").pause(),
                get().resp("Cache-Control", "no-store, max-age=0").resp("Date", 0).resp("A", "2").pause(),
                get().cached().expectHeader("a", "1"));
    }

    /** [required] RFC 9111 §5.2.2.4: HTTP cache must not use a cached response with `Cache-Control: no-cache`, even with `max-age` and `Expires` */
    @Test
    void cc_resp_no_cache() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=10000, no-cache").resp("Expires", 10000).resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.4: HTTP cache must not use a cached response with `Cache-Control: No-CaChE`, even with `max-age` and `Expires` (after cc-resp-no-cache) */
    @Test
    void cc_resp_no_cache_case_insensitive() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=10000, No-CaChE").resp("Expires", 10000).resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9111 §5.2.2.2: HTTP cache must revalidate a stale response with positive `Cache-Control: max-age, must-revalidate` (after freshness-none) */
    @Test
    void cc_resp_must_revalidate_stale() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2, must-revalidate").resp("ETag", "\"abcd\""),
                get().resp("Cache-Control", "max-age=2, must-revalidate").resp("ETag", "\"abcd\"").pause().cached(),
                get().etagValidated());
    }

    /** [check] RFC 9111 §4.2.4: Does HTTP cache serve stale stored response when server closes the connection? (after freshness-max-age-stale) */
    @Test
    void stale_close() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2").resp("Date", 0).resp("Template-A", "1").pause(),
                get().disconnect().cached());
    }

    /** [optimal] RFC 5861 §3: An optimal cache serves stale stored response with [`Cache-Control: stale-while-revalidate`](https://httpwg.org/specs/rfc5861.html) (after freshness-max-age-stale) */
    @Test
    void stale_while_revalidate() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=1, stale-while-revalidate=3600").resp("ETag", "\"abc\"").pause(),
                get().cached());
    }

    /** [required] RFC 5861 §3: HTTP cache must not serve stale stored response after the [`stale-while-revalidate`](https://httpwg.org/specs/rfc5861.html) window (after stale-while-revalidate) */
    @Test
    void stale_while_revalidate_window() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=1, stale-while-revalidate=4").resp("ETag", "\"abc\"").pause(),
                get().raw("Cache-Control", "no-cache").raw("ETag", "\"def\"").pause().cached(),
                get().expectHeader("client-request-count", "3"));
    }

    /** [required] RFC 9111 §5.2.2.2: HTTP cache must not serve stale stored response when prohibited by `Cache-Control: must-revalidate` (after stale-close) */
    @Test
    void stale_close_must_revalidate() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2, must-revalidate").pause(),
                get().disconnect().expectStatus(null).expectMissing("server-request-count").noBodyCheck());
    }

    /** [required] RFC 9111 §5.2.2.8: Shared HTTP cache must not serve stale stored response when prohibited by `Cache-Control: proxy-revalidate` (after stale-close) */
    @Test
    void stale_close_proxy_revalidate() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2, proxy-revalidate").pause(),
                get().disconnect().expectStatus(null).expectMissing("server-request-count").noBodyCheck());
    }

    /** [required] RFC 9111 §5.2.2.4: HTTP cache must not serve stale stored response when prohibited by `Cache-Control: no-cache` (after stale-close) */
    @Test
    void stale_close_no_cache() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2, no-cache").pause(),
                get().disconnect().expectStatus(null).expectMissing("server-request-count").noBodyCheck());
    }

    /** [required] RFC 9111 §5.2.2.10: Shared HTTP cache must not serve stale stored response when prohibited by `Cache-Control: s-maxage` (after stale-close) */
    @Test
    void stale_close_s_maxage_2() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2, s-maxage=2").pause(),
                get().disconnect().expectStatus(null).expectMissing("server-request-count").noBodyCheck());
    }

    /** [required] RFC 9111 §4.2.2: HTTP cache must not reuse a `201 Created` response with `Last-Modified` based upon heuristic freshness */
    @Test
    void heuristic_201_not_cached() {
        SuiteRun.run(POLICY,
                get().status(201).resp("Last-Modified", -86400).resp("Date", 0).body("aaaaaaaaaaaaaaa"),
                get().status(201).body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [required] RFC 9111 §4.2.2: HTTP cache must not reuse a `202 Accepted` response with `Last-Modified` based upon heuristic freshness */
    @Test
    void heuristic_202_not_cached() {
        SuiteRun.run(POLICY,
                get().status(202).resp("Last-Modified", -86400).resp("Date", 0).body("aaaaaaaaaaaaaaa"),
                get().status(202).body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [required] RFC 9111 §4.2.2: HTTP cache must not reuse a `403 Forbidden` response with `Last-Modified` based upon heuristic freshness */
    @Test
    void heuristic_403_not_cached() {
        SuiteRun.run(POLICY,
                get().status(403).resp("Last-Modified", -86400).resp("Date", 0).body("aaaaaaaaaaaaaaa"),
                get().status(403).body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [required] RFC 9111 §4.2.2: HTTP cache must not reuse a `502 Bad Gateway` response with `Last-Modified` based upon heuristic freshness */
    @Test
    void heuristic_502_not_cached() {
        SuiteRun.run(POLICY,
                get().status(502).resp("Last-Modified", -86400).resp("Date", 0).body("aaaaaaaaaaaaaaa"),
                get().status(502).body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [required] RFC 9111 §4.2.2: HTTP cache must not reuse a `503 Service Unavailable` response with `Last-Modified` based upon heuristic freshness */
    @Test
    void heuristic_503_not_cached() {
        SuiteRun.run(POLICY,
                get().status(503).resp("Last-Modified", -86400).resp("Date", 0).body("aaaaaaaaaaaaaaa"),
                get().status(503).body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [required] RFC 9111 §4.2.2: HTTP cache must not reuse a `504 Gateway Timeout` response with `Last-Modified` based upon heuristic freshness */
    @Test
    void heuristic_504_not_cached() {
        SuiteRun.run(POLICY,
                get().status(504).resp("Last-Modified", -86400).resp("Date", 0).body("aaaaaaaaaaaaaaa"),
                get().status(504).body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [required] RFC 9111 §4.2.2: HTTP cache must not reuse a `599 Unknown` response with `Last-Modified` based upon heuristic freshness when `Cache-Control: public` is not present */
    @Test
    void heuristic_599_not_cached() {
        SuiteRun.run(POLICY,
                get().status(599).resp("Last-Modified", -86400).resp("Date", 0).body("aaaaaaaaaaaaaaa"),
                get().status(599).body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `200` response with explict freshness (after freshness-max-age) */
    @Test
    void status_200_fresh() {
        SuiteRun.run(POLICY,
                get().status(200).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(200).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `200` response with explicit freshness (after status-200-fresh) */
    @Test
    void status_200_stale() {
        SuiteRun.run(POLICY,
                get().status(200).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `203` response with explict freshness (after freshness-max-age) */
    @Test
    void status_203_fresh() {
        SuiteRun.run(POLICY,
                get().status(203).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(203).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `203` response with explicit freshness (after status-203-fresh) */
    @Test
    void status_203_stale() {
        SuiteRun.run(POLICY,
                get().status(203).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `204` response with explict freshness (after freshness-max-age) */
    @Test
    void status_204_fresh() {
        SuiteRun.run(POLICY,
                get().status(204).resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().status(204).cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `204` response with explicit freshness (after status-204-fresh) */
    @Test
    void status_204_stale() {
        SuiteRun.run(POLICY,
                get().status(204).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).pause(),
                get().notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `299` response with explict freshness (after freshness-max-age) */
    @Test
    void status_299_fresh() {
        SuiteRun.run(POLICY,
                get().status(299).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(299).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `299` response with explicit freshness (after status-299-fresh) */
    @Test
    void status_299_stale() {
        SuiteRun.run(POLICY,
                get().status(299).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `301` response with explict freshness (after freshness-max-age) */
    @Test
    void status_301_fresh() {
        SuiteRun.run(POLICY,
                get().status(301).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(301).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `301` response with explicit freshness (after status-301-fresh) */
    @Test
    void status_301_stale() {
        SuiteRun.run(POLICY,
                get().status(301).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `302` response with explict freshness (after freshness-max-age) */
    @Test
    void status_302_fresh() {
        SuiteRun.run(POLICY,
                get().status(302).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(302).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `302` response with explicit freshness (after status-302-fresh) */
    @Test
    void status_302_stale() {
        SuiteRun.run(POLICY,
                get().status(302).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `303` response with explict freshness (after freshness-max-age) */
    @Test
    void status_303_fresh() {
        SuiteRun.run(POLICY,
                get().status(303).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(303).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `303` response with explicit freshness (after status-303-fresh) */
    @Test
    void status_303_stale() {
        SuiteRun.run(POLICY,
                get().status(303).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `307` response with explict freshness (after freshness-max-age) */
    @Test
    void status_307_fresh() {
        SuiteRun.run(POLICY,
                get().status(307).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(307).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `307` response with explicit freshness (after status-307-fresh) */
    @Test
    void status_307_stale() {
        SuiteRun.run(POLICY,
                get().status(307).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `308` response with explict freshness (after freshness-max-age) */
    @Test
    void status_308_fresh() {
        SuiteRun.run(POLICY,
                get().status(308).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(308).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `308` response with explicit freshness (after status-308-fresh) */
    @Test
    void status_308_stale() {
        SuiteRun.run(POLICY,
                get().status(308).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `400` response with explict freshness (after freshness-max-age) */
    @Test
    void status_400_fresh() {
        SuiteRun.run(POLICY,
                get().status(400).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(400).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `400` response with explicit freshness (after status-400-fresh) */
    @Test
    void status_400_stale() {
        SuiteRun.run(POLICY,
                get().status(400).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `404` response with explict freshness (after freshness-max-age) */
    @Test
    void status_404_fresh() {
        SuiteRun.run(POLICY,
                get().status(404).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(404).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `404` response with explicit freshness (after status-404-fresh) */
    @Test
    void status_404_stale() {
        SuiteRun.run(POLICY,
                get().status(404).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `410` response with explict freshness (after freshness-max-age) */
    @Test
    void status_410_fresh() {
        SuiteRun.run(POLICY,
                get().status(410).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(410).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `410` response with explicit freshness (after status-410-fresh) */
    @Test
    void status_410_stale() {
        SuiteRun.run(POLICY,
                get().status(410).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `499` response with explict freshness (after freshness-max-age) */
    @Test
    void status_499_fresh() {
        SuiteRun.run(POLICY,
                get().status(499).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(499).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `499` response with explicit freshness (after status-499-fresh) */
    @Test
    void status_499_stale() {
        SuiteRun.run(POLICY,
                get().status(499).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `500` response with explict freshness (after freshness-max-age) */
    @Test
    void status_500_fresh() {
        SuiteRun.run(POLICY,
                get().status(500).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(500).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `500` response with explicit freshness (after status-500-fresh) */
    @Test
    void status_500_stale() {
        SuiteRun.run(POLICY,
                get().status(500).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `502` response with explict freshness (after freshness-max-age) */
    @Test
    void status_502_fresh() {
        SuiteRun.run(POLICY,
                get().status(502).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(502).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `502` response with explicit freshness (after status-502-fresh) */
    @Test
    void status_502_stale() {
        SuiteRun.run(POLICY,
                get().status(502).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `503` response with explict freshness (after freshness-max-age) */
    @Test
    void status_503_fresh() {
        SuiteRun.run(POLICY,
                get().status(503).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(503).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `503` response with explicit freshness (after status-503-fresh) */
    @Test
    void status_503_stale() {
        SuiteRun.run(POLICY,
                get().status(503).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `504` response with explict freshness (after freshness-max-age) */
    @Test
    void status_504_fresh() {
        SuiteRun.run(POLICY,
                get().status(504).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(504).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `504` response with explicit freshness (after status-504-fresh) */
    @Test
    void status_504_stale() {
        SuiteRun.run(POLICY,
                get().status(504).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [optimal] RFC 9111 §3, §4.2: An optimal HTTP cache reuses a fresh `599` response with explict freshness (after freshness-max-age) */
    @Test
    void status_599_fresh() {
        SuiteRun.run(POLICY,
                get().status(599).resp("Cache-Control", "max-age=100000").resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().status(599).body("aaaaaaaaaaaaaaa").cached());
    }

    /** [required] RFC 9111 §3, §4.2: HTTP cache must not reuse a stale `599` response with explicit freshness (after status-599-fresh) */
    @Test
    void status_599_stale() {
        SuiteRun.run(POLICY,
                get().status(599).resp("Expires", -5000).resp("Last-Modified", -100000).resp("Date", 0).body("aaaaaaaaaaaaaaa").pause(),
                get().body("aaaaaaaaaaaaaaa").notCached());
    }

    /** [required] RFC 9111 §5.2.2.3: HTTP cache must not reuse a fresh response with an unrecognised status code and `Cache-Control: no-store, must-understand` (after status-599-fresh) */
    @Test
    void status_599_must_understand() {
        SuiteRun.run(POLICY,
                get().status(599).resp("Cache-Control", "max-age=3600, no-store, must-understand"),
                get().notCached());
    }

    /** [optimal] RFC 9111 §4.1: An optimal HTTP cache reuses a `Vary` response when the request matches (after freshness-max-age) */
    @Test
    void vary_match() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).resp("Vary", "Foo"),
                get().req("Foo", "1").cached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response when request doesn't match (after vary-match) */
    @Test
    void vary_no_match() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).resp("Vary", "Foo"),
                get().req("Foo", "2").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response when stored request omits variant request header (after vary-match) */
    @Test
    void vary_omit_stored() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).resp("Vary", "Foo"),
                get().req("Foo", "1").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response when presented request omits variant request header (after vary-match) */
    @Test
    void vary_omit() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).resp("Vary", "Foo"),
                get().notCached());
    }

    /** [optimal] RFC 9111 §4.1: An optimal HTTP cache reuses a two-way `Vary` response when request matches (after vary-match) */
    @Test
    void vary_2_match() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Bar", "abc").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "Foo, Bar"),
                get().req("Foo", "1").req("Bar", "abc").cached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse two-way `Vary` response when request doesn't match (after vary-2-match) */
    @Test
    void vary_2_no_match() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Bar", "abc").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "Foo, Bar"),
                get().req("Foo", "2").req("Bar", "abc").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse two-way `Vary` response when request omits variant request header (after vary-2-match) */
    @Test
    void vary_2_match_omit() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Bar", "abc").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "Foo, Bar"),
                get().notCached());
    }

    /** [optimal] RFC 9111 §4.1: An optimal HTTP cache reuses a three-way `Vary` response when request matches (after vary-2-match) */
    @Test
    void vary_3_match() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Bar", "abc").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "Foo, Bar, Baz"),
                get().req("Foo", "1").req("Bar", "abc").req("Baz", "789").cached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse three-way `Vary` response when request doesn't match (after vary-3-match) */
    @Test
    void vary_3_no_match() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Bar", "abc").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "Foo, Bar, Baz"),
                get().req("Foo", "2").req("Bar", "abc").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse three-way `Vary` response when request doesn't match, regardless of header order (after vary-3-match) */
    @Test
    void vary_3_order() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Bar", "abc").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "Foo, Bar, Baz"),
                get().req("Foo", "1").req("Baz", "789").req("Bar", "abcde").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `*` */
    @Test
    void vary_star() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).resp("Vary", "*"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `*` (after vary-match) */
    @Test
    void vary_syntax_star() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "*"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `*, *` (after vary-match) */
    @Test
    void vary_syntax_star_star() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "*, *"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `*, *` on different lines (after vary-match) */
    @Test
    void vary_syntax_star_star_lines() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "*").raw("Vary", "*"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `, *` (after vary-match) */
    @Test
    void vary_syntax_empty_star() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", ", *"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `, *` on different lines (after vary-match) */
    @Test
    void vary_syntax_empty_star_lines() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "").raw("Vary", "*"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `*, Foo` (after vary-match) */
    @Test
    void vary_syntax_star_foo() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "*, Foo"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [required] RFC 9111 §4.1: HTTP cache must not reuse `Vary` response with a value of `Foo, *` (after vary-match) */
    @Test
    void vary_syntax_foo_star() {
        SuiteRun.run(POLICY,
                get().req("Foo", "1").req("Baz", "789").resp("Cache-Control", "max-age=5000").resp("Last-Modified", -3000).resp("Date", 0).raw("Vary", "Foo, *"),
                get().req("Foo", "1").req("Baz", "789").notCached());
    }

    /** [optimal] RFC 9111 §4.3.2: An optimal HTTP cache responds to `If-None-Match` with a `304` when holding a fresh response with a matching strong `ETag` (after freshness-max-age) */
    @Test
    void conditional_etag_strong_respond() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).resp("ETag", "\"abcdef\"").pause(),
                get().req("If-None-Match", "\"abcdef\"").cached().expectStatus(304));
    }

    /** [required] RFC 9111 §4.3.2: HTTP cache must include `ETag` in a `304 Not Modified` (after conditional-etag-strong-respond) */
    @Test
    void conditional_304_etag() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).resp("ETag", "\"abcdef\"").pause(),
                get().req("If-None-Match", "\"abcdef\"").cached().expectStatus(304).expectHeader("ETag", "\"abcdef\""));
    }

    /** [required] RFC 9111 §4.3.2: HTTP cache must give precedence to `If-None-Match` over `If-Modified-Since` (after conditional-etag-strong-respond) */
    @Test
    void conditional_etag_precedence() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).resp("Last-Modified", -5000).resp("ETag", "\"abcdef\"").pause(),
                get().req("If-None-Match", "\"abcdef\"").req("If-Modified-Since", -10000).cached().expectStatus(304));
    }

    /** [required] RFC 9111 §4.3.1: HTTP cache must include stored response headers identified by `Vary` in a conditional request it generates */
    @Test
    void conditional_etag_vary_headers() {
        SuiteRun.run(POLICY,
                get().req("Abc", "123").resp("Expires", 1).resp("ETag", "\"abcdef\"").resp("Date", 0).resp("Vary", "Abc").pause(),
                get().req("Abc", "123").etagValidated().expectRequestHeader("Abc", "123"));
    }

    /** [required] RFC 9111 §3.1: `Connection` header must inhibit a HTTP cache from storing listed headers (after freshness-max-age) */
    @Test
    void headers_omit_headers_listed_in_Connection() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).raw("Connection", "a, b").raw("a", "1").raw("b", "2").raw("c", "3").pause(),
                get().cached().expectHeader("c", "3").expectMissing("a").expectMissing("b"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Test-Header` header field (after freshness-max-age) */
    @Test
    void headers_store_Test_Header() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Test-Header", "aywusqomkigecay").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Test-Header", "aywusqomkigecay"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `X-Test-Header` header field (after freshness-max-age) */
    @Test
    void headers_store_X_Test_Header() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("X-Test-Header", "abcdefghijklmno").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("X-Test-Header", "abcdefghijklmno"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-Foo` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_Foo() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Foo", "auoicwqkeysmgau").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Content-Foo", "auoicwqkeysmgau"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `X-Content-Foo` header field (after freshness-max-age) */
    @Test
    void headers_store_X_Content_Foo() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("X-Content-Foo", "axurolifczwtqnk").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("X-Content-Foo", "axurolifczwtqnk"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Cache-Control` header field (after freshness-max-age) */
    @Test
    void headers_store_Cache_Control() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Cache-Control", "max-age=3600"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Connection` header field (after freshness-max-age) */
    @Test
    void headers_store_Connection() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Connection", "askcumewogyqias").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Connection", "askcumewogyqias"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-Encoding` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_Encoding() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Encoding", "apetixmbqfujync").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Content-Encoding", "apetixmbqfujync"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-Length` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_Length() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Length", "10").resp("Cache-Control", "max-age=3600").pause().noBodyCheck(),
                get().cached().expectHeader("Content-Length", "10").noBodyCheck());
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-Location` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_Location() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Location", "/bar").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Content-Location", "/bar"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-MD5` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_MD5() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-MD5", "N7UdGUp1E+RbVvZSTy1R8g==").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Content-MD5", "N7UdGUp1E+RbVvZSTy1R8g=="));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-Range` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_Range() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Range", "ananananananana").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Content-Range", "ananananananana"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-Security-Policy` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_Security_Policy() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Security-Policy", "default-src 'self' cdn.example.com").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Content-Security-Policy", "default-src 'self' cdn.example.com"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Content-Type` header field (after freshness-max-age) */
    @Test
    void headers_store_Content_Type() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Type", "text/plain;charset=utf-8").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Content-Type", "text/plain;charset=utf-8"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Clear-Site-Data` header field (after freshness-max-age) */
    @Test
    void headers_store_Clear_Site_Data() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Clear-Site-Data", "cookies").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Clear-Site-Data", "cookies"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `ETag` header field (after freshness-max-age) */
    @Test
    void headers_store_ETag() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("ETag", "\"ghijkl\"").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("ETag", "\"ghijkl\""));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Expires` header field (after freshness-max-age) */
    @Test
    void headers_store_Expires() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Expires", "Mon, 11 Jan 2038 11:11:11 GMT").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Expires", "Mon, 11 Jan 2038 11:11:11 GMT"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Keep-Alive` header field (after freshness-max-age) */
    @Test
    void headers_store_Keep_Alive() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Keep-Alive", "ananananananana").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Keep-Alive", "ananananananana"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Proxy-Authenticate` header field (after freshness-max-age) */
    @Test
    void headers_store_Proxy_Authenticate() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Proxy-Authenticate", "akueoyiscmwgqak").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Proxy-Authenticate", "akueoyiscmwgqak"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Proxy-Authentication-Info` header field (after freshness-max-age) */
    @Test
    void headers_store_Proxy_Authentication_Info() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Proxy-Authentication-Info", "aaaaaaaaaaaaaaa").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Proxy-Authentication-Info", "aaaaaaaaaaaaaaa"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Proxy-Authorization` header field (after freshness-max-age) */
    @Test
    void headers_store_Proxy_Authorization() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Proxy-Authorization", "aaaaaaaaaaaaaaa").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Proxy-Authorization", "aaaaaaaaaaaaaaa"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Proxy-Connection` header field (after freshness-max-age) */
    @Test
    void headers_store_Proxy_Connection() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Proxy-Connection", "alwhsdozkvgrcny").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Proxy-Connection", "alwhsdozkvgrcny"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Public-Key-Pins` header field (after freshness-max-age) */
    @Test
    void headers_store_Public_Key_Pins() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Public-Key-Pins", "askcumewogyqias").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Public-Key-Pins", "askcumewogyqias"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Set-Cookie` header field (after freshness-max-age) */
    @Test
    void headers_store_Set_Cookie() {
        SuiteRun.run(STORING_SET_COOKIE,
                get().resp("Date", 0).resp("Set-Cookie", "a=c").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Set-Cookie", "a=c"));
        // with the defaults, a response that sets a cookie is not stored: this required test then fails
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Set-Cookie", "a=c").resp("Cache-Control", "max-age=3600").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `Set-Cookie2` header field (after freshness-max-age) */
    @Test
    void headers_store_Set_Cookie2() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Set-Cookie2", "a=c").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("Set-Cookie2", "a=c"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `TE` header field (after freshness-max-age) */
    @Test
    void headers_store_TE() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("TE", "apetixmbqfujync").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("TE", "apetixmbqfujync"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Transfer-Encoding` header field (after freshness-max-age) */
    @Test
    void headers_store_Transfer_Encoding() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Transfer-Encoding", "arizqhypgxofwne").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Transfer-Encoding", "arizqhypgxofwne"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must not store `Upgrade` header field (after freshness-max-age) */
    @Test
    void headers_store_Upgrade() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Upgrade", "acegikmoqsuwyac").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectMissing("Upgrade", "acegikmoqsuwyac"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `X-Frame-Options` header field (after freshness-max-age) */
    @Test
    void headers_store_X_Frame_Options() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("X-Frame-Options", "sameorigin").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("X-Frame-Options", "sameorigin"));
    }

    /** [required] RFC 9111 §3.1: HTTP cache must store `X-XSS-Protection` header field (after freshness-max-age) */
    @Test
    void headers_store_X_XSS_Protection() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("X-XSS-Protection", "1; mode=block").resp("Cache-Control", "max-age=3600").pause(),
                get().cached().expectHeader("X-XSS-Protection", "1; mode=block"));
    }

    /** [required] RFC 9111 §4.3.4: HTTP cache must return stored `Test-Header` from a `304` that omits it */
    @Test
    void _304_lm_use_stored_Test_Header() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=2").resp("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT").resp("Date", 0).resp("Test-Header", "aaaaaaaaaaaaaaa").pause(),
                get().resp("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT").resp("Date", 0).lmValidated().expectHeader("Test-Header", "aaaaaaaaaaaaaaa"));
    }

    /** [required] RFC 9111 §4.3.4: HTTP cache must update and return `Test-Header` from a `304` (after 304-lm-use-stored-Test-Header) */
    @Test
    void _304_etag_update_response_Test_Header() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Test-Header", "aaaaaaaaaaaaaaa").resp("Cache-Control", "max-age=2").resp("ETag", "\"aqgwmcsiyoeukaq\"").pause(),
                get().resp("Date", 0).resp("Test-Header", "abcdefghijklmno").resp("Cache-Control", "max-age=2").resp("ETag", "\"aqgwmcsiyoeukaq\"").etagValidated().expectHeader("Test-Header", "abcdefghijklmno"),
                get().resp("Date", 0).resp("Test-Header", "abcdefghijklmno").resp("Cache-Control", "max-age=2").cached().expectHeader("Test-Header", "abcdefghijklmno"));
    }

    /** [required] RFC 9111 §4.3.4: HTTP cache must update and return `X-Test-Header` from a `304` (after 304-lm-use-stored-Test-Header) */
    @Test
    void _304_etag_update_response_X_Test_Header() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("X-Test-Header", "adgjmpsvybehknq").resp("Cache-Control", "max-age=2").resp("ETag", "\"atmfyrkdwpibung\"").pause(),
                get().resp("Date", 0).resp("X-Test-Header", "aeimquycgkoswae").resp("Cache-Control", "max-age=2").resp("ETag", "\"atmfyrkdwpibung\"").etagValidated().expectHeader("X-Test-Header", "aeimquycgkoswae"),
                get().resp("Date", 0).resp("X-Test-Header", "aeimquycgkoswae").resp("Cache-Control", "max-age=2").cached().expectHeader("X-Test-Header", "aeimquycgkoswae"));
    }

    /** [required] RFC 9111 §4.3.4: HTTP cache must update and return `Content-Foo` from a `304` (after 304-lm-use-stored-Test-Header) */
    @Test
    void _304_etag_update_response_Content_Foo() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Content-Foo", "awsokgcyuqmieaw").resp("Cache-Control", "max-age=2").resp("ETag", "\"amykwiugseqcoam\"").pause(),
                get().resp("Date", 0).resp("Content-Foo", "axurolifczwtqnk").resp("Cache-Control", "max-age=2").resp("ETag", "\"amykwiugseqcoam\"").etagValidated().expectHeader("Content-Foo", "axurolifczwtqnk"),
                get().resp("Date", 0).resp("Content-Foo", "axurolifczwtqnk").resp("Cache-Control", "max-age=2").cached().expectHeader("Content-Foo", "axurolifczwtqnk"));
    }

    /** [required] RFC 9111 §4.3.4: HTTP cache must update and return `X-Content-Foo` from a `304` (after 304-lm-use-stored-Test-Header) */
    @Test
    void _304_etag_update_response_X_Content_Foo() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("X-Content-Foo", "azyxwvutsrqponm").resp("Cache-Control", "max-age=2").resp("ETag", "\"apetixmbqfujync\"").pause(),
                get().resp("Date", 0).resp("X-Content-Foo", "aaaaaaaaaaaaaaa").resp("Cache-Control", "max-age=2").resp("ETag", "\"apetixmbqfujync\"").etagValidated().expectHeader("X-Content-Foo", "aaaaaaaaaaaaaaa"),
                get().resp("Date", 0).resp("X-Content-Foo", "aaaaaaaaaaaaaaa").resp("Cache-Control", "max-age=2").cached().expectHeader("X-Content-Foo", "aaaaaaaaaaaaaaa"));
    }

    /** [required] RFC 9111 §4.3.4: HTTP cache must update and return `Cache-Control` from a `304` (after 304-lm-use-stored-Test-Header) */
    @Test
    void _304_etag_update_response_Cache_Control() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).resp("Cache-Control", "max-age=1").resp("ETag", "\"amykwiugseqcoam\"").pause(),
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").resp("ETag", "\"amykwiugseqcoam\"").etagValidated().expectHeader("Cache-Control", "max-age=3600"),
                get().resp("Date", 0).resp("Cache-Control", "max-age=3600").cached().expectHeader("Cache-Control", "max-age=3600"));
    }

    /** [required] RFC 9111 §4.3.4: HTTP cache must not update and return `Content-Length` from a `304` (after 304-lm-use-stored-Test-Header) */
    @Test
    void _304_etag_update_response_Content_Length() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("Content-Length", "36").resp("Cache-Control", "max-age=2").resp("ETag", "\"askcumewogyqias\"").pause().noBodyCheck(),
                get().resp("Date", 0).raw("Content-Length", "10").resp("Cache-Control", "max-age=2").resp("ETag", "\"askcumewogyqias\"").etagValidated().expectHeader("Content-Length", "36").noBodyCheck(),
                get().resp("Date", 0).raw("Content-Length", "36").resp("Cache-Control", "max-age=2").cached().expectHeader("Content-Length", "36").noBodyCheck());
    }

    /** [required] RFC 9111 §4.4: HTTP cache must invalidate the URL after a successful response to a `POST` request (after freshness-max-age) */
    @Test
    void invalidate_POST() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().method("POST"),
                get().notCached());
    }

    /** [required] RFC 9111 §4.4: HTTP cache must invalidate the URL after a successful response to a `PUT` request (after freshness-max-age) */
    @Test
    void invalidate_PUT() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().method("PUT"),
                get().notCached());
    }

    /** [required] RFC 9111 §4.4: HTTP cache must invalidate the URL after a successful response to a `DELETE` request (after freshness-max-age) */
    @Test
    void invalidate_DELETE() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().method("DELETE"),
                get().notCached());
    }

    /** [required] RFC 9111 §4.4: HTTP cache must invalidate the URL after a successful response to a `M-SEARCH` request (after freshness-max-age) */
    @Test
    void invalidate_M_SEARCH() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().method("M-SEARCH"),
                get().notCached());
    }

    /** [optimal] RFC 9111 §3.4: An optimal HTTP cache stores complete responses and serves smaller ranges from them (byte-range-spec) (after freshness-max-age) */
    @Test
    void partial_store_complete_reuse_partial() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=3600").body("01234567890"),
                get().req("Range", "bytes=0-1").cached().expectStatus(206).expectText("01"));
    }

    /** [required] RFC 9111 §3.4: HTTP cache must use header fields from the new response (after partial-store-complete-reuse-partial) */
    @Test
    void partial_use_headers() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=3600").resp("A", "1").body("01234567890"),
                get().req("Range", "bytes=0-1").resp("A", "2").cached().expectStatus(206).expectText("01"));
    }

    /** [required] RFC 9111 §3.4: HTTP cache must preserve unupdated header fields from the stored response (after partial-store-complete-reuse-partial) */
    @Test
    void partial_use_stored_headers() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=3600").resp("A", "1").body("01234567890"),
                get().req("Range", "bytes=0-1").cached().expectStatus(206).expectHeader("A", "1").expectText("01"));
    }

    /** [required] RFC 9111 §3.5: HTTP shared cache must not reuse a response to a request that contained `Authorization`, even with explicit freshness (after freshness-max-age) */
    @Test
    void other_authorization() {
        SuiteRun.run(POLICY,
                get().req("Authorization", "FOO").resp("Cache-Control", "max-age=100000").resp("Date", 0).pause().expectRequestHeader("Authorization", "FOO"),
                get().notCached());
    }

    /** [required] RFC 9111 §5.1: HTTP cache must generate an `Age` header field when using a stored response. (after freshness-max-age) */
    @Test
    void other_age_gen() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().cached().expectHeaderAbove("Age", 2));
    }

    /** [required] RFC 9111 §5.1: HTTP cache must update the `Age` header field when freshness is based upon `Expires` (after freshness-expires-future) */
    @Test
    void other_age_update_expires() {
        SuiteRun.run(POLICY,
                get().resp("Expires", 2592000).resp("Date", 0).resp("Age", "30").pause(),
                get().cached().expectHeaderAbove("Age", 32));
    }

    /** [required] RFC 9111 §5.1: HTTP cache must update the `Age` header field when freshness is based upon `CC: max-age` (after freshness-max-age) */
    @Test
    void other_age_update_max_age() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).resp("Age", "30").pause(),
                get().cached().expectHeaderAbove("Age", 32));
    }

    /** [required] RFC 9110 §6.6.1: HTTP cache must not update the `Date` header field (after freshness-max-age) */
    @Test
    void other_date_update() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().cached().expectHeader("Date", 0));
    }

    /** [required] RFC 9110 §6.6.1: HTTP cache must not update the `Date` header field when `Expires` is present (after freshness-expires-future) */
    @Test
    void other_date_update_expires() {
        SuiteRun.run(POLICY,
                get().resp("Expires", 2592000).resp("Date", 0).pause(),
                get().cached().expectHeader("Date", 0));
    }

    /** [required] RFC 9111 §2: Different query arguments must be different cache keys (after freshness-max-age) */
    @Test
    void query_args_different() {
        SuiteRun.run(POLICY,
                get().query("test=aywusqomkigecay").resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().query("test=azyxwvutsrqponm").notCached());
    }

    /** [optimal] RFC 9213 §2: An optimal CDN reuses a response with positive `CDN-Cache-Control: max-age` (after freshness-none) */
    @Test
    void cdn_max_age() {
        SuiteRun.run(POLICY,
                get().raw("CDN-Cache-Control", "max-age=3600").pause(),
                get().cached());
    }

    /** [required] RFC 9213 §2: CDN must not reuse a response when the `Age` header is greater than its `CDN-Cache-Control: max-age` freshness lifetime (after cdn-max-age) */
    @Test
    void cdn_max_age_age() {
        SuiteRun.run(POLICY,
                get().resp("Date", 0).raw("CDN-Cache-Control", "max-age=3600").resp("Age", "7200").pause(),
                get().notCached());
    }

    /** [required] RFC 9213 §2: CDN must not reuse a response with `CDN-Cache-Control: max-age=0` (after cdn-max-age) */
    @Test
    void cdn_max_age_0() {
        SuiteRun.run(POLICY,
                get().raw("CDN-Cache-Control", "max-age=0").pause(),
                get().notCached());
    }

    /** [required] RFC 9213 §2: CDN must not reuse a response with a `CDN-Cache-Control: max-age=0` and a future `Expires` (after cdn-max-age) */
    @Test
    void cdn_max_age_0_expires() {
        SuiteRun.run(POLICY,
                get().raw("CDN-Cache-Control", "max-age=0").resp("Expires", 10000).resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9213 §2: CDN must prefer a short `CDN-Cache-Control: max-age` over a long `Cache-Control: max-age` (after cdn-max-age) */
    @Test
    void cdn_max_age_long_cc_max_age() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=3600").raw("CDN-Cache-Control", "max-age=1").pause(),
                get().notCached());
    }

    /** [required] RFC 9213 §2: CDN must not reuse a cached response with `CDN-Cache-Control: private`, even with `Cache-Control: max-age` and `Expires` */
    @Test
    void cdn_private() {
        SuiteRun.run(POLICY,
                get().resp("CDN-Cache-Control", "private").resp("Cache-Control", "max-age=10000").resp("Expires", 10000).resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9213 §2: CDN must not reuse a cached response with `CDN-Cache-Control: no-cache`, even with `Cache-Control: max-age` and `Expires` */
    @Test
    void cdn_no_cache() {
        SuiteRun.run(POLICY,
                get().resp("CDN-Cache-Control", "no-cache").resp("Cache-Control", "max-age=10000").resp("Expires", 10000).resp("Date", 0),
                get().notCached());
    }

    /** [required] RFC 9213 §2: CDN must not store a response with `CDN-Cache-Control: no-store`, even with `Cache-Control: max-age` and `Expires` (after freshness-none) */
    @Test
    void cdn_no_store_cc_fresh() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=10000").raw("CDN-Cache-Control", "no-store").resp("Expires", 10000).resp("Date", 0).pause(),
                get().notCached());
    }

    /** [required] RFC 9213 §2: An optimal CDN stores a response with a fresh `CDN-Cache-Control: max-age`, even with `Cache-Control: no-store` (after freshness-none) */
    @Test
    void cdn_fresh_cc_nostore() {
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "no-store").raw("CDN-Cache-Control", "max-age=10000").pause(),
                get().cached());
    }

    /** [required] RFC 9213 §2: CDN should ignore a `CDN-Cache-Control` that's an invalid Structured Field (unknown type) (after cdn-max-age) */
    @Test
    void cdn_cc_invalid_sh_type_unknown() {
        SuiteRun.run(POLICY,
                get().raw("CDN-Cache-Control", "max-age=10000, &&&&&").resp("Cache-Control", "no-store").pause(),
                get().notCached());
    }

    /** [required] RFC 9213 §2: CDN should ignore a `CDN-Cache-Control` that's an invalid Structured Field (wrong type) (after cdn-max-age) */
    @Test
    void cdn_cc_invalid_sh_type_wrong() {
        SuiteRun.run(POLICY,
                get().raw("CDN-Cache-Control", "max-age=\"10000\"").resp("Cache-Control", "no-store").pause(),
                get().notCached());
    }

    /** [required] RFC 9111 §3: An HTTP cache should not cache non-final responses */
    @Test
    void interim_not_cached() {
        // the 103 itself passes on the connection; what the policy says of it: a non-final answer is never stored
        OriginAnswer earlyHints = new OriginAnswer(103, HttpFields.of("Link", "</styles.css>; rel=preload; as=style"), new byte[0],
                SuiteRun.T0, 0);
        assertThat(POLICY.storable(CacheRequest.get(HttpFields.EMPTY), earlyHints)).isFalse();
        SuiteRun.run(POLICY,
                get().resp("Cache-Control", "max-age=100000").resp("Date", 0).pause(),
                get().cached());
    }
}
