package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MemberPoolTest {

    @Test
    void roundRobinAndRetriesMoveToTheNextMember() {
        MemberPool pool = new MemberPool(List.of(8080, 8081, 8082), List.of());
        long t0 = pool.nextTicket();
        long t1 = pool.nextTicket();
        assertThat(pool.portFor(t0, 0)).isEqualTo(8080);
        assertThat(pool.portFor(t1, 0)).isEqualTo(8081);
        assertThat(pool.portFor(t0, 1)).isEqualTo(8081);
        assertThat(pool.portFor(t0, 2)).isEqualTo(8082);
        assertThat(pool.portFor(t0, 3)).isEqualTo(8080);
    }

    @Test
    void probesTakeMembersInAndOutOfService() {
        MemberPool pool = new MemberPool(List.of(8080, 8081, 8082), List.of(8083));
        assertThat(pool.inService()).containsExactly(8080, 8081, 8082);
        pool.setReady(8082, false);
        pool.setReady(8083, true);
        assertThat(pool.inService()).containsExactly(8080, 8081, 8083);
        for (long ticket = 0; ticket < 10; ticket++) {
            assertThat(pool.portFor(ticket, 0)).isNotEqualTo(8082);
        }
        assertThat(pool.ports()).containsExactly(8080, 8081, 8082, 8083);
    }

    @Test
    void withNobodyInServiceEveryPortIsTried() {
        MemberPool pool = new MemberPool(List.of(8080), List.of(8083));
        pool.setReady(8080, false);
        assertThat(pool.portFor(0, 0)).isEqualTo(8080);
        assertThat(pool.portFor(1, 0)).isEqualTo(8083);
    }

    @Test
    void unknownPortsAreRefused() {
        MemberPool pool = new MemberPool(List.of(8080), List.of());
        assertThatThrownBy(() -> pool.setReady(9999, true)).hasMessageContaining("port 9999 is not a member of this pool; members: [8080]");
    }
}
