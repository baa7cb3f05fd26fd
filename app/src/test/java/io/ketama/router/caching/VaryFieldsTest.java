package io.ketama.router.caching;

import static io.ketama.router.caching.Fixtures.POLICY;
import static io.ketama.router.caching.Fixtures.get;
import static io.ketama.router.caching.Fixtures.ok;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VaryFieldsTest {

    private static boolean matches(OriginAnswer answer, CacheRequest storedFor, CacheRequest presented) {
        return POLICY.matches(answer, POLICY.selectors(answer, storedFor), presented);
    }

    @Test
    void withoutVaryThereAreNoSelectorsAndAnyRequestMatches_rfc9111_4_1() {
        OriginAnswer answer = ok("Cache-Control", "max-age=60");
        assertThat(POLICY.selectors(answer, get("Foo", "1"))).isNull();
        assertThat(POLICY.matches(answer, null, get("Foo", "2"))).isTrue();
        assertThat(POLICY.selectors(ok("Vary", " , "), get())).isNull();
    }

    @Test
    void selectorsAreTheNamedFieldsInVaryOrderDistinct_rfc9111_4_1() {
        OriginAnswer answer = ok("Vary", "Foo, Bar", "Vary", "foo, Baz");
        assertThat(POLICY.selectors(answer, get("Baz", "789", "foo", "1"))).containsExactly("1", null, "789");
    }

    @Test
    void everyNamedFieldMustMatch_rfc9111_4_1() {
        OriginAnswer answer = ok("Vary", "Foo, Bar, Baz");
        CacheRequest stored = get("Foo", "1", "Bar", "abc", "Baz", "789");
        assertThat(matches(answer, stored, get("Foo", "1", "Bar", "abc", "Baz", "789"))).isTrue();
        assertThat(matches(answer, stored, get("Baz", "789", "Bar", "abc", "Foo", "1"))).isTrue(); // order of fields is no matter
        assertThat(matches(answer, stored, get("Foo", "2", "Bar", "abc", "Baz", "789"))).isFalse();
        assertThat(matches(answer, stored, get("Foo", "1", "Baz", "789", "Bar", "abcde"))).isFalse();
        assertThat(matches(answer, stored, get("Foo", "1", "Bar", "abc", "Baz", "789", "Other", "3"))).isTrue(); // not in Vary
    }

    @Test
    void anAbsentFieldMatchesOnlyAnAbsentField_rfc9111_4_1() {
        OriginAnswer answer = ok("Vary", "Foo");
        assertThat(matches(answer, get(), get("Foo", "1"))).isFalse();
        assertThat(matches(answer, get("Foo", "1"), get())).isFalse();
        assertThat(matches(answer, get(), get())).isTrue();
        assertThat(matches(answer, get("Foo", ""), get())).isFalse(); // present though empty is not absent
        OriginAnswer three = ok("Vary", "Foo, Bar, Baz");
        assertThat(matches(three, get("Foo", "1", "Baz", "789"), get("Foo", "1", "Baz", "789"))).isTrue();
    }

    @Test
    void varyStarNeverMatches_rfc9111_4_1() {
        OriginAnswer answer = ok("Vary", "Foo", "Vary", "*");
        assertThat(matches(answer, get("Foo", "1"), get("Foo", "1"))).isFalse();
    }

    @Test
    void listFieldsAreNormalisedByLinesAndWhitespace_rfc9110_5_3() {
        OriginAnswer answer = ok("Vary", "Foo");
        assertThat(matches(answer, get("Foo", "1, 2"), get("Foo", "1", "Foo", "2"))).isTrue();
        assertThat(matches(answer, get("Foo", "1,2"), get("Foo", " 1, 2 "))).isTrue();
        assertThat(matches(answer, get("Foo", "1,2"), get("Foo", "2,1"))).isFalse(); // order matters in general
        assertThat(matches(answer, get("Foo", "\"a, b\""), get("Foo", "\"a,b\""))).isFalse(); // inside quotes: kept
        assertThat(POLICY.selectors(answer, get("Foo", " 1 ,, 2"))).containsExactly("1,2");
    }

    @Test
    void acceptLanguageIgnoresOrderCaseAndWhitespace_rfc9110_12_5_4() {
        OriginAnswer answer = ok("Vary", "Accept-Language");
        CacheRequest stored = get("Accept-Language", "en, de");
        assertThat(matches(answer, stored, get("Accept-Language", "de, en"))).isTrue();
        assertThat(matches(answer, stored, get("Accept-Language", "eN, De"))).isTrue();
        assertThat(matches(answer, stored, get("Accept-Language", " en ,   de"))).isTrue();
        assertThat(matches(answer, stored, get("Accept-Language", "en, fr"))).isFalse();
    }

    @Test
    void selectorsStoredForAnotherVaryDoNotMatch_rfc9111_4_1() {
        OriginAnswer answer = ok("Vary", "Foo, Bar");
        assertThat(POLICY.matches(answer, new String[] {"1"}, get("Foo", "1"))).isFalse();
        assertThat(POLICY.matches(answer, null, get("Foo", "1"))).isFalse();
    }
}
