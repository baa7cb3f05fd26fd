package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The figures of a run as Markdown (for RESULTS.md) and CSV (one row a fault). */
final class Report {

    private Report() {
    }

    static String markdown(List<FaultFigures> figures, Bounds bounds) {
        StringBuilder out = new StringBuilder();
        out.append("Bounds judged against: detection ").append(s(bounds.detection())).append(" (a cut-off side's own view ")
                .append(s(bounds.cutOffDetection())).append("), merge ").append(s(bounds.merge()))
                .append(" after the heal, agreement ").append(s(bounds.agreeAfterMerge())).append(" after the merge, settled = ")
                .append(s(bounds.quiet())).append(" of unbroken agreement, a fast 503 within ").append(s(bounds.fastRefusal())).append(".\n\n");
        out.append("### During each fault\n\n");
        out.append("| # | fault | connected: failed / sent (slowest) | cut-off: served, fast 503, no answer, other (slowest) "
                + "| impaired: failed / sent | served by non-owner | bypass | keys served by 2+ | owners differ (s) "
                + "| dropped (s after inject) | sides agree (s) | empty-ring polls | ring-not-ready answers | Hazelcast merges "
                + "| load average |\n");
        out.append("|---:|---|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|\n");
        for (FaultFigures f : figures) {
            RequestFigures r = f.requests();
            ViewFigures v = f.views();
            out.append("| ").append(f.fault().sequence()).append(" | ").append(cell(f.fault().label())).append(" | ")
                    .append(r.connected().failed()).append(" / ").append(r.connected().total()).append(" (").append(ms(r.connected().maxMillis()))
                    .append(r.connected().failed() == 0 ? "" : "; " + r.connectedFailuresText(2)).append(") | ").append(r.cutOff().total() == 0 ? "-"
                            : r.cutOff().ok() + ", " + r.cutOff().fast503() + ", " + r.cutOff().hung() + ", " + r.cutOff().other() + " ("
                                    + ms(r.cutOff().maxMillis()) + ")")
                    .append(" | ").append(r.impaired().total() == 0 ? "-" : r.impaired().failed() + " / " + r.impaired().total())
                    .append(" | ").append(r.servedByOther()).append(" | ").append(r.bypasses()).append(" | ").append(r.keysServedByTwo())
                    .append(" | ").append(s(v.disagreeDuringMillis())).append(" | ").append(dropped(f)).append(" | ")
                    .append(or(v.settledAfterInject(), "not settled")).append(" | ").append(v.emptyRingPolls())
                    .append(v.emptyRingMembers().isEmpty() ? "" : " " + FaultPlan.names(v.emptyRingMembers())).append(" | ")
                    .append(r.ringNotReady()).append(" | ").append(v.mergesDuringFault()).append(" | ").append(f.window().loadAverage())
                    .append(" |\n");
        }
        out.append("\n### After each heal\n\n");
        out.append("| # | fault | Hazelcast merge (s after heal) | rings whole (s after heal) | agreed (s after heal) "
                + "| agreed after merge (s) | owners differ (s) | rebuilds after heal / in the last quiet period "
                + "| admin changes during the fault | targets missed |\n");
        out.append("|---:|---|---:|---:|---:|---:|---:|---|---|---|\n");
        for (FaultFigures f : figures) {
            ViewFigures v = f.views();
            String afterMerge = v.agreedAfterHeal() == null || v.mergeAfterHeal() == null ? "-"
                    : s(Math.max(0, v.agreedAfterHeal() - v.mergeAfterHeal()));
            out.append("| ").append(f.fault().sequence()).append(" | ").append(cell(f.fault().label())).append(" | ")
                    .append(or(v.hazelcastMergeAfterHeal(), "none logged")).append(" | ")
                    .append(or(v.mergedAfterHeal(), "never")).append(" | ").append(or(v.agreedAfterHeal(), "not settled")).append(" | ")
                    .append(afterMerge).append(" | ").append(s(v.disagreeAfterHealMillis())).append(" | ").append(v.rebuildsAfterHeal())
                    .append(" / ").append(v.rebuildsInQuietWindow()).append(" | ").append(admin(f)).append(" | ").append(missed(f))
                    .append(" |\n");
        }
        out.append("\n### By fault\n\n").append(byKind(figures));
        if (figures.stream().anyMatch(f -> f.direct() != null)) {
            out.append("\n### The direct client\n\n");
            out.append("Requests to a member off the rings: those sent from the inject until the followed side's drop plus the client's bound "
                    + "(the failover's attempts), and those sent later, before the member was back (target: none).\n\n");
            out.append("| # | fault | the client followed | the side dropped the others (s after inject) | the client dropped them (s after inject) "
                    + "| requests to them: before the bound / after |\n");
            out.append("|---:|---|---|---:|---:|---|\n");
            for (FaultFigures f : figures) {
                DirectFigures d = f.direct();
                if (d == null) {
                    continue;
                }
                out.append("| ").append(f.fault().sequence()).append(" | ").append(cell(f.fault().label())).append(" | ")
                        .append(d.followed().isEmpty() ? cell(d.examples().get(0)) : FaultPlan.names(d.followed())).append(" | ")
                        .append(or(d.sideDroppedAfterInject(), "never")).append(" | ").append(or(d.clientDroppedAfterInject(), "never"))
                        .append(" | ").append(d.sentBeforeBound()).append(" / ").append(d.sentAfterBound()).append(" |\n");
            }
        }
        return out.toString();
    }

