package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When an answer read after a heal counts as a purged one served again, and how the results file shows purges. */
class PurgeCheckTest {

    private static PurgeCheck sent(int status, List<String> served) {
        return new PurgeCheck("split m1,m2,m5 | m3,m4", 3, "minority", 1_000_000, status, "{}", List.of("fault-key-1"), 5, served);
    }

    @Test
    void anAnswerFetchedBeforeThePurgeByMoreThanTheSlackIsAPurgedOne() {
        PurgeCheck p = sent(202, List.of());
        long readAt = 1_030_000; // 30 s after the purge
        assertThat(p.fetchedBefore(readAt, 40)).as("fetched 10 s before the purge").isTrue();
        assertThat(p.fetchedBefore(readAt, 29)).as("fetched after it").isFalse();
        assertThat(p.fetchedBefore(readAt, 31)).as("within the whole-second slack").isFalse();
    }

    @Test
    void onlyAnAnsweredPurgeCanBeViolated() {
        assertThat(sent(202, List.of("m4 fault-key-1 age 40 s HIT")).violated()).isTrue();
        assertThat(sent(200, List.of()).violated()).isFalse();
        assertThat(sent(0, List.of("m4 fault-key-1 age 40 s HIT")).violated()).as("never answered: nothing was promised").isFalse();
    }

    @Test
    void theResultsFileListsEveryPurgeAndWhatWasServedOfIt() {
        assertThat(Report.purges(List.of())).isEmpty();
        String md = Report.purges(List.of(sent(202, List.of()), sent(202, List.of("m4 fault-key-1 age 40 s HIT"))));
        assertThat(md).contains("### Purges during partitions")
                .contains("| split m1,m2,m5 \\| m3,m4 | minority | m3 | 1 | 202 {} | 5 | none |")
                .contains("| 1: [m4 fault-key-1 age 40 s HIT] |");
    }
}
