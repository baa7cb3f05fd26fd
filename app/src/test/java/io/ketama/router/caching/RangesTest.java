package io.ketama.router.caching;

import static io.ketama.router.caching.CachePolicy.range;
import static io.ketama.router.caching.Fixtures.answer;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.get;
import static io.ketama.router.caching.Fixtures.ok;
import static io.ketama.router.caching.Fixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The fixtures' bodies are 10 bytes: {@code 0123456789}. */
class RangesTest {

    private static ByteRange of(String range) {
        return range(get("Range", range), ok());
    }

    @Test
    void intRangesAreClampedToTheBody_rfc9110_14_1_2() {
        assertThat(of("bytes=0-1")).isEqualTo(ByteRange.of(0, 1, 10));
        assertThat(of("bytes=1-")).isEqualTo(ByteRange.of(1, 9, 10));
        assertThat(of("bytes=5-100")).isEqualTo(ByteRange.of(5, 9, 10));
        assertThat(of("bytes=9-9")).isEqualTo(ByteRange.of(9, 9, 10));
        assertThat(of("bytes=0009-00009")).isEqualTo(ByteRange.of(9, 9, 10));
    }

    @Test
    void suffixRangesCountFromTheEnd_rfc9110_14_1_2() {
        assertThat(of("bytes=-1")).isEqualTo(ByteRange.of(9, 9, 10));
        assertThat(of("bytes=-5")).isEqualTo(ByteRange.of(5, 9, 10));
        assertThat(of("bytes=-50")).isEqualTo(ByteRange.of(0, 9, 10));
    }

    @Test
    void unitsAreCaseInsensitiveAndWhitespaceAroundTheSpecIsAllowed_rfc9110_14_1() {
        assertThat(of("BYTES=0-1")).isEqualTo(ByteRange.of(0, 1, 10));
        assertThat(of("bytes= 0-1 ")).isEqualTo(ByteRange.of(0, 1, 10));
    }

    @Test
    void rangesNoByteSatisfiesAreUnsatisfiable_rfc9110_14_1_1() {
        ByteRange r = of("bytes=10-");
        assertThat(r).isEqualTo(ByteRange.UNSATISFIABLE);
        assertThat(r.isUnsatisfiable()).isTrue();
        assertThat(r.contentRange()).isEqualTo("bytes */10");
        assertThat(r.length()).isZero();
        assertThat(of("bytes=-0")).isEqualTo(ByteRange.UNSATISFIABLE);
        assertThat(of("bytes=2147483648-")).isEqualTo(ByteRange.UNSATISFIABLE);
        OriginAnswer empty = new OriginAnswer(200, HttpFields.EMPTY, new byte[0], 0, 0);
        assertThat(range(get("Range", "bytes=-1"), empty)).isEqualTo(ByteRange.unsatisfiable(0));
        assertThat(range(get("Range", "bytes=0-"), empty).contentRange()).isEqualTo("bytes */0");
    }

    @Test
    void whatIsNotOneValidByteRangeGetsTheWhole_rfc9110_14_2() {
        for (String value : new String[] {"bytes=0-1,3-4", "bytes=", "bytes=5-2", "bytes=a-b", "bytes=--1", "bytes 0-1", "items=0-1",
            "bytes=0-1-2", "bytes=-", "bytes=1"}) {
            assertThat(of(value)).as(value).isNull();
        }
        assertThat(range(get("Range", "bytes=0-1", "Range", "bytes=2-3"), ok())).isNull();
        assertThat(range(get(), ok())).isNull();
    }

    @Test
    void onlyGetOfA200IsServedInRanges_rfc9110_14_2() {
        assertThat(range(request("HEAD", "Range", "bytes=0-1"), ok())).isNull();
        assertThat(range(get("Range", "bytes=0-1"), answer(206, "Content-Range", "bytes 0-9/20"))).isNull();
        assertThat(range(get("Range", "bytes=0-1"), answer(404))).isNull();
    }

    @Test
    void ifRangeNeedsAStrongEntityTagOrTheExactLastModified_rfc9110_13_1_5() {
        OriginAnswer answer = ok("ETag", "\"v1\"", "Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT");
        assertThat(range(get("Range", "bytes=0-1", "If-Range", "\"v1\""), answer)).isEqualTo(ByteRange.of(0, 1, 10));
        assertThat(range(get("Range", "bytes=0-1", "If-Range", "\"v2\""), answer)).isNull();
        assertThat(range(get("Range", "bytes=0-1", "If-Range", "W/\"v1\""), answer)).isNull();
        assertThat(range(get("Range", "bytes=0-1", "If-Range", "\"v1\""), ok("ETag", "W/\"v1\""))).isNull();
        assertThat(range(get("Range", "bytes=0-1", "If-Range", "Wed, 01 Jan 2020 00:00:00 GMT"), answer)).isEqualTo(ByteRange.of(0, 1, 10));
        assertThat(range(get("Range", "bytes=0-1", "If-Range", "Wednesday, 01-Jan-20 00:00:00 GMT"), answer)).isEqualTo(ByteRange.of(0, 1, 10));
        assertThat(range(get("Range", "bytes=0-1", "If-Range", "Wed, 01 Jan 2020 00:00:01 GMT"), answer)).isNull();
        assertThat(range(get("Range", "bytes=0-1", "If-Range", date(0)), ok())).isNull(); // no Last-Modified
    }

    @Test
    void aByteRangeKnowsItsLengthAndContentRange_rfc9110_14_4() {
        ByteRange r = ByteRange.of(4, 9, 10);
        assertThat(r.length()).isEqualTo(6);
        assertThat(r.contentRange()).isEqualTo("bytes 4-9/10");
        assertThat(r.isUnsatisfiable()).isFalse();
        assertThat(ByteRange.unsatisfiable(0).contentRange()).isEqualTo("bytes */0");
        assertThat(ByteRange.unsatisfiable(7)).isEqualTo(ByteRange.unsatisfiable(9)).hasSameHashCodeAs(ByteRange.UNSATISFIABLE);
        assertThat(r).isNotEqualTo(ByteRange.UNSATISFIABLE);
        assertThatThrownBy(ByteRange.UNSATISFIABLE::contentRange).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ByteRange.of(5, 4, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ByteRange.of(0, 10, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ByteRange.unsatisfiable(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