    static String byKind(List<FaultFigures> figures) {
        Map<FaultKind, List<FaultFigures>> groups = figures.stream()
                .collect(Collectors.groupingBy(f -> f.fault().kind(), LinkedHashMap::new, Collectors.toList()));
        StringBuilder out = new StringBuilder();
        out.append("| fault | runs | connected failed / sent | dropped by the others (s) | merge (s after heal) "
                + "| agreed after merge (s) | not settled | acknowledged changes lost | runs meeting every target |\n");
        out.append("|---|---:|---|---|---|---|---:|---|---:|\n");
        for (Map.Entry<FaultKind, List<FaultFigures>> g : groups.entrySet()) {
            List<FaultFigures> runs = g.getValue();
            long failed = runs.stream().mapToLong(f -> f.requests().connected().failed()).sum();
            long sent = runs.stream().mapToLong(f -> f.requests().connected().total()).sum();
            long lost = runs.stream().flatMap(f -> f.admin().stream()).filter(AdminOutcome::lost).count();
            long acknowledged = runs.stream().flatMap(f -> f.admin().stream()).filter(a -> a.change().acknowledged()).count();
            out.append("| ").append(g.getKey().word()).append(" | ").append(runs.size()).append(" | ").append(failed).append(" / ").append(sent)
                    .append(" | ").append(range(runs, f -> f.views().droppedAfterInject().isEmpty() ? null : f.views().droppedAfterInject().get(0)))
                    .append(" | ").append(range(runs, f -> f.views().mergeAfterHeal())).append(" | ")
                    .append(range(runs, f -> f.views().agreedAfterHeal() == null || f.views().mergeAfterHeal() == null ? null
                            : Math.max(0, f.views().agreedAfterHeal() - f.views().mergeAfterHeal())))
                    .append(" | ").append(runs.stream().filter(f -> !f.views().settledAfterHeal()).count()).append(" | ")
                    .append(acknowledged == 0 ? "-" : lost + " of " + acknowledged).append(" | ")
                    .append(runs.stream().filter(FaultFigures::allMet).count()).append(" of ").append(runs.size()).append(" |\n");
        }
        return out.toString();
    }

    /** Least to most of a figure over the runs, in seconds; runs without it are counted apart. */
    static String range(List<FaultFigures> runs, Function<FaultFigures, Long> figure) {
        List<Long> values = runs.stream().map(figure).filter(Objects::nonNull).sorted().toList();
        long missing = runs.size() - values.size();
        if (values.isEmpty()) {
            return "-";
        }
        String least = s(values.get(0));
        String most = s(values.get(values.size() - 1));
        String r = least.equals(most) ? least : least + " to " + most;
        return missing == 0 ? r : r + " (" + missing + " never)";
    }

    /**
     * The purges sent during partitions and what was served of them after each heal; empty when none
     * was sent.
     */
    static String purges(List<PurgeCheck> purges) {
        if (purges.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n### Purges during partitions\n\n"
                + "Each side's first member is sent a purge of keys of its own while the partition lasts; after the heal every key is "
                + "read on every member, and an answer whose `Age` says it was fetched more than " + PurgeCheck.SLACK_MILLIS / 1000
                + " s before the purge is a purged answer served again.\n\n"
                + "| fault | side | member | keys | answer | answers read after the heal | purged answers served after the heal |\n"
                + "|---|---|---|---:|---|---:|---|\n");
        for (PurgeCheck p : purges) {
            md.append("| ").append(p.fault().replace("|", "\\|")).append(" | ").append(p.side()).append(" | m").append(p.member()).append(" | ")
                    .append(p.keys().size()).append(" | ").append(p.status()).append(' ')
                    .append(p.answer().replace("|", "\\|")).append(" | ").append(p.checked()).append(" | ")
                    .append(p.servedPurged().isEmpty() ? "none" : p.servedPurged().size() + ": " + p.servedPurged()).append(" |\n");
        }
        return md.toString();
    }

    static String csvHeader() {
        return "sequence,fault,label,connected_sent,connected_failed,connected_max_ms,cutoff_sent,cutoff_ok,cutoff_fast503,cutoff_hung,"
                + "cutoff_other,cutoff_max_ms,impaired_sent,impaired_failed,served_by_non_owner,bypass,keys_served_by_two,ring_not_ready,"
                + "owners_differ_during_ms,owners_differ_after_ms,dropped_ms,first_ring_change_ms,sides_agree_ms,empty_ring_polls,merges_during,"
                + "hazelcast_merge_ms,rings_whole_ms,agreed_ms,rebuilds_after_heal,rebuilds_quiet,admin_acknowledged,admin_lost,targets_missed";
    }

