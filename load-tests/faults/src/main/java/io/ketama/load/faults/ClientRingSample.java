package io.ketama.load.faults;

import java.util.Set;

/**
 * The direct client's rings from {@code at} until the next sample: the members on them.
 *
 * @param at milliseconds since the checker started
 * @param members the indexes of the members on the client's rings
 */
record ClientRingSample(long at, Set<Integer> members) {

    ClientRingSample {
        members = Set.copyOf(members);
    }
}
