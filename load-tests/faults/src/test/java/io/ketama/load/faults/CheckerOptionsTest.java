package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CheckerOptionsTest {

    private static final String[] MEMBERS = {"--member", "1,10.78.0.11,10.77.0.11:5701", "--member", "2,10.78.0.12,10.77.0.12:5701",
            "--member", "3,10.78.0.13,10.77.0.13:5701"};

    private static String[] with(String... more) {
        String[] all = new String[MEMBERS.length + more.length];
        System.arraycopy(MEMBERS, 0, all, 0, MEMBERS.length);
        System.arraycopy(more, 0, all, MEMBERS.length, more.length);
        return all;
    }

    @Test
    void theScriptsOptionsAreRead() {
        CheckerOptions o = CheckerOptions.parse(with("--faults", "isolate,kill", "--rounds", "3", "--rate", "300", "--hold", "20",
                "--failure-timeout", "5", "--merge-interval", "7", "--quiet", "10", "--out", "/tmp/x", "--logs", "/tmp/x/logs"));
        assertThat(o.members()).extracting(MemberRef::clusterAddress).containsExactly("10.77.0.11:5701", "10.77.0.12:5701", "10.77.0.13:5701");
        assertThat(o.faults()).containsExactly(FaultKind.ISOLATE, FaultKind.KILL);
        assertThat(o.rounds()).isEqualTo(3);
        assertThat(o.rate()).isEqualTo(300);
        assertThat(o.plan().holdSeconds()).isEqualTo(20);
        assertThat(o.minMembers()).as("not given: the members run with the learned quorum").isZero();
        assertThat(o.quorum()).as("a majority of the 3 members started").isEqualTo(2);
        assertThat(o.quorumText()).contains("learned quorum");
        assertThat(o.out()).isEqualTo(Path.of("/tmp/x"));
        assertThat(o.logs()).isEqualTo(Path.of("/tmp/x/logs"));
        assertThat(o.bounds()).isEqualTo(new Bounds(10_000, 15_000, 24_000, 10_000, 10_000, 1_000));
    }

    @Test
    void anExplicitMinMembersIsTheQuorum() {
        CheckerOptions o = CheckerOptions.parse(with("--min-members", "3"));
        assertThat(o.minMembers()).isEqualTo(3);
        assertThat(o.quorum()).isEqualTo(3);
        assertThat(o.quorumText()).isEqualTo("min-members 3 (set explicitly)");
        assertThatThrownBy(() -> CheckerOptions.parse(with("--min-members", "4"))).hasMessageContaining("--min-members takes a whole number from 1 to 3");
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> CheckerOptions.parse(with("--rate", "fast"))).hasMessageContaining("--rate takes a whole number from 1");
        assertThatThrownBy(() -> CheckerOptions.parse(with("--hold", "0"))).hasMessageContaining("--hold");
        assertThatThrownBy(() -> CheckerOptions.parse(with("--hodl", "5"))).hasMessageContaining("unknown options: --hodl");
        assertThatThrownBy(() -> CheckerOptions.parse(with("--faults", "isolate,flood"))).hasMessageContaining("no fault 'flood'");
        assertThatThrownBy(() -> CheckerOptions.parse(with("--rate"))).hasMessageContaining("without a value");
        assertThatThrownBy(() -> CheckerOptions.parse("--member", "1,10.78.0.11,10.77.0.11:5701")).hasMessageContaining("at least 3 members");
        assertThatThrownBy(() -> CheckerOptions.parse("--member", "1,a,b:1", "--member", "3,a,b:1", "--member", "2,a,b:1"))
                .hasMessageContaining("numbered 1..3 in order");
        assertThatThrownBy(() -> MemberRef.parse("1,10.78.0.11")).hasMessageContaining("index,clientHost,clusterHost:port");
    }
}
