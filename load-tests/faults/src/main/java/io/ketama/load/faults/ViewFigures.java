package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What the members' own views (the polls) say about one fault. Times are milliseconds after the
 * inject ({@code …AfterInject}) or after the heal ({@code …AfterHeal}); null means it did not happen
 * within the window.
 *
 * @param droppedAfterInject for each side of a fault that should split the rings, when every
 *     member of that side had dropped every member outside it from its rings (in {@link Fault#sides()} order)
 * @param firstRingChangeAfterInject when some member's rings first held other than all members
 * @param settledAfterInject when each side's members began to agree on owners (and, where known,
 *     on holding exactly their side) without a break until the heal
 * @param disagreeDuringMillis how long, before the heal, members that answered named different
 *     owners for some sample key: two sides serving one key from two owners
 * @param disagreeAfterHealMillis the same after the heal
 * @param emptyRingPolls answers with an empty ring, from the inject to the end
 * @param emptyRingMembers the members that gave them
 * @param mergesDuringFault merge lines Hazelcast logged between the inject and the heal (a member
 *     removed and taken back while the fault lasts, as a partial partition can make)
 * @param hazelcastMergeAfterHeal when Hazelcast last logged a merge ({@link MergeLog}) after the
 *     heal, or null when it logged none
 * @param mergedAfterHeal when every member first answered with every member on its rings
 * @param agreedAfterHeal when every member began to answer with every member on its rings, the
 *     same owners and the same migration generation without a break to the end, judged on the
 *     rounds that heard every member; null unless the rounds that heard every member show it for
 *     the quiet period (not settled)
 * @param rebuildsAfterHeal ring rebuilds of all members from the heal to the end
 * @param rebuildsInQuietWindow ring rebuilds of all members in the last quiet period of the window:
 *     more than none is a rebuild loop
 */
public record ViewFigures(List<Long> droppedAfterInject, Long firstRingChangeAfterInject, Long settledAfterInject,
        long disagreeDuringMillis, long disagreeAfterHealMillis, int emptyRingPolls, Set<Integer> emptyRingMembers,
        int mergesDuringFault, Long hazelcastMergeAfterHeal, Long mergedAfterHeal, Long agreedAfterHeal, long rebuildsAfterHeal, long rebuildsInQuietWindow) {

    public ViewFigures {
        droppedAfterInject = java.util.Collections.unmodifiableList(new ArrayList<>(droppedAfterInject));
        emptyRingMembers = Set.copyOf(emptyRingMembers);
    }

    /**
     * The moment the sides were one cluster again: Hazelcast's own merge where it logged one, else
     * the first poll in which every member's rings held every member (a restarted or resumed member
     * that Hazelcast took back without a merge).
     */
    public Long mergeAfterHeal() {
        return hazelcastMergeAfterHeal != null ? hazelcastMergeAfterHeal : mergedAfterHeal;
    }

    /** Whether the window ended with every member agreeing for the quiet period. */
    public boolean settledAfterHeal() {
        return agreedAfterHeal != null;
    }

    /**
     * The figures of window {@code w}.
     *
     * @param mergeTimes when Hazelcast logged merges, in the checker's milliseconds
     */
    static ViewFigures of(FaultWindow w, List<PollRound> rounds, Map<Integer, String> addresses, List<String> keys, long quietMillis,
            List<Long> mergeTimes) {
        Fault f = w.fault();
        Set<Integer> all = new TreeSet<>(addresses.keySet());
        Set<String> allAddresses = addressesOf(all, addresses);
        long inject = w.injectAt();
        long heal = w.healAt();
        long end = w.endAt() + 1; // the round that ended the window belongs to it

        List<Long> dropped = new ArrayList<>();
        if (f.ringsKnown() && f.expectsRingChange()) {
            for (Set<Integer> side : f.sides()) {
                Set<String> keep = addressesOf(side, addresses);
                dropped.add(since(inject, Views.first(rounds, r -> Views.dropped(r, side, keep), inject, heal)));
            }
        }
        Long ringChange = since(inject, Views.first(rounds, r -> !Views.ringsAre(r, all, allAddresses), inject, end));
        Predicate<PollRound> sidesAgree = r -> {
            for (Set<Integer> side : f.sides()) {
                if (!Views.ownersAgree(r, side, keys)) {
                    return false;
                }
                if (f.ringsKnown() ? !Views.ringsAre(r, side, addressesOf(side, addresses)) : !Views.ringsEqual(r, side)) {
                    return false;
                }
            }
            return true;
        };
        Long settled = since(inject, Views.stableFrom(rounds, sidesAgree, inject, heal));
        Predicate<PollRound> disagree = r -> !Views.ownersAgree(r, all, keys);
        long disagreeDuring = Views.heldMillis(rounds, disagree, inject, heal);
        long disagreeAfter = Views.heldMillis(rounds, disagree, heal, end);
        Views.EmptyRings empty = Views.emptyRings(rounds, all, inject, end);

        Predicate<PollRound> whole = r -> Views.allAnswered(r, all) && Views.ringsAre(r, all, allAddresses);
        Long merged = since(heal, Views.first(rounds, whole, heal, end));
        Long hazelcastMerge = since(heal, MergeLog.lastBetween(mergeTimes, heal, w.endAt()));
        Predicate<PollRound> agreed = whole.and(r -> Views.ownersAgree(r, all, keys) && Views.generationsAgree(r, all));
        List<PollRound> complete = Views.between(Views.complete(rounds, all), heal, end);
        Long agreedFrom = Views.stableFrom(complete, agreed, heal, end);
        long lastHeard = complete.isEmpty() ? Long.MIN_VALUE : complete.get(complete.size() - 1).at();
        Long agreedAfter = agreedFrom != null && lastHeard - agreedFrom >= quietMillis ? agreedFrom - heal : null;

        long rebuilds = 0;
        long quietRebuilds = 0;
        for (int m : all) {
            rebuilds += Views.rebuilds(rounds, m, heal, end);
            quietRebuilds += Views.rebuilds(rounds, m, Math.max(heal, w.endAt() - quietMillis), end);
        }
        int mergesDuring = (int) mergeTimes.stream().filter(t -> t >= inject && t < heal).count();
        return new ViewFigures(dropped, ringChange, settled, disagreeDuring, disagreeAfter, empty.polls(), empty.members(), mergesDuring,
                hazelcastMerge, merged, agreedAfter, rebuilds, quietRebuilds);
    }

    static Set<String> addressesOf(Set<Integer> members, Map<Integer, String> addresses) {
        Set<String> out = new TreeSet<>();
        for (int m : members) {
            out.add(addresses.get(m));
        }
        return out;
    }

    private static Long since(long start, Long at) {
        return at == null ? null : Math.max(0, at - start);
    }
}
