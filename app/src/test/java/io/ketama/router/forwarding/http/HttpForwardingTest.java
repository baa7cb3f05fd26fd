package io.ketama.router.forwarding.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class HttpForwardingTest {

    @Test
    void everyByteOfAKeySurvivesTheRequestTarget() {
        StringBuilder all = new StringBuilder();
        for (int b = 0; b < 256; b++) {
            all.append((char) b);
        }
        for (String key : new String[] {all.toString(), "a/../b?x=%41&y=%zz#f", "plain-key.v1~x_y", "%", "ü€"}) {
            String target = HttpForwarding.target(key.chars().allMatch(c -> c < 256) ? key : "x");
            assertThat(URI.create(target).getRawPath()).as("a valid URI path").isEqualTo(target);
            assertThat(HttpForwarding.key(target)).isEqualTo(key.chars().allMatch(c -> c < 256) ? key : "x");
        }
        assertThat(HttpForwarding.target("a b/c")).isEqualTo(HttpForwarding.PREFIX + "a%20b%2Fc");
    }

    @Test
    void aTargetThatIsNoForwardIsRefused() {
        assertThatThrownBy(() -> HttpForwarding.key("/cache/x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpForwarding.key(HttpForwarding.PREFIX)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpForwarding.key(HttpForwarding.PREFIX + "a%4")).hasMessageContaining("two hex digits");
        assertThatThrownBy(() -> HttpForwarding.key(HttpForwarding.PREFIX + "a%zz")).hasMessageContaining("two hex digits");
    }
}
