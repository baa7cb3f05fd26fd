package io.ketama.router.caching;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CacheControlParserTest {

    private static CacheControl parse(String value) {
        return CacheControlParser.parse(value);
    }

    @Test
    void directiveNamesCompareWithoutCase_rfc9111_5_2() {
        CacheControl cc = parse("MaX-AgE=60, No-StOrE, PUBLIC, S-MAXAGE=5");
        assertThat(cc.maxAge()).isEqualTo(60);
        assertThat(cc.sMaxage()).isEqualTo(5);
        assertThat(cc.noStore()).isTrue();
        assertThat(cc.isPublic()).isTrue();
    }

    @Test
    void quotedArgumentsAreAcceptedAndLeadingZerosRead_rfc9111_5_2() {
        assertThat(parse("max-age=\"3600\"").maxAge()).isEqualTo(3600);
        assertThat(parse("max-age=003600").maxAge()).isEqualTo(3600);
        assertThat(parse("s-maxage=\"0007\"").sMaxage()).isEqualTo(7);
    }

    @Test
    void anInvalidMaxAgeIsZeroSoTheResponseIsStale_rfc9111_4_2_1() {
        assertThat(parse("max-age=-3600").maxAge()).isZero();
        assertThat(parse("max-age='3600'").maxAge()).isZero();
        assertThat(parse("max-age=3600.0").maxAge()).isZero();
        assertThat(parse("max-age=a3600").maxAge()).isZero();
        assertThat(parse("max-age=3600a").maxAge()).isZero();
        assertThat(parse("max-age").maxAge()).isZero();
        assertThat(parse("s-maxage=-1").sMaxage()).isZero();
        assertThat(parse("no-store").maxAge()).isEqualTo(DeltaSeconds.ABSENT);
    }

    @Test
    void deltaSecondsPast2To31AreCappedAt2To31_rfc9111_1_2_2() {
        assertThat(parse("max-age=2147483647").maxAge()).isEqualTo(2_147_483_647L);
        assertThat(parse("max-age=2147483648").maxAge()).isEqualTo(2_147_483_648L);
        assertThat(parse("max-age=2147483649").maxAge()).isEqualTo(2_147_483_648L);
        assertThat(parse("max-age=99999999999999999999999999").maxAge()).isEqualTo(2_147_483_648L);
        assertThat(parse("stale-while-revalidate=99999999999").staleWhileRevalidate()).isEqualTo(2_147_483_648L);
    }

    @Test
    void theFirstOccurrenceWinsOnOneLineAndAcrossLines_rfc9111_4_2_1() {
        assertThat(parse("max-age=1800, max-age=1").maxAge()).isEqualTo(1800);
        assertThat(parse("max-age=1, max-age=1800").maxAge()).isEqualTo(1);
        HttpFields lines = HttpFields.of("Cache-Control", "max-age=1", "Content-Type", "text/plain", "cache-control", "max-age=1800, s-maxage=9");
        CacheControl cc = CacheControlParser.parse(lines, "Cache-Control");
        assertThat(cc.maxAge()).isEqualTo(1);
        assertThat(cc.sMaxage()).isEqualTo(9);
    }

    @Test
    void aDirectiveInsideAQuotedStringIsNotADirective_rfc9111_5_2() {
        assertThat(parse("extension=\"max-age=3600\", max-age=1").maxAge()).isEqualTo(1);
        assertThat(parse("max-age=1, extension=\"max-age=3600\"").maxAge()).isEqualTo(1);
        assertThat(parse("ext=\"a, \\\"no-store\\\", b\", max-age=5").noStore()).isFalse();
        assertThat(parse("ext=\"a, \\\"no-store\\\", b\", max-age=5").maxAge()).isEqualTo(5);
    }

    @Test
    void whitespaceAroundTheEqualsSignMakesTheElementInvalid_rfc9110_5_6_1() {
        assertThat(parse("max-age =3600").maxAge()).isEqualTo(DeltaSeconds.ABSENT);
        assertThat(parse("max-age= 3600").maxAge()).isEqualTo(DeltaSeconds.ABSENT);
        assertThat(parse("max-age =3600, public").isPublic()).isTrue();
    }

    @Test
    void unknownDirectivesAndEmptyElementsAreIgnored_rfc9111_5_2_3() {
        CacheControl cc = parse(" , foobar, nothing-to-see-here,, x=\"y\" ,max-age=3600 ,");
        assertThat(cc.maxAge()).isEqualTo(3600);
        assertThat(parse("nothing-to-see-here")).isEqualTo(CacheControl.NONE);
    }

    @Test
    void qualifiedNoCacheAndPrivateNameFieldsAndAreNotTheUnqualifiedForms_rfc9111_5_2_2_4_and_5_2_2_7() {
        CacheControl cc = parse("no-cache=\"Set-Cookie, X-A\", private=X-B");
        assertThat(cc.noCache()).isFalse();
        assertThat(cc.noCacheFields()).containsExactly("Set-Cookie", "X-A");
        assertThat(cc.isPrivate()).isFalse();
        assertThat(cc.privateFields()).containsExactly("X-B");
        assertThat(parse("no-cache").noCache()).isTrue();
        assertThat(parse("no-cache=\"\"").noCache()).isTrue(); // names nothing: taken as unqualified
        assertThat(parse("private").isPrivate()).isTrue();
    }

    @Test
    void requestDirectives_rfc9111_5_2_1() {
        CacheControl cc = parse("max-stale, min-fresh=20, only-if-cached, no-cache, stale-if-error=30");
        assertThat(cc.maxStale()).isEqualTo(CacheControl.ANY_STALENESS);
        assertThat(cc.minFresh()).isEqualTo(20);
        assertThat(cc.onlyIfCached()).isTrue();
        assertThat(cc.noCache()).isTrue();
        assertThat(cc.staleIfError()).isEqualTo(30);
        assertThat(parse("max-stale=1000").maxStale()).isEqualTo(1000);
        assertThat(parse("max-stale=x").maxStale()).isEqualTo(DeltaSeconds.ABSENT); // allows nothing
    }

    @Test
    void revalidationDirectivesForbidStaleInASharedCache_rfc9111_4_2_4() {
        assertThat(parse("must-revalidate").forbidsStale()).isTrue();
        assertThat(parse("proxy-revalidate").forbidsStale()).isTrue();
        assertThat(parse("s-maxage=5").forbidsStale()).isTrue();
        assertThat(parse("no-cache").forbidsStale()).isTrue();
        assertThat(parse("max-age=5, stale-while-revalidate=5").forbidsStale()).isFalse();
    }
}
