package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.serving.BodyBudget;
import io.quarkus.runtime.configuration.MemorySize;
import java.math.BigInteger;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code ketama.router.admission.max-buffered-bytes}: unset, a quarter of the heap but at least
 * {@code max-body-bytes}; set, at least {@code max-body-bytes} (one answer of the largest size must
 * fit), else start-up stops with a message naming the key, the value and the range.
 */
class MaxBufferedBytesTest {

    private static final int MAX_BODY = 16 * 1024 * 1024;

    private static Optional<MemorySize> bytes(BigInteger n) {
        return Optional.of(new MemorySize(n));
    }

    private static Optional<MemorySize> bytes(long n) {
        return bytes(BigInteger.valueOf(n));
    }

    @Test
    void unsetItIsAQuarterOfTheHeapButAtLeastOneLargestBody() {
        assertThat(RouterSettings.maxBufferedBytes(Optional.empty(), MAX_BODY))
                .isEqualTo(Math.max(Runtime.getRuntime().maxMemory() / 4, MAX_BODY));
    }

    @Test
    void anyValueFromOneLargestBodyUpIsTaken() {
        assertThat(RouterSettings.maxBufferedBytes(bytes(MAX_BODY), MAX_BODY)).isEqualTo(MAX_BODY);
        assertThat(RouterSettings.maxBufferedBytes(bytes(128L << 20), MAX_BODY)).isEqualTo(128L << 20);
        assertThat(RouterSettings.maxBufferedBytes(bytes(Long.MAX_VALUE), MAX_BODY)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void lessThanOneLargestBodyOrMoreThanALongIsRefusedNamingTheKeyTheValueAndTheRange() {
        for (BigInteger bad : new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(MAX_BODY - 1),
                BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE)}) {
            assertThatThrownBy(() -> RouterSettings.maxBufferedBytes(bytes(bad), MAX_BODY)).as("%s bytes", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("invalid configuration " + BodyBudget.KEY + ": must be " + MAX_BODY + " to "
                            + Long.MAX_VALUE + " bytes (at least ketama.router.origin.max-body-bytes")
                    .hasMessageEndingWith("was " + bad);
        }
    }
}
