package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the direct client did with one fault's departed members: the side of the cluster whose rings
 * it followed, when that side and the client dropped the members outside it, and how many requests
 * the client sent to one of them after the side had dropped it for longer than the client's bound
 * ({@code ClientFollower.BOUND}) and before it was back: before every member's rings held every
 * member again, and, after the heal, before the followed side took it back (the client's rings held
 * it again: they change only as the side's members tell the client). Requests sent to a departed
 * member earlier are the failover's (its attempts before the cluster dropped it) and are counted, not
 * judged.
 *
 * @param followed the side whose members the client's rings held at the heal; empty when they held
 *     no side's exactly
 * @param sideDroppedAfterInject when every member of that side had dropped the others (ms after the
 *     inject), or null when it did not before the heal
 * @param clientDroppedAfterInject when the client's rings first held none of the others, or null
 * @param sentBeforeBound requests sent to a departed member from the inject until the side's drop plus the bound
 * @param sentAfterBound requests sent to a departed member after that, before it was back: the target is none
 * @param examples a few of the latter
 */
record DirectFigures(Set<Integer> followed, Long sideDroppedAfterInject, Long clientDroppedAfterInject, long sentBeforeBound,
        long sentAfterBound, List<String> examples) {

    DirectFigures {
        followed = Set.copyOf(followed);
        examples = List.copyOf(examples);
    }

    /**
     * The figures of window {@code w}, for a fault whose sides' rings are known and change; null for
     * any other (no member is meant to leave the rings).
     *
     * @param views the window's view figures (each side's drop, the merge after the heal)
     * @param attempts every member the client sent a request to, over the run
     * @param samples the client's rings over the run, one sample per change
     * @param boundMillis the client's stated bound
     */
    static DirectFigures of(FaultWindow w, ViewFigures views, List<DirectAttempt> attempts, List<ClientRingSample> samples,
            long boundMillis) {
        Fault f = w.fault();
        if (!f.ringsKnown() || !f.expectsRingChange()) {
            return null;
        }
        ClientRingSample atHeal = null;
        for (ClientRingSample s : samples) {
            if (s.at() <= w.healAt()) {
                atHeal = s;
            }
        }
        int side = -1;
        for (int i = 0; atHeal != null && i < f.sides().size(); i++) {
            if (f.sides().get(i).equals(atHeal.members())) {
                side = i;
            }
        }
        if (side < 0) {
            return new DirectFigures(Set.of(), null, null, 0, 0,
                    List.of("the client's rings held " + (atHeal == null ? "nothing" : FaultPlan.names(atHeal.members()))
                            + " at the heal, no side's members"));
        }
        Set<Integer> followed = f.sides().get(side);
        Long sideDropped = views.droppedAfterInject().get(side);
        Long clientDropped = null;
        for (ClientRingSample s : samples) {
            if (s.at() >= w.injectAt() && s.at() <= w.healAt() && followed.containsAll(s.members())) {
                clientDropped = s.at() - w.injectAt();
                break;
            }
        }
        long boundAt = sideDropped == null ? w.healAt() : w.injectAt() + sideDropped + boundMillis;
        long backAt = views.mergedAfterHeal() == null ? w.endAt() : w.healAt() + views.mergedAfterHeal();
        long before = 0;
        long after = 0;
        List<String> examples = new ArrayList<>();
        for (DirectAttempt a : attempts) {
            if (a.sentAt() < w.injectAt() || a.sentAt() >= backAt || followed.contains(a.member())
                    || a.sentAt() > w.healAt() && ringAt(samples, a.sentAt()).contains(a.member())) {
                continue;
            }
            if (a.sentAt() < boundAt) {
                before++;
            } else {
                after++;
                if (examples.size() < 5) {
                    examples.add("m" + a.member() + " at " + a.sentAt() + " ms");
                }
            }
        }
        return new DirectFigures(new TreeSet<>(followed), sideDropped, clientDropped, before, after, examples);
    }

    /** The members on the client's rings at {@code at}. */
    private static Set<Integer> ringAt(List<ClientRingSample> samples, long at) {
        Set<Integer> ring = Set.of();
        for (ClientRingSample s : samples) {
            if (s.at() > at) {
                break;
            }
            ring = s.members();
        }
        return ring;
    }

    /** The target judged on these figures. */
    Verdict verdict(long boundMillis) {
        String target = "direct client: no request to a member off the rings for longer than " + FaultFigures.seconds(boundMillis);
        if (followed.isEmpty()) {
            return new Verdict(target, false, examples.get(0));
        }
        return new Verdict(target, sentAfterBound == 0,
                sentAfterBound + " sent after, " + sentBeforeBound + " before; it followed " + FaultPlan.names(followed) + ", which dropped the others "
                        + (sideDroppedAfterInject == null ? "not before the heal" : FaultFigures.seconds(sideDroppedAfterInject) + " after the inject")
                        + ", the client " + (clientDroppedAfterInject == null ? "not before the heal"
                                : FaultFigures.seconds(clientDroppedAfterInject) + " after it")
                        + (examples.isEmpty() ? "" : " (" + String.join(", ", examples) + ")"));
    }
}
