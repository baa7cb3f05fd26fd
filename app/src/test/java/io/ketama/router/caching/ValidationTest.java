package io.ketama.router.caching;

import static io.ketama.router.caching.Fixtures.NOW;
import static io.ketama.router.caching.Fixtures.POLICY;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.get;
import static io.ketama.router.caching.Fixtures.ok;
import static io.ketama.router.caching.Fixtures.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ValidationTest {

    @Test
    void theOriginRequestDropsTheClientsPreconditionsAndRange_rfc9111_4_3_1() {
        CacheRequest request = get("Accept", "*/*", "If-None-Match", "\"x\"", "If-Modified-Since", date(-10), "If-Match", "\"y\"",
                "If-Unmodified-Since", date(-5), "If-Range", "\"z\"", "Range", "bytes=0-1", "Abc", "123", "Authorization", "FOO");
        assertThat(POLICY.originRequest(request, null)).isEqualTo(HttpFields.of("Accept", "*/*", "Abc", "123", "Authorization", "FOO"));
    }

    @Test
    void theOriginRequestDropsHopByHopFields_rfc9110_7_6_1() {
        CacheRequest request = get("Connection", "close, X-Hop", "X-Hop", "1", "TE", "trailers", "Accept", "*/*");
        assertThat(POLICY.originRequest(request, null)).isEqualTo(HttpFields.of("Accept", "*/*"));
    }

    @Test
    void validatingAddsTheStoredValidatorsAsTheOriginSentThem_rfc9111_4_3_1() {
        OriginAnswer stored = ok("ETag", "W/\"abcdef\"", "Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT");
        HttpFields sent = POLICY.originRequest(get("Abc", "123", "If-None-Match", "\"client\""), stored);
        assertThat(sent).isEqualTo(HttpFields.of("Abc", "123", "If-None-Match", "W/\"abcdef\"", "If-Modified-Since",
                "Wed, 01 Jan 2020 00:00:00 GMT"));
        assertThat(POLICY.originRequest(get(), ok("ETag", "abcdef"))).isEqualTo(HttpFields.of("If-None-Match", "abcdef"));
        assertThat(POLICY.originRequest(get(), ok("Last-Modified", "yesterday"))).isEqualTo(HttpFields.EMPTY); // not a date
        assertThat(POLICY.originRequest(get(), ok("Date", date(0)))).isEqualTo(HttpFields.EMPTY);
    }

    @Test
    void a304UpdatesEveryFieldItCarries_rfc9111_3_2() {
        OriginAnswer stored = ok("Date", date(-3), "Test-Header", "old", "Cache-Control", "max-age=1", "ETag", "\"e\"", "X-Kept", "1",
                "Test-Header", "older");
        OriginAnswer notModified = new OriginAnswer(304, HttpFields.of("Date", date(0), "Test-Header", "new", "Cache-Control",
                "max-age=3600", "X-Added", "2"), new byte[0], NOW + seconds(3), 250);
        OriginAnswer fresh = POLICY.freshen(stored, notModified);
        assertThat(fresh.headers()).isEqualTo(HttpFields.of("Date", date(0), "Test-Header", "new", "Cache-Control", "max-age=3600",
                "ETag", "\"e\"", "X-Kept", "1", "X-Added", "2"));
        assertThat(fresh.status()).isEqualTo(200);
        assertThat(fresh.body()).isSameAs(stored.body());
        assertThat(fresh.responseTime()).isEqualTo(NOW + seconds(3));
        assertThat(fresh.initialAgeMillis()).isEqualTo(250);
        assertThat(POLICY.freshnessLifetimeMillis(fresh)).isEqualTo(seconds(3600)); // read anew
    }

    @Test
    void a304NeitherUpdatesContentLengthNorHopByHopFields_rfc9111_3_2() {
        OriginAnswer stored = ok("Content-Length", "36", "ETag", "\"e\"");
        OriginAnswer notModified = new OriginAnswer(304, HttpFields.of("Content-Length", "10", "Keep-Alive", "timeout=5", "Connection",
                "X-Hop", "X-Hop", "1", "ETag", "\"e\""), new byte[0], NOW, 0);
        assertThat(POLICY.freshen(stored, notModified).headers()).isEqualTo(HttpFields.of("Content-Length", "36", "ETag", "\"e\"", "Date",
                date(0)));
    }

    @Test
    void freshenedFieldsAreStoredAsAnyOthers_rfc9111_3_1() {
        OriginAnswer stored = ok("Date", date(0), "A", "1", "ETag", "\"e\"");
        OriginAnswer notModified = new OriginAnswer(304, HttpFields.of("Cache-Control", "no-cache=\"A\""), new byte[0], NOW, 0);
        assertThat(POLICY.freshen(stored, notModified).headers().has("A")).isFalse();
    }

    @Test
    void storageDropsFieldsOfQualifiedPrivateAndNoCache_rfc9111_5_2_2_4_and_5_2_2_7() {
        OriginAnswer answer = ok("Cache-Control", "no-cache=\"a, b\", max-age=3600", "a", "1", "b", "2", "c", "3", "Date", date(0),
                "Cache-Control", "private=\"c\"");
        assertThat(POLICY.forStorage(answer).headers()).isEqualTo(HttpFields.of("Cache-Control", "no-cache=\"a, b\", max-age=3600", "Date",
                date(0), "Cache-Control", "private=\"c\""));
    }

    @Test
    void storageAddsADateWhereThereIsNone_rfc9110_6_6_1() {
        OriginAnswer answer = new OriginAnswer(200, HttpFields.of("Cache-Control", "max-age=60"), new byte[0], NOW + 999, 0);
        OriginAnswer kept = POLICY.forStorage(answer);
        assertThat(kept.headers().first("Date")).isEqualTo(date(0));
        assertThat(kept.responseTime()).isEqualTo(NOW + 999);
        OriginAnswer dated = ok("Date", date(-5), "Cache-Control", "max-age=60");
        assertThat(POLICY.forStorage(dated)).isSameAs(dated);
        OriginAnswer invalidDate = ok("Date", "foo");
        assertThat(POLICY.forStorage(invalidDate)).isSameAs(invalidDate); // not rewritten
    }

    @Test
    void a304CarriesTheFieldsA200WouldHaveForCaching_rfc9110_15_4_5() {
        OriginAnswer answer = ok("Content-Type", "text/plain", "Cache-Control", "max-age=60", "ETag", "\"abcdef\"", "Date", date(0),
                "Last-Modified", date(-100), "Vary", "Foo", "Content-Location", "/a", "Expires", date(60), "Content-Length", "10",
                "X-Other", "1");
        assertThat(CachePolicy.notModifiedFields(answer)).isEqualTo(HttpFields.of("Cache-Control", "max-age=60", "ETag", "\"abcdef\"",
                "Date", date(0), "Vary", "Foo", "Content-Location", "/a", "Expires", date(60)));
        assertThat(CachePolicy.notModifiedFields(ok("Last-Modified", date(-100), "Date", date(0))))
                .isEqualTo(HttpFields.of("Last-Modified", date(-100), "Date", date(0)));
    }
}
