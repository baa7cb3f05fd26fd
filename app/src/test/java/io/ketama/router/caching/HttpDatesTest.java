package io.ketama.router.caching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class HttpDatesTest {

    private static long at(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    void imfFixdateIsParsed_rfc9110_5_6_7() {
        assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT")).isEqualTo(at("1994-11-06T08:49:37Z"));
        assertThat(HttpDates.parse("  Tue, 19 Jan 2038 14:14:08 GMT ")).isEqualTo(at("2038-01-19T14:14:08Z"));
        assertThat(HttpDates.parse("Sun, 21 Nov 2286 04:46:39 GMT")).isEqualTo(at("2286-11-21T04:46:39Z"));
        assertThat(HttpDates.parse("Thu, 01 Jan 1970 00:00:00 GMT")).isZero();
    }

    @Test
    void namesAndTheZoneCompareWithoutCase_rfc9110_5_6_7() {
        long expected = at("2050-08-18T02:01:18Z");
        assertThat(HttpDates.parse("THU, 18 Aug 2050 02:01:18 GMT")).isEqualTo(expected);
        assertThat(HttpDates.parse("Thu, 18 AUG 2050 02:01:18 GMT")).isEqualTo(expected);
        assertThat(HttpDates.parse("Thu, 18 Aug 2050 02:01:18 gMT")).isEqualTo(expected);
    }

    @Test
    void rfc850DatesTakeTheNearestCenturyNotMoreThan50YearsAhead_rfc9110_5_6_7() {
        long now2026 = at("2026-03-01T00:00:00Z");
        assertThat(HttpDates.parse("Thursday, 18-Aug-50 02:01:18 GMT", now2026)).isEqualTo(at("2050-08-18T02:01:18Z"));
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT", now2026)).isEqualTo(at("1994-11-06T08:49:37Z"));
        assertThat(HttpDates.parse("sunday, 06-nov-94 08:49:37 gmt", now2026)).isEqualTo(at("1994-11-06T08:49:37Z"));
        assertThat(HttpDates.parse("Friday, 01-Jan-77 00:00:00 GMT", now2026)).isEqualTo(at("1977-01-01T00:00:00Z")); // 2077 is 51 years ahead
        assertThat(HttpDates.parse("Friday, 01-Jan-76 00:00:00 GMT", now2026)).isEqualTo(at("2076-01-01T00:00:00Z"));
        assertThat(HttpDates.parse("Sun, 06-Nov-94 08:49:37 GMT", now2026)).isEqualTo(HttpDates.INVALID); // the long day name only
    }

    @Test
    void asctimeDatesAreParsed_rfc9110_5_6_7() {
        assertThat(HttpDates.parse("Thu Aug  8 02:01:18 2050")).isEqualTo(at("2050-08-08T02:01:18Z"));
        assertThat(HttpDates.parse("Sun Nov 16 08:49:37 1994")).isEqualTo(at("1994-11-16T08:49:37Z"));
        assertThat(HttpDates.parse("Thu Aug 8 02:01:18 2050")).isEqualTo(HttpDates.INVALID);
    }

    @Test
    void everythingElseIsInvalid_rfc9111_5_3() {
        String[] invalid = {"0", "", "foo", "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
            "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
            "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 8 Aug 2050 02:01:18 GMT", "Xyz, 18 Aug 2050 02:01:18 GMT",
            "Thu, 18 Foo 2050 02:01:18 GMT", "Thu, 31 Feb 2050 02:01:18 GMT", "Thu, 18 Aug 2050 24:00:00 GMT", "Thu, 18 Aug 2050 02:60:18 GMT",
            "Thu, 18 Aug 2050 02:01:18 GMT+1", "Thu, 18 Aug 2050 02:01:18", "1755482478"};
        for (String value : invalid) {
            assertThat(HttpDates.parse(value)).as(value).isEqualTo(HttpDates.INVALID);
        }
        assertThat(HttpDates.parse(null)).isEqualTo(HttpDates.INVALID);
    }

    @Test
    void leapDaysAndLeapSecondsAreDates_rfc9110_5_6_7() {
        assertThat(HttpDates.parse("Thu, 29 Feb 2024 00:00:00 GMT")).isEqualTo(at("2024-02-29T00:00:00Z"));
        assertThat(HttpDates.parse("Thu, 29 Feb 2023 00:00:00 GMT")).isEqualTo(HttpDates.INVALID);
        assertThat(HttpDates.parse("Tue, 29 Feb 2000 00:00:00 GMT")).isEqualTo(at("2000-02-29T00:00:00Z"));
        assertThat(HttpDates.parse("Wed, 31 Dec 2008 23:59:60 GMT")).isEqualTo(at("2009-01-01T00:00:00Z"));
    }

    @Test
    void formatWritesImfFixdateWithoutMillis_rfc9110_5_6_7() {
        assertThat(HttpDates.format(at("1994-11-06T08:49:37.999Z"))).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(HttpDates.format(0)).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
        assertThat(HttpDates.format(-1)).isEqualTo("Wed, 31 Dec 1969 23:59:59 GMT");
        assertThat(HttpDates.format(at("2038-01-19T14:14:08Z"))).isEqualTo("Tue, 19 Jan 2038 14:14:08 GMT");
        assertThatThrownBy(() -> HttpDates.format(Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void formatAndParseRoundTripOverCenturies_rfc9110_5_6_7() {
        for (long t = at("1900-01-01T00:00:00Z"); t < at("2300-01-01T00:00:00Z"); t += 7_777_777_777L) {
            assertThat(HttpDates.parse(HttpDates.format(t))).isEqualTo(t - Math.floorMod(t, 1000));
            assertThat(HttpDates.format(t)).isEqualTo(java.time.format.DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'",
                    java.util.Locale.ROOT).withZone(java.time.ZoneOffset.UTC).format(Instant.ofEpochMilli(t)));
        }
    }
}
