package io.ketama.router.forwarding.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ForwardSecretTest {

    private static final String VALUE = "members-only-0123456789";

    @Test
    void unsetOrBlankRequiresNothingAndAdmitsAnyone() {
        assertThat(ForwardSecret.of(Optional.empty())).isSameAs(ForwardSecret.NONE);
        assertThat(ForwardSecret.of(Optional.of("  "))).isSameAs(ForwardSecret.NONE);
        assertThat(ForwardSecret.NONE.required()).isFalse();
        assertThat(ForwardSecret.NONE.admits((String) null)).isTrue();
        assertThat(ForwardSecret.NONE.admits("anything")).isTrue();
    }

    @Test
    void aSetSecretAdmitsOnlyItself() {
        ForwardSecret secret = ForwardSecret.of(Optional.of(VALUE));
        assertThat(secret.required()).isTrue();
        assertThat(secret.admits(VALUE)).isTrue();
        assertThat(secret.admits(VALUE.getBytes(StandardCharsets.US_ASCII))).isTrue();
        assertThat(secret.admits((String) null)).isFalse();
        assertThat(secret.admits((byte[]) null)).isFalse();
        assertThat(secret.admits("")).isFalse();
        assertThat(secret.admits(VALUE + "x")).isFalse();
        assertThat(secret.admits(VALUE.substring(1))).isFalse();
        assertThat(secret.admits(VALUE.toUpperCase())).isFalse();
        assertThat(secret.text()).isEqualTo(VALUE);
    }

    @Test
    void tooShortOrNotVisibleAsciiIsRefusedWithoutRepeatingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> ForwardSecret.of("short-secret"))
                .withMessage("must be at least 16 characters, was 12");
        assertThatIllegalArgumentException().isThrownBy(() -> ForwardSecret.of("with a space 0123456789"))
                .withMessage("must be visible ASCII characters only (no spaces or control characters), but character 5 of 23 is not")
                .withMessageNotContaining("space 0123");
        assertThatIllegalArgumentException().isThrownBy(() -> ForwardSecret.of("geheimnis-\u00fcber-alles"))
                .withMessageContaining("character 11 of 20");
    }

    @Test
    void neverPrintsItself() {
        assertThat(ForwardSecret.of(VALUE).toString()).isEqualTo("ForwardSecret[set]").doesNotContain(VALUE);
        assertThat(ForwardSecret.NONE).hasToString("ForwardSecret[none]");
    }
}
