package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContentTypesTest {

    /** A string equal to {@code text} but not the same instance (a literal would be interned). */
    private static String copy(String text) {
        return new String(text.toCharArray());
    }

    @Test
    void equalContentTypesShareOneInstance() {
        ContentTypes types = new ContentTypes(4);
        String first = copy("text/plain; charset=UTF-8");
        String second = copy("text/plain; charset=UTF-8");
        assertThat(second).isNotSameAs(first);

        assertThat(types.shared(first)).isSameAs(first);
        assertThat(types.shared(second)).isSameAs(first);
        assertThat(types.shared(copy("application/json"))).isEqualTo("application/json").isNotSameAs(first);
    }

    @Test
    void pastItsLimitAValueIsReturnedAsGiven() {
        ContentTypes types = new ContentTypes(2);
        types.shared("a/1");
        types.shared("a/2");
        String third = copy("a/3");
        String thirdAgain = copy("a/3");

        assertThat(types.shared(third)).isSameAs(third);
        assertThat(types.shared(thirdAgain)).isSameAs(thirdAgain);
        assertThat(types.shared(copy("a/1"))).isSameAs(types.shared("a/1")); // the kept ones are still shared
    }

    @Test
    void answersReadOffTheWireShareTheirContentType() {
        OriginAnswer one = new OriginAnswer(200, copy("image/png"), new byte[1]);
        OriginAnswer two = new OriginAnswer(200, copy("image/png"), new byte[2]);

        assertThat(two.contentType()).isSameAs(one.contentType()).isEqualTo("image/png");
    }
}
