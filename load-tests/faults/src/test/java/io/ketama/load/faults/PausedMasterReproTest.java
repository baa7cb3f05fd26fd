package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.load.faults.PausedMasterRepro.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PausedMasterReproTest {

    private static final String A = "127.0.0.1:15701";
    private static final String B = "127.0.0.1:15702";
    private static final String C = "127.0.0.1:15703";
    private static final long STOP = 100_000;
    private static final long CONT = 120_000;

    /** Statuses every 200 ms from 95 s to 130 s; {@code view} says the list at each time. */
    private static List<Status> statuses(java.util.function.LongFunction<List<String>> view, boolean paused) {
        List<Status> out = new ArrayList<>();
        for (long t = 95_000; t <= 130_000; t += 200) {
            if (paused && t >= STOP && t < CONT) {
                continue;
            }
            out.add(new Status(t, view.apply(t)));
        }
        return out;
    }

    @Test
    void aPausedMasterDroppedByOneClusterOfSurvivorsMeetsTheTarget() {
        Map<String, List<Status>> byMember = new TreeMap<>();
        byMember.put(A, statuses(t -> List.of(A, B, C), true));
        byMember.put(B, statuses(t -> t >= STOP + 10_400 && t < CONT + 1_000 ? List.of(B, C) : List.of(A, B, C), false));
        byMember.put(C, statuses(t -> t >= STOP + 10_600 && t < CONT + 1_000 ? List.of(B, C) : List.of(A, B, C), false));

        String line = PausedMasterRepro.analyze(byMember, A, STOP, CONT, 10_000);

        assertThat(line).contains("master=y", "drop_ms=10400,10600", "max_drop_ms=10600", "survivors_one_cluster=y",
                "survivors_agree_ms=10600", "new_master=" + B, "whole_after_cont_ms=1000", "target_met=y");
    }

    @Test
    void survivorsSplitIntoClustersOfOneMissTheTarget() {
        Map<String, List<Status>> byMember = new TreeMap<>();
        byMember.put(A, statuses(t -> List.of(A, B, C), true));
        byMember.put(B, statuses(t -> t >= STOP + 10_000 && t < CONT + 3_000 ? List.of(B) : List.of(A, B, C), false));
        byMember.put(C, statuses(t -> t >= STOP + 10_200 && t < CONT + 3_000 ? List.of(C) : List.of(A, B, C), false));

        String line = PausedMasterRepro.analyze(byMember, A, STOP, CONT, 10_000);

        assertThat(line).contains("drop_ms=10000,10200", "survivors_one_cluster=n", "survivors_agree_ms=never",
                "whole_after_cont_ms=3000", "target_met=n");
    }

    @Test
    void aPausedMemberKeptForThePauseIsNeverDropped() {
        Map<String, List<Status>> byMember = new TreeMap<>();
        byMember.put(A, statuses(t -> List.of(A, B, C), true));
        byMember.put(B, statuses(t -> List.of(A, B, C), false));
        byMember.put(C, statuses(t -> List.of(A, B, C), false));

        String line = PausedMasterRepro.analyze(byMember, A, STOP, CONT, 10_000);

        assertThat(line).contains("drop_ms=never,never", "max_drop_ms=never", "survivors_one_cluster=y",
                "whole_after_cont_ms=0", "target_met=n");
    }

    @Test
    void aPausedMemberThatIsNotTheMasterIsSaidSo() {
        Map<String, List<Status>> byMember = new TreeMap<>();
        byMember.put(A, statuses(t -> t >= STOP + 12_000 && t < CONT + 500 ? List.of(A, B) : List.of(A, B, C), false));
        byMember.put(B, statuses(t -> t >= STOP + 12_000 && t < CONT + 500 ? List.of(A, B) : List.of(A, B, C), false));
        byMember.put(C, statuses(t -> List.of(A, B, C), true));

        String line = PausedMasterRepro.analyze(byMember, C, STOP, CONT, 10_000);

        assertThat(line).contains("paused=" + C, "master=n", "max_drop_ms=12000", "new_master=" + A, "target_met=y");
    }
}
