package io.ketama.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one check of an admin caller's token. */
class AdminTokenTest {

    private static final String TOKEN = "an-admin-token-of-32-characters!";

    @Test
    void onlyBearerWithTheTokenItselfMatches() {
        assertThat(AdminToken.matches("Bearer " + TOKEN, TOKEN)).isTrue();
        assertThat(AdminToken.matches("bearer " + TOKEN + "  ", TOKEN)).as("the scheme's case and trailing blanks").isTrue();
        assertThat(AdminToken.matches(null, TOKEN)).isFalse();
        assertThat(AdminToken.matches("", TOKEN)).isFalse();
        assertThat(AdminToken.matches("Bearer", TOKEN)).isFalse();
        assertThat(AdminToken.matches("Basic " + TOKEN, TOKEN)).isFalse();
        assertThat(AdminToken.matches("Bearer " + TOKEN.substring(1), TOKEN)).as("a prefix of it").isFalse();
        assertThat(AdminToken.matches("Bearer " + TOKEN + "x", TOKEN)).as("longer").isFalse();
        assertThat(AdminToken.matches("Bearer " + TOKEN.toUpperCase(java.util.Locale.ROOT), TOKEN)).as("the token's case counts").isFalse();
    }
}
