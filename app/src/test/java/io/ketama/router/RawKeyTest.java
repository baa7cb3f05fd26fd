package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RawKeyTest {

    @Test
    void theKeyIsTheRawRestOfTheTargetQueryIncluded() {
        assertThat(RawKey.fromRequestTarget("/cache/img/a%20b.png?w=1&h=%zz", "/cache/").text())
                .isEqualTo("img/a%20b.png?w=1&h=%zz");
        assertThat(RawKey.fromRequestTarget("/cache/a/../b//c", "/cache/").text()).isEqualTo("a/../b//c");
    }

    @Test
    void bytesComeBackExactlyAsSent() {
        String target = new String(new byte[] {'/', 'c', 'a', 'c', 'h', 'e', '/', (byte) 0xFF, (byte) 0x80, 'x'},
                StandardCharsets.ISO_8859_1);
        assertThat(RawKey.fromRequestTarget(target, "/cache/").bytes()).containsExactly(0xFF, 0x80, 'x');
    }

    @Test
    void absoluteFormTargetsLoseSchemeAndAuthority() {
        assertThat(RawKey.fromRequestTarget("http://example.test:8080/cache/k?q", "/cache/").text()).isEqualTo("k?q");
        assertThat(RawKey.fromRequestTarget("HTTPS://h/cache/k", "/cache/").text()).isEqualTo("k");
    }

    @Test
    void emptyKeysAreProblems() {
        for (String t : new String[] {"/cache/", "/cache", "/cache?x=1", ""}) {
            assertThatThrownBy(() -> RawKey.fromRequestTarget(t, "/cache/"))
                    .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.kind())
                            .isEqualTo(t.isEmpty() ? ProblemType.BAD_REQUEST_TARGET : ProblemType.EMPTY_KEY));
        }
    }

    @Test
    void keysOver8KiBAreProblems() {
        assertThat(RawKey.fromRequestTarget("/cache/" + "a".repeat(8192), "/cache/").length()).isEqualTo(8192);
        assertThatThrownBy(() -> RawKey.fromRequestTarget("/cache/" + "a".repeat(8193), "/cache/"))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProblemType.KEY_TOO_LONG);
                    assertThat(e.getMessage()).contains("8193").contains("8192");
                });
    }

    @Test
    void aTargetNotLiterallyUnderThePrefixIsAProblem() {
        assertThatThrownBy(() -> RawKey.fromRequestTarget("/%63ache/k", "/cache/"))
                .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.kind()).isEqualTo(ProblemType.BAD_REQUEST_TARGET));
    }

    @Test
    void displayDecodesUtf8AndReplacesTheRest() {
        assertThat(new RawKey("\u00e2\u0082\u00ac").display()).isEqualTo("\u20ac");
        assertThat(new RawKey("\u00ff").display()).isEqualTo("\ufffd");
    }
}
