package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.ServingState;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * What one member says about itself on the {@link MemberBoard}: its serving state, the migration
 * generation it applies, and which members (by UUID) its rings contain. Stored as text
 * ({@link #encode()}), so reading it deserializes no Java object.
 *
 * @param state               serving state
 * @param migrationGeneration the generation of the {@link MigrationState} the member applies
 * @param ringMembers         the members on its current rings
 */
record MemberStatus(ServingState state, long migrationGeneration, Set<UUID> ringMembers) {

    private static final String FORMAT = "1";

    MemberStatus {
        Objects.requireNonNull(state, "state");
        ringMembers = Set.copyOf(ringMembers);
    }

    MemberStatus withState(ServingState s) {
        return new MemberStatus(s, migrationGeneration, ringMembers);
    }

    MemberStatus withGeneration(long g) {
        return new MemberStatus(state, g, ringMembers);
    }

    MemberStatus withRingMembers(Set<UUID> members) {
        return new MemberStatus(state, migrationGeneration, members);
    }

    /** {@code 1|STATE|generation|uuid,uuid,...} */
    String encode() {
        List<String> ids = new ArrayList<>(ringMembers.size());
        for (UUID id : ringMembers) {
            ids.add(id.toString());
        }
        ids.sort(null);
        return FORMAT + '|' + state.name() + '|' + migrationGeneration + '|' + String.join(",", ids);
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    static MemberStatus decode(String text) {
        String[] f = text.split("\\|", -1);
        if (f.length != 4 || !FORMAT.equals(f[0])) {
            throw new IllegalArgumentException("not a format-" + FORMAT + " member status: '"
                    + (text.length() > 100 ? text.substring(0, 100) + "…" : text) + "'");
        }
        ServingState state = ServingState.valueOf(f[1]);
        long generation = Long.parseLong(f[2]);
        Set<UUID> ids = new LinkedHashSet<>();
        if (!f[3].isEmpty()) {
            for (String id : f[3].split(",")) {
                ids.add(UUID.fromString(id));
            }
        }
        return new MemberStatus(state, generation, ids);
    }
}
