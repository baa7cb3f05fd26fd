package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RemoteFailure;
import org.junit.jupiter.api.Test;

/**
 * Channel version 3 (bounded loads), what every transport shares: a spill comes back as
 * {@link SpilledException}, neither retried nor a failure of the member, and travels as a code a
 * member of version 2 is never sent. Each transport's own test is in its package
 * ({@code BinarySpillTest}, {@code HttpSpillTest}, {@code HazelcastSpillTest}).
 */
class SpillChannelTest {
    @Test
    void aSpillIsNeitherRetriedNorAFailureOfTheMember() {
        SpilledException spilled = new SpilledException("past its bound");
        assertThat(FailureKind.of(spilled).saysNothingOfTheMember()).isTrue();
        assertThat(FailureKind.of(spilled).retryingCannotMend()).isTrue();
        assertThat(RemoteFailure.of(spilled)).isEqualTo(RemoteFailure.SPILLED);
        assertThat(ChannelVersion.code(RemoteFailure.SPILLED, 2)).as("to a version-2 member (never sent: it never asks)")
                .isEqualTo(RemoteFailure.FAILED.code());
        assertThat(RemoteFailure.SPILLED.toException("m", "x")).isInstanceOf(SpilledException.class);
    }
}
