package io.ketama.load.faults;

import java.util.List;
import java.util.Set;

/**
 * One fault of the schedule: what is injected, what heals it, and what the cluster should look like
 * meanwhile, which the analysis judges it by.
 *
 * @param kind the fault
 * @param sequence its place in the run, from 1
 * @param label what it does in a few words ({@code isolate m3})
 * @param sides the groups of members that can reach each other while it lasts (a member in none
 *     of them, paused or dead, is not expected to answer); with {@code ringsKnown} each side's rings
 *     should come to hold exactly its own members
 * @param ringsKnown whether {@code sides} say what the rings should hold during the fault (false
 *     where Hazelcast decides: a partial partition, a slow member)
 * @param cutOff members that cannot reach the majority: their own requests are judged by the
 *     cut-off target (served or a fast 503, never a hang), not by "0 failed"
 * @param impaired members whose own requests are not judged at all: a paused, dead or starved
 *     process cannot answer, whatever the cluster does
 * @param inject commands for faults.sh that make the fault
 * @param heal commands that end it
 * @param holdMillis how long it lasts
 * @param adminChanges whether a migration change is sent to each side while it lasts (partitions)
 * @param expectsRingChange whether members are expected to leave the rings (a blip must not make any)
 */
public record Fault(FaultKind kind, int sequence, String label, List<Set<Integer>> sides, boolean ringsKnown,
        Set<Integer> cutOff, Set<Integer> impaired, List<String> inject, List<String> heal, long holdMillis,
        boolean adminChanges, boolean expectsRingChange) {

    public Fault {
        sides = sides.stream().map(Set::copyOf).toList();
        cutOff = Set.copyOf(cutOff);
        impaired = Set.copyOf(impaired);
        inject = List.copyOf(inject);
        heal = List.copyOf(heal);
    }

    /** The side {@code member} is on, or an empty set when it is on none (paused, dead). */
    public Set<Integer> sideOf(int member) {
        return sides.stream().filter(s -> s.contains(member)).findFirst().orElse(Set.of());
    }

    /** Whether requests entering on {@code member} must all succeed: it is neither cut off nor impaired. */
    public boolean connected(int member) {
        return !cutOff.contains(member) && !impaired.contains(member);
    }
}
