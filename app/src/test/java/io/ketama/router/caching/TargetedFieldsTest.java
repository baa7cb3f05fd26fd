package io.ketama.router.caching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetedFieldsTest {

    private static CacheControl cdn(String... fields) {
        return TargetedFields.select(HttpFields.of(fields), List.of("CDN-Cache-Control"));
    }

    @Test
    void aDictionaryOfTheSevenTypesParses_rfc8941_3_2() {
        Map<String, Object> d = StructuredDictionary.parse("a=1, b=-2.5, c=\"x\\\"y\", d=tok/en:1, e=:AQID:, f=?0, g, h=(1 \"two\");p=1, i=3;q");
        assertThat(d).containsEntry("a", 1L).containsEntry("c", new StructuredDictionary.Str("x\"y"))
                .containsEntry("b", new StructuredDictionary.Decimal("-2.5")).containsEntry("d", new StructuredDictionary.Token("tok/en:1"))
                .containsEntry("e", new StructuredDictionary.Binary("AQID")).containsEntry("f", false).containsEntry("g", true)
                .containsEntry("i", 3L);
        assertThat(d.get("h")).isEqualTo(new StructuredDictionary.InnerList(List.of(1L, new StructuredDictionary.Str("two"))));
    }

    @Test
    void anyErrorFailsTheWholeDictionary_rfc8941_4_2() {
        for (String invalid : new String[] {"max-age=10000, &&&&&", "MaX-AgE=3600", "max-age =100", "max-age= 100", "a=1,", "a=1,,b=2",
            "a=1234567890123456", "a=1.2345", "a=\"unterminated", "a=\"\\x\"", "a=?2", "a=(1 2", "a=@12", "1a=1", "a=1 b=2"}) {
            assertThat(StructuredDictionary.parse(invalid)).as(invalid).isNull();
        }
        assertThat(StructuredDictionary.parse("a=123456789012345")).containsEntry("a", 123_456_789_012_345L);
        assertThat(StructuredDictionary.parse("  a=1 ,\tb")).containsKeys("a", "b");
    }

    @Test
    void aRepeatedKeyTakesTheLastValue_rfc8941_4_2_2() {
        assertThat(StructuredDictionary.parse("max-age=1, max-age=2")).containsEntry("max-age", 2L);
    }

    @Test
    void directivesOfTheWrongTypeMakeTheFieldIgnored_rfc9213_2_1() {
        assertThat(cdn("CDN-Cache-Control", "max-age=\"10000\"")).isNull();
        assertThat(cdn("CDN-Cache-Control", "max-age=10.5")).isNull();
        assertThat(cdn("CDN-Cache-Control", "max-age=-1")).isNull();
        assertThat(cdn("CDN-Cache-Control", "no-store=1")).isNull();
        assertThat(cdn("CDN-Cache-Control", "must-revalidate=\"x\"")).isNull();
        assertThat(cdn("CDN-Cache-Control", "max-age=60, foo=\"anything\", bar=(1 2)")).isNotNull(); // unknown: any type
    }

    @Test
    void integersAndBooleansBecomeDirectives_rfc9213_2_1() {
        CacheControl cc = cdn("CDN-Cache-Control", "max-age=99999999999, s-maxage=5;p=1, stale-if-error=7, must-revalidate, public=?0");
        assertThat(cc.maxAge()).isEqualTo(DeltaSeconds.MAX);
        assertThat(cc.sMaxage()).isEqualTo(5);
        assertThat(cc.staleIfError()).isEqualTo(7);
        assertThat(cc.mustRevalidate()).isTrue();
        assertThat(cc.isPublic()).isFalse();
    }

    @Test
    void privateAndNoCacheWithAnyValueCountAsSet_rfc9213_2_1() {
        assertThat(cdn("CDN-Cache-Control", "private=\"Set-Cookie\"").isPrivate()).isTrue();
        assertThat(cdn("CDN-Cache-Control", "no-cache=(a b)").noCache()).isTrue();
        assertThat(cdn("CDN-Cache-Control", "no-cache=?0").noCache()).isFalse();
    }

    @Test
    void theFirstPresentAndValidFieldOfTheListWins_rfc9213_2_2() {
        HttpFields fields = HttpFields.of("A-Cache-Control", "max-age=\"bad\"", "B-Cache-Control", "max-age=2", "CDN-Cache-Control", "max-age=3");
        assertThat(TargetedFields.select(fields, List.of("A-Cache-Control", "B-Cache-Control", "CDN-Cache-Control")).maxAge()).isEqualTo(2);
        assertThat(TargetedFields.select(fields, List.of("CDN-Cache-Control", "B-Cache-Control")).maxAge()).isEqualTo(3);
        assertThat(TargetedFields.select(fields, List.of("Nope"))).isNull();
        assertThat(TargetedFields.select(fields, List.of())).isNull();
    }

    @Test
    void anEmptyFieldIsIgnoredButAnUnknownDirectiveIsAField_rfc9213_2_1() {
        assertThat(cdn("CDN-Cache-Control", "")).isNull();
        assertThat(cdn("CDN-Cache-Control", "  ")).isNull();
        assertThat(cdn("CDN-Cache-Control", "none")).isEqualTo(CacheControl.NONE);
    }

    @Test
    void linesOfAFieldAreOneDictionary_rfc8941_4_2() {
        CacheControl cc = cdn("CDN-Cache-Control", "max-age=60", "CDN-Cache-Control", "must-revalidate");
        assertThat(cc.maxAge()).isEqualTo(60);
        assertThat(cc.mustRevalidate()).isTrue();
    }
}
