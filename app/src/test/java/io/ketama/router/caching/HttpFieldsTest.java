package io.ketama.router.caching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HttpFieldsTest {

    /** A string equal to {@code text} but not the same instance (a literal would be interned). */
    private static String copy(String text) {
        return new String(text.toCharArray());
    }

    @Test
    void namesCompareWithoutCaseValuesExactly_rfc9110_5_1() {
        HttpFields f = HttpFields.of("Content-Type", "text/plain", "etag", "\"A\"");
        assertThat(f.first("content-type")).isEqualTo("text/plain");
        assertThat(f.first("ETAG")).isEqualTo("\"A\"");
        assertThat(f.first("ETag")).isNotEqualTo("\"a\"");
        assertThat(f.has("Age")).isFalse();
        assertThat(f.first("Age")).isNull();
    }

    @Test
    void linesOfOneFieldStayApartAndCombineInOrder_rfc9110_5_3() {
        HttpFields f = HttpFields.of("Age", "7200", "Cache-Control", "max-age=1", "Age", "0");
        assertThat(f.size()).isEqualTo(3);
        assertThat(f.first("Age")).isEqualTo("7200");
        assertThat(f.all("age")).containsExactly("7200", "0");
        assertThat(f.combined("Age")).isEqualTo("7200, 0");
        assertThat(f.combined("Cache-Control")).isEqualTo("max-age=1");
        assertThat(f.combined("Vary")).isNull();
        assertThat(f.all("Vary")).isEmpty();
    }

    @Test
    void hopByHopFieldsAndThoseConnectionNamesAreDropped_rfc9110_7_6_1() {
        HttpFields f = HttpFields.of("Connection", "a, B", "Keep-Alive", "timeout=5", "Transfer-Encoding", "chunked",
                "a", "1", "b", "2", "c", "3", "TE", "trailers", "Upgrade", "h2c", "Proxy-Connection", "close",
                "Proxy-Authenticate", "Basic", "Proxy-Authorization", "x", "Proxy-Authentication-Info", "y", "Trailer", "z",
                "Cache-Control", "max-age=3600");
        HttpFields kept = f.endToEnd();
        assertThat(kept).isEqualTo(HttpFields.of("c", "3", "Cache-Control", "max-age=3600"));
        HttpFields none = HttpFields.of("Cache-Control", "max-age=1");
        assertThat(none.endToEnd()).isSameAs(none);
    }

    @Test
    void withoutWithAndReplacingMakeNewFields() {
        HttpFields f = HttpFields.of("A", "1", "B", "2", "a", "3");
        assertThat(f.without("a")).isEqualTo(HttpFields.of("B", "2"));
        assertThat(f.without("x")).isSameAs(f);
        assertThat(f.with("C", "4").combined("c")).isEqualTo("4");
        assertThat(f.replacing("A", "9")).isEqualTo(HttpFields.of("B", "2", "A", "9"));
        assertThat(f).isEqualTo(HttpFields.of("a", "1", "b", "2", "A", "3")); // unchanged, names without case
    }

    @Test
    void storedFieldsShareNamesAndRepeatingValuesOthersNot() {
        SharedStrings strings = new SharedStrings(64);
        HttpFields one = HttpFields.of(copy("Content-Type"), copy("text/html"), copy("Date"), copy("Sun, 06 Dec 2026 04:00:00 GMT"))
                .shared(strings);
        HttpFields read = HttpFields.of(copy("Content-Type"), copy("text/html"), copy("Date"), copy("Sun, 06 Dec 2026 04:00:00 GMT"));
        assertThat(read.name(0)).as("fields read in passing share nothing").isNotSameAs(one.name(0));
        HttpFields two = read.shared(strings);
        assertThat(two.name(0)).isSameAs(one.name(0));
        assertThat(two.value(0)).isSameAs(one.value(0)); // content types repeat: shared
        assertThat(two.name(1)).isSameAs(one.name(1));
        assertThat(two.value(1)).isNotSameAs(one.value(1)); // dates differ from answer to answer: never kept
        assertThat(strings.keeps(one.value(1))).isFalse();
        assertThat(two.shared(strings)).as("already shared: the same instance").isSameAs(two);
    }

    @Test
    void pastItsLimitAStringIsReturnedAsGiven() {
        SharedStrings strings = new SharedStrings(2);
        strings.shared("a/1");
        strings.shared("a/2");
        String third = copy("a/3");
        assertThat(strings.shared(third)).isSameAs(third);
        assertThat(strings.keeps(third)).isFalse();
        assertThat(strings.shared(copy("a/1"))).isSameAs(strings.shared("a/1"));
    }

    @Test
    void badInputIsRefusedSayingWhat() {
        assertThatThrownBy(() -> HttpFields.of("A")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("odd");
        assertThatThrownBy(() -> HttpFields.of("", "v")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> HttpFields.of("A", null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aBuilderStartsAfreshAfterBuild() {
        HttpFields.Builder b = HttpFields.builder(1);
        HttpFields first = b.add("A", "1").add("B", "2").build();
        HttpFields second = b.add("C", "3").build();
        assertThat(first).isEqualTo(HttpFields.of("A", "1", "B", "2"));
        assertThat(second).isEqualTo(HttpFields.of("C", "3"));
        assertThat(HttpFields.builder().build()).isSameAs(HttpFields.EMPTY);
    }
}
