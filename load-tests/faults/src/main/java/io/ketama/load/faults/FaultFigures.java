package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything measured about one fault, and the targets judged on it.
 *
 * @param window when it was injected, healed and watched until
 * @param requests what the clients saw
 * @param views what the members' own views said
 * @param admin the migration changes sent during it and whether each survived
 * @param verdicts the targets that apply to this fault, met or not
 * @param direct what the direct client did with the departed members, when the load went through it
 *     and members were meant to leave the rings; else null
 */
public record FaultFigures(FaultWindow window, RequestFigures requests, ViewFigures views, List<AdminOutcome> admin,
        List<Verdict> verdicts, DirectFigures direct) {

    public FaultFigures {
        admin = List.copyOf(admin);
        verdicts = List.copyOf(verdicts);
    }

    public Fault fault() {
        return window.fault();
    }

    public boolean allMet() {
        return verdicts.stream().allMatch(Verdict::met);
    }

    /** The figures of one fault's window, from every request and poll round of the run. */
    public static FaultFigures analyze(FaultWindow w, List<RequestRecord> requests, List<PollRound> rounds,
            Map<Integer, String> addresses, List<String> keys, Bounds bounds, List<Long> mergeTimes) {
        ViewFigures vf = ViewFigures.of(w, rounds, addresses, keys, bounds.quiet(), mergeTimes);
        // a cut-off or impaired member is judged as such until every ring holds it again
        long classesEnd = vf.mergedAfterHeal() == null ? w.endAt() + 1 : w.healAt() + vf.mergedAfterHeal();
        RequestFigures rf = RequestFigures.of(w.fault(), requests, w.injectAt(), classesEnd, w.endAt() + 1, bounds.fastRefusal());
        PollRound last = rounds.stream().filter(r -> r.at() <= w.endAt()).reduce((a, b) -> b).orElse(null);
        List<AdminOutcome> admin = w.changes().stream().map(c -> AdminOutcome.of(c, last)).toList();
        return new FaultFigures(w, rf, vf, admin, judge(w.fault(), rf, vf, admin, bounds), null);
    }

    /** These figures with the direct client's, and its target judged ({@code d} null: as they are). */
    FaultFigures withDirect(DirectFigures d, long boundMillis) {
        if (d == null) {
            return this;
        }
        List<Verdict> more = new ArrayList<>(verdicts);
        more.add(d.verdict(boundMillis));
        return new FaultFigures(window, requests, views, admin, more, d);
    }

    static List<Verdict> judge(Fault f, RequestFigures rf, ViewFigures vf, List<AdminOutcome> admin, Bounds b) {
        List<Verdict> out = new ArrayList<>();
        out.add(new Verdict(rf.direct() ? "0 failed through the direct client" : "0 failed entering on connected members", rf.connected().failed() == 0,
                rf.connected().failed() + " of " + rf.connected().total() + " failed" + (rf.connected().failed() == 0 ? ""
                        : " (" + rf.connectedFailuresText(3) + ")") + ", slowest " + rf.connected().maxMillis() + " ms"));
        if (rf.cutOff().total() > 0) {
            RequestFigures.Counts c = rf.cutOff();
            out.add(new Verdict("cut-off member: served or fast 503, never a hang", c.hung() == 0 && c.other() == 0,
                    c.ok() + " served, " + c.fast503() + " fast 503, " + c.hung() + " no answer, " + c.other() + " other, of " + c.total()
                            + ", slowest " + c.maxMillis() + " ms"));
        }
        out.add(new Verdict("never an empty ring", vf.emptyRingPolls() == 0,
                vf.emptyRingPolls() + " polls with an empty ring" + (vf.emptyRingMembers().isEmpty() ? "" : " " + vf.emptyRingMembers())));
        if (f.ringsKnown() && f.expectsRingChange()) {
            for (int i = 0; i < f.sides().size(); i++) {
                Long d = vf.droppedAfterInject().get(i);
                boolean cutOffSide = f.cutOff().containsAll(f.sides().get(i));
                long bound = cutOffSide ? b.cutOffDetection() : b.detection();
                String target = cutOffSide ? "the cut-off " + FaultPlan.names(f.sides().get(i)) + " drops the members it cannot reach in time"
                        : "unreachable members leave " + FaultPlan.names(f.sides().get(i)) + "'s rings in time";
                out.add(new Verdict(target, d != null && d <= bound, (d == null ? "not before the heal" : seconds(d)) + ", bound " + seconds(bound)));
            }
        }
        if (f.kind() == FaultKind.BLIP) {
            out.add(new Verdict("a blip changes no ring", vf.firstRingChangeAfterInject() == null,
                    vf.firstRingChangeAfterInject() == null ? "no ring changed"
                            : "a ring changed " + seconds(vf.firstRingChangeAfterInject()) + " after the inject"));
        }
        Long merged = vf.mergeAfterHeal();
        if (f.expectsRingChange() && f.kind() != FaultKind.KILL) {
            out.add(new Verdict("merged within the bound", merged != null && merged <= b.merge(),
                    (merged == null ? "not merged" : seconds(merged)) + " after the heal, bound " + seconds(b.merge())));
        }
        Long agreed = vf.agreedAfterHeal();
        out.add(new Verdict("every member agrees on owners and generation within 10 s of the merge",
                merged != null && agreed != null && agreed - merged <= b.agreeAfterMerge(),
                agreed == null ? "no lasting agreement (" + (merged == null ? "never merged" : "merged at " + seconds(merged)) + ")"
                        : "agreed " + seconds(agreed) + " after the heal, " + seconds(Math.max(0, agreed - merged)) + " after the merge"));
        out.add(new Verdict("no rebuild loop", vf.settledAfterHeal() && vf.rebuildsInQuietWindow() == 0,
                vf.rebuildsInQuietWindow() + " rebuilds in the last " + seconds(b.quiet()) + ", " + vf.rebuildsAfterHeal()
                        + " after the heal"));
        if (!admin.isEmpty()) {
            long lost = admin.stream().filter(AdminOutcome::lost).count();
            out.add(new Verdict("no acknowledged change lost", lost == 0,
                    lost + " of " + admin.stream().filter(a -> a.change().acknowledged()).count() + " acknowledged changes lost"));
            List<AdminChange> below = admin.stream().map(AdminOutcome::change).filter(AdminChange::belowQuorum).toList();
            if (!below.isEmpty()) {
                long acknowledged = below.stream().filter(AdminChange::acknowledged).count();
                out.add(new Verdict("a side below the quorum acknowledges no change", acknowledged == 0,
                        acknowledged + " of " + below.size() + " changes sent to a side below the quorum answered 200"));
            }
        }
        return out;
    }

    static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
