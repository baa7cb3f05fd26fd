package io.ketama.router.caching;

import static io.ketama.router.caching.Fixtures.NOW;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AgesTest {

    private static long initialAge(String... fields) {
        return CachePolicy.initialAgeMillis(HttpFields.of(fields), NOW - 200, NOW);
    }

    @Test
    void correctedInitialAgeIsTheLargerOfApparentAgeAndAgePlusDelay_rfc9111_4_2_3() {
        assertThat(initialAge("Date", date(-7200))).isEqualTo(seconds(7200)); // apparent age
        assertThat(initialAge("Date", date(0), "Age", "30")).isEqualTo(seconds(30) + 200); // age + response delay
        assertThat(initialAge("Date", date(-100), "Age", "30")).isEqualTo(seconds(100));
        assertThat(initialAge()).isEqualTo(200); // the response delay alone
    }

    @Test
    void aDateInTheFutureOrInvalidGivesNoApparentAge_rfc9111_4_2_3() {
        assertThat(initialAge("Date", date(10), "Age", "15")).isEqualTo(seconds(15) + 200);
        assertThat(initialAge("Date", "foo")).isEqualTo(200);
    }

    @Test
    void theFirstMemberOfTheFirstAgeLineCounts_rfc9111_5_1() {
        assertThat(initialAge("Age", "7200, 0")).isEqualTo(seconds(7200) + 200);
        assertThat(initialAge("Age", "0, 7200")).isEqualTo(200);
        assertThat(initialAge("Age", "7200", "Age", "0")).isEqualTo(seconds(7200) + 200);
        assertThat(initialAge("Age", "0", "Age", "7200")).isEqualTo(200);
        assertThat(initialAge("Age", "3600", "Age", "3600")).isEqualTo(seconds(3600) + 200);
    }

    @Test
    void anAgeThatIsNotDeltaSecondsIsIgnored_rfc9111_5_1() {
        for (String value : new String[] {"abc", "-7200", "7200.0", "", "7200;foo=bar", " "}) {
            assertThat(initialAge("Age", value)).as(value).isEqualTo(200);
        }
        assertThat(initialAge("Age", " 007 ")).isEqualTo(seconds(7) + 200);
    }

    @Test
    void agesPast2To31SecondsAreCapped_rfc9111_1_2_2() {
        assertThat(initialAge("Age", "2147483647")).isEqualTo(seconds(2_147_483_647L) + 200);
        assertThat(initialAge("Age", "2147483648")).isEqualTo(seconds(2_147_483_648L) + 200);
        assertThat(initialAge("Age", "2147483649")).isEqualTo(seconds(2_147_483_648L) + 200);
        assertThat(initialAge("Age", "99999999999999999999")).isEqualTo(seconds(2_147_483_648L) + 200);
    }

    @Test
    void theAgeFieldIsWholeSecondsRoundedDownAndCapped_rfc9111_5_1() {
        assertThat(CachePolicy.ageValue(0)).isEqualTo("0");
        assertThat(CachePolicy.ageValue(999)).isEqualTo("0");
        assertThat(CachePolicy.ageValue(33_999)).isEqualTo("33");
        assertThat(CachePolicy.ageValue(-5)).isEqualTo("0");
        assertThat(CachePolicy.ageValue(seconds(2_147_483_648L))).isEqualTo("2147483648");
        assertThat(CachePolicy.ageValue(Long.MAX_VALUE)).isEqualTo("2147483648");
    }

    @Test
    void theCurrentAgeAddsTheTimeResidentHere_rfc9111_4_2_3() {
        OriginAnswer answer = Fixtures.aged(seconds(30), "Cache-Control", "max-age=100");
        assertThat(answer.ageMillis(NOW + seconds(3))).isEqualTo(seconds(33));
        assertThat(CachePolicy.ageValue(answer.ageMillis(NOW + 3_005))).isEqualTo("33");
    }
}
