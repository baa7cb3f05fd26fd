package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.MemorySizeConverter;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code ketama.router.cache.max-bytes} is 1 byte to a long; a value out of range, one past a long
 * included ({@code 1Z}, or {@code 9999999999G}, which overflows one), stops start-up with a message
 * naming the key, the value and the range, not an {@link ArithmeticException}. Sizes are read from
 * their text as the configuration reads them (Quarkus's {@link MemorySizeConverter}).
 */
class CacheMaxBytesTest {

    private static final MemorySizeConverter SIZES = new MemorySizeConverter();

    @Test
    void theDefaultAndEveryValueUpToALongAreTaken() {
        assertThat(RouterSettings.cacheMaxBytes(SIZES.convert("64M"))).isEqualTo(64L << 20);
        assertThat(RouterSettings.cacheMaxBytes(SIZES.convert("1"))).isEqualTo(1);
        assertThat(RouterSettings.cacheMaxBytes(SIZES.convert(Long.toString(Long.MAX_VALUE)))).isEqualTo(Long.MAX_VALUE);
        assertThat(RouterSettings.cacheMaxBytes(SIZES.convert("7E"))).as("7 EiB").isEqualTo(7L << 60);
    }

    @Test
    void zeroAndAnythingPastALongAreRefusedNamingTheKeyTheValueAndTheRange() {
        for (String bad : new String[] {"0", "1Z", "9999999999G", "8E", "9223372036854775808"}) {
            BigInteger bytes = SIZES.convert(bad).asBigInteger();
            assertThatThrownBy(() -> RouterSettings.cacheMaxBytes(SIZES.convert(bad))).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("invalid configuration ketama.router.cache.max-bytes: must be 1 to " + Long.MAX_VALUE
                            + " bytes, e.g. 64M; was " + bytes);
        }
    }
}
