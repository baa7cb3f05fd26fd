package io.ketama.load.faults;

import static io.ketama.load.faults.Cluster5.everyone;
import static io.ketama.load.faults.Cluster5.isolated;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    private final FaultPlan plan = new FaultPlan(5, 30, 20, 3, 5);
    private final Bounds bounds = Bounds.stated(10_000, 10_000, 15_000);

    private FaultFigures isolation(int sequence, boolean heals) {
        Fault f = plan.fault(FaultKind.ISOLATE, sequence);
        int target = (sequence - 1) % 5 + 1;
        Cluster5 c = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(target), 1);
        c = heals ? c.rounds(45_000, 70_000, everyone(), 1) : c.rounds(45_000, 70_000, isolated(target), 1);
        return FaultFigures.analyze(new FaultWindow(f, 10_000, 40_000, 65_000,
                List.of(new AdminChange(1, "majority", 0, 11, 200, 2, "{}"))), List.of(), c.build(), Cluster5.ADDRESSES, Cluster5.KEYS,
                bounds, List.of());
    }

    @Test
    void markdownHasARowPerFaultAndASummaryPerKind() {
        String md = Report.markdown(List.of(isolation(3, true), isolation(4, false)), bounds);
        assertThat(md).contains("| 3 | isolate m3 | 0 / 0 (0 ms) |").contains("| 4 | isolate m4 |");
        assertThat(md).contains("| 3 | isolate m3 | none logged | 5.0 | 5.0 |");
        assertThat(md).contains("| 4 | isolate m4 | none logged | never | not settled |");
        assertThat(md).contains("| isolate | 2 | 0 / 0 | 11.0 | 5.0 (1 never) | 0.0 (1 never) | 1 | 2 of 2 | 0 of 2 |");
        assertThat(md).contains("majority m1 11.0%: 200 g2, LOST");
    }

    @Test
    void aRefusedChangeShowsItsProblem() {
        Fault f = plan.fault(FaultKind.ISOLATE, 3);
        Cluster5 c = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 1).rounds(45_000, 70_000, everyone(), 1);
        FaultFigures figures = FaultFigures.analyze(new FaultWindow(f, 10_000, 40_000, 65_000,
                List.of(new AdminChange(3, "minority", 0, 63, 503, -1, "{\"type\":\"urn:ketama:problem:too-few-members\"}").onSide(1, 3))),
                List.of(), c.build(), Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of());
        assertThat(Report.markdown(List.of(figures), bounds)).contains("minority m3 63.0%: 503 too-few-members |");
    }

    @Test
    void aSplitsLabelDoesNotEndItsCell() {
        Fault split = plan.fault(FaultKind.SPLIT, 1);
        FaultFigures f = FaultFigures.analyze(new FaultWindow(split, 10_000, 40_000, 65_000, List.of()), List.of(),
                new Cluster5().rounds(0, 70_000, everyone(), 1).build(), Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of());
        assertThat(Report.markdown(List.of(f), bounds)).contains("| 1 | split m3,m4,m5 \\| m1,m2 |").doesNotContain("m3,m4,m5 | m1,m2");
    }

    @Test
    void csvRowsHaveAsManyCellsAsTheHeader() {
        int columns = Report.csvHeader().split(",").length;
        String row = Report.csvRow(isolation(3, false));
        assertThat(row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1)).hasSize(columns);
        assertThat(row).startsWith("3,isolate,isolate m3,");
    }

    @Test
    void rangesSayHowManyRunsNeverGotThere() {
        assertThat(Report.range(List.of(isolation(3, true), isolation(4, true)), f -> f.views().mergedAfterHeal())).isEqualTo("5.0");
        FaultFigures slower = FaultFigures.analyze(new FaultWindow(plan.fault(FaultKind.ISOLATE, 3), 10_000, 38_000, 65_000, List.of()),
                List.of(), new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 1)
                        .rounds(45_000, 70_000, everyone(), 1).build(), Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of());
        assertThat(Report.range(List.of(isolation(3, true), slower), f -> f.views().mergedAfterHeal())).isEqualTo("5.0 to 7.0");
        assertThat(Report.range(List.of(isolation(3, false)), f -> f.views().mergedAfterHeal())).isEqualTo("-");
    }
}
