package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.forwarding.binary.BinaryForwardServer;
import io.ketama.router.serving.HttpOrigin;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code ketama.router.origin.max-body-bytes} is held to 1 byte .. the binary channel's largest
 * body, so no answer a member serves can make a frame past the channel's limit; a value out of
 * range, one past a long included ({@code 1Z}, or {@code 9999999999G}, which overflows one), stops
 * start-up with a message naming the key, the value and the range.
 */
class MaxBodyBytesTest {

    private static MemorySize bytes(long n) {
        return new MemorySize(BigInteger.valueOf(n));
    }

    @Test
    void theDefaultAndEveryValueUpToTheChannelsLimitAreTaken() {
        assertThat(RouterSettings.maxBodyBytes(bytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES))).isEqualTo(16 * 1024 * 1024);
        assertThat(RouterSettings.maxBodyBytes(bytes(1))).isEqualTo(1);
        assertThat(RouterSettings.maxBodyBytes(bytes(BinaryForwardServer.MAX_BODY_BYTES))).isEqualTo(BinaryForwardServer.MAX_BODY_BYTES);
        assertThat(BinaryForwardServer.MAX_BODY_BYTES).isLessThan(256 * 1024 * 1024);
    }

    @Test
    void zeroAndAnythingPastTheChannelsLimitAreRefusedNamingTheKeyAndTheRange() {
        for (long bad : new long[] {0, BinaryForwardServer.MAX_BODY_BYTES + 1L, 256L * 1024 * 1024, 1L << 40}) {
            assertThatThrownBy(() -> RouterSettings.maxBodyBytes(bytes(bad))).as("%d bytes", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("invalid configuration ketama.router.origin.max-body-bytes: must be 1 to "
                            + BinaryForwardServer.MAX_BODY_BYTES + " bytes")
                    .hasMessageEndingWith("was " + bad);
        }
    }

    @Test
    void aSizePastALongIsRefusedNamingTheKeyTheValueAndTheRangeNotAnArithmeticException() {
        MemorySizeConverter sizes = new MemorySizeConverter();
        for (String bad : new String[] {"1Z", "9999999999G", "9223372036854775808"}) {
            BigInteger bytes = sizes.convert(bad).asBigInteger();
            assertThat(bytes.bitLength()).as("%s is past a long", bad).isGreaterThan(63);
            assertThatThrownBy(() -> RouterSettings.maxBodyBytes(sizes.convert(bad))).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("invalid configuration ketama.router.origin.max-body-bytes: must be 1 to "
                            + BinaryForwardServer.MAX_BODY_BYTES + " bytes")
                    .hasMessageEndingWith("was " + bytes);
        }
    }
}
