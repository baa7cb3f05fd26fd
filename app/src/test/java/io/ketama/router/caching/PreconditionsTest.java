package io.ketama.router.caching;

import static io.ketama.router.caching.CachePolicy.preconditions;
import static io.ketama.router.caching.Fixtures.NOW;
import static io.ketama.router.caching.Fixtures.answer;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.get;
import static io.ketama.router.caching.Fixtures.ok;
import static io.ketama.router.caching.Fixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PreconditionsTest {

    private static final OriginAnswer TAGGED = ok("ETag", "\"abcdef\"", "Last-Modified", date(-3000), "Date", date(0));

    @Test
    void ifNoneMatchWeakMatchIs304_rfc9110_13_1_2() {
        assertThat(preconditions(get("If-None-Match", "\"abcdef\""), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "W/\"abcdef\""), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"abcdef\""), ok("ETag", "W/\"abcdef\""))).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"other\""), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-None-Match", "*"), TAGGED)).isEqualTo(304);
        assertThat(preconditions(request("HEAD", "If-None-Match", "\"abcdef\""), TAGGED)).isEqualTo(304);
    }

    @Test
    void ifNoneMatchListsAndLinesAreSearched_rfc9110_13_1_2() {
        assertThat(preconditions(get("If-None-Match", "\"abcdef\", \"1234\", \"5678\""), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"1234\", \"abcdef\", \"5678\""), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"1234\", \"5678\", \"abcdef\""), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"1234\"", "If-None-Match", "\"abcdef\""), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"a,b\""), ok("ETag", "\"a,b\""))).isEqualTo(304);
    }

    @Test
    void entityTagsAreComparedLeniently_rfc9110_8_8_3() {
        assertThat(preconditions(get("If-None-Match", "abcdef"), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "abcdef"), ok("ETag", "abcdef"))).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"abcdef\""), ok("ETag", "abcdef"))).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "w/\"abcdef\""), ok("ETag", "w/\"abcdef\""))).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "W\\\"abcdef\""), ok("ETag", "W\\\"abcdef\""))).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"abcdefü\""), ok("ETag", "\"abcdefü\""))).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"ABCDEF\""), TAGGED)).isEqualTo(200); // opaque tags are case-sensitive
    }

    @Test
    void ifNoneMatchTakesPrecedenceOverIfModifiedSince_rfc9110_13_2_2() {
        assertThat(preconditions(get("If-None-Match", "\"abcdef\"", "If-Modified-Since", date(-10_000)), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-None-Match", "\"other\"", "If-Modified-Since", date(0)), TAGGED)).isEqualTo(200);
    }

    @Test
    void ifModifiedSinceIs304UnlessModifiedLater_rfc9110_13_1_3() {
        assertThat(preconditions(get("If-Modified-Since", date(-3000)), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-Modified-Since", date(-2000)), TAGGED)).isEqualTo(304);
        assertThat(preconditions(get("If-Modified-Since", date(-4000)), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-Modified-Since", "Sunday, 06-Nov-94 08:49:37 GMT"), ok("Last-Modified",
                "Sun, 06 Nov 1994 08:49:37 GMT"))).isEqualTo(304);
        assertThat(preconditions(get("If-Modified-Since", "yesterday"), TAGGED)).isEqualTo(200); // invalid: ignored
        assertThat(preconditions(get("If-Modified-Since", date(0), "If-Modified-Since", date(0)), TAGGED)).isEqualTo(200);
        assertThat(preconditions(request("POST", "If-Modified-Since", date(0)), TAGGED)).isEqualTo(200);
    }

    @Test
    void withoutLastModifiedTheDateOrArrivalIsTheModificationDate_rfc9111_4_3_2() {
        OriginAnswer undated = ok("Date", date(0));
        assertThat(preconditions(get("If-Modified-Since", date(0)), undated)).isEqualTo(304);
        assertThat(preconditions(get("If-Modified-Since", date(-3000)), undated)).isEqualTo(200);
        OriginAnswer noDate = new OriginAnswer(200, HttpFields.EMPTY, new byte[0], NOW, 0);
        assertThat(preconditions(get("If-Modified-Since", date(1)), noDate)).isEqualTo(304);
    }

    @Test
    void ifMatchNeedsAStrongMatch_rfc9110_13_1_1() {
        assertThat(preconditions(get("If-Match", "\"abcdef\""), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-Match", "\"x\", \"abcdef\""), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-Match", "*"), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-Match", "\"other\""), TAGGED)).isEqualTo(412);
        assertThat(preconditions(get("If-Match", "W/\"abcdef\""), TAGGED)).isEqualTo(412);
        assertThat(preconditions(get("If-Match", "\"abcdef\""), ok("ETag", "W/\"abcdef\""))).isEqualTo(412);
        assertThat(preconditions(get("If-Match", "\"abcdef\""), ok())).isEqualTo(412);
    }

    @Test
    void ifUnmodifiedSinceOnlyWithoutIfMatch_rfc9110_13_1_4() {
        assertThat(preconditions(get("If-Unmodified-Since", date(-4000)), TAGGED)).isEqualTo(412);
        assertThat(preconditions(get("If-Unmodified-Since", date(-3000)), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-Match", "\"abcdef\"", "If-Unmodified-Since", date(-4000)), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-Unmodified-Since", "foo"), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-Unmodified-Since", date(-4000)), ok())).isEqualTo(200); // no date to compare
    }

    @Test
    void aFailedIfMatchWinsOverAMatchingIfNoneMatch_rfc9110_13_2_2() {
        assertThat(preconditions(get("If-Match", "\"other\"", "If-None-Match", "\"abcdef\""), TAGGED)).isEqualTo(412);
    }

    @Test
    void ifNoneMatchOnOtherMethodsIs412_rfc9110_13_1_2() {
        assertThat(preconditions(request("DELETE", "If-None-Match", "*"), TAGGED)).isEqualTo(412);
    }

    @Test
    void preconditionsApplyOnlyToSuccessfulAnswers_rfc9110_13_2_1() {
        OriginAnswer notFound = answer(404, "ETag", "\"abcdef\"");
        assertThat(preconditions(get("If-None-Match", "\"abcdef\""), notFound)).isEqualTo(404);
        assertThat(preconditions(get("If-Match", "\"x\""), answer(301))).isEqualTo(301);
        assertThat(preconditions(get(), TAGGED)).isEqualTo(200);
        assertThat(preconditions(get("If-None-Match", "\"abcdef\""), answer(203, "ETag", "\"abcdef\""))).isEqualTo(304);
    }
}