    static String csvRow(FaultFigures f) {
        RequestFigures r = f.requests();
        ViewFigures v = f.views();
        List<String> cells = new ArrayList<>();
        cells.add(Integer.toString(f.fault().sequence()));
        cells.add(f.fault().kind().word());
        cells.add(f.fault().label());
        for (RequestFigures.Counts c : List.of(r.connected())) {
            cells.add(Long.toString(c.total()));
            cells.add(Long.toString(c.failed()));
            cells.add(Long.toString(c.maxMillis()));
        }
        RequestFigures.Counts c = r.cutOff();
        cells.addAll(List.of(Long.toString(c.total()), Long.toString(c.ok()), Long.toString(c.fast503()), Long.toString(c.hung()),
                Long.toString(c.other()), Long.toString(c.maxMillis())));
        cells.add(Long.toString(r.impaired().total()));
        cells.add(Long.toString(r.impaired().failed()));
        cells.add(Long.toString(r.servedByOther()));
        cells.add(Long.toString(r.bypasses()));
        cells.add(Integer.toString(r.keysServedByTwo()));
        cells.add(Long.toString(r.ringNotReady()));
        cells.add(Long.toString(v.disagreeDuringMillis()));
        cells.add(Long.toString(v.disagreeAfterHealMillis()));
        cells.add(v.droppedAfterInject().stream().map(d -> d == null ? "" : Long.toString(d)).collect(Collectors.joining(" ")));
        cells.add(orEmpty(v.firstRingChangeAfterInject()));
        cells.add(orEmpty(v.settledAfterInject()));
        cells.add(Integer.toString(v.emptyRingPolls()));
        cells.add(Integer.toString(v.mergesDuringFault()));
        cells.add(orEmpty(v.hazelcastMergeAfterHeal()));
        cells.add(orEmpty(v.mergedAfterHeal()));
        cells.add(orEmpty(v.agreedAfterHeal()));
        cells.add(Long.toString(v.rebuildsAfterHeal()));
        cells.add(Long.toString(v.rebuildsInQuietWindow()));
        cells.add(Long.toString(f.admin().stream().filter(a -> a.change().acknowledged()).count()));
        cells.add(Long.toString(f.admin().stream().filter(AdminOutcome::lost).count()));
        cells.add(f.verdicts().stream().filter(x -> !x.met()).map(Verdict::target).collect(Collectors.joining("; ")));
        return cells.stream().map(Report::csvCell).collect(Collectors.joining(","));
    }

    /** One line a fault for the console as the run goes. */
    static String line(FaultFigures f) {
        return String.format(Locale.ROOT, "fault %d %s: connected %d/%d failed, dropped %s, merged %s, agreed %s, rebuilds in quiet %d; %s",
                f.fault().sequence(), f.fault().label(), f.requests().connected().failed(), f.requests().connected().total(), dropped(f),
                or(f.views().mergeAfterHeal(), "never"), or(f.views().agreedAfterHeal(), "not settled"), f.views().rebuildsInQuietWindow(),
                f.allMet() ? "every target met" : "missed: " + missed(f));
    }

    private static String dropped(FaultFigures f) {
        List<Long> d = f.views().droppedAfterInject();
        if (d.isEmpty()) {
            return f.views().firstRingChangeAfterInject() == null ? "no ring change" : "a ring changed at " + s(f.views().firstRingChangeAfterInject());
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < d.size(); i++) {
            parts.add(FaultPlan.names(f.fault().sides().get(i)) + " " + or(d.get(i), "never"));
        }
        return String.join("; ", parts);
    }

    private static String admin(FaultFigures f) {
        if (f.admin().isEmpty()) {
            return "-";
        }
        return f.admin().stream().map(a -> a.change().side() + " m" + a.change().member() + " " + a.change().v2SharePercent() + "%: "
                + (a.change().status() == 0 ? "no answer" : a.change().status())
                + (a.change().problem().isEmpty() ? "" : " " + a.change().problem()) + (a.change().acknowledged() ? " g" + a.change().generation()
                        + (a.survived() ? ", kept" : ", LOST") : ""))
                .collect(Collectors.joining("; "));
    }

    private static String missed(FaultFigures f) {
        String missed = f.verdicts().stream().filter(v -> !v.met()).map(v -> v.target() + " (" + v.detail() + ")")
                .collect(Collectors.joining("; "));
        return missed.isEmpty() ? "none" : missed;
    }

    /** Text for a Markdown table cell: a '|' in it (a split's label) would end the cell. */
    static String cell(String text) {
        return text.replace("|", "\\|");
    }

    static String s(long millis) {
        return String.format(Locale.ROOT, "%.1f", millis / 1000.0);
    }

    private static String ms(long millis) {
        return millis + " ms";
    }

    private static String or(Long millis, String otherwise) {
        return millis == null ? otherwise : s(millis);
    }

    private static String orEmpty(Long value) {
        return value == null ? "" : Long.toString(value);
    }

    private static String csvCell(String text) {
        return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
