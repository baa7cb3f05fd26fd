package io.ketama.load.faults;

import java.util.List;

/**
 * Whether a migration change sent during a partition is the cluster's state at the end of the
 * fault's window: every member that answered applies its share at its generation or a later one.
 *
 * @param change the change and its answer
 * @param survived whether it is the cluster's state at the end (a refused change never is)
 * @param finalState what the members applied at the end ({@code m1 g5 10.0%, ...})
 */
public record AdminOutcome(AdminChange change, boolean survived, String finalState) {

    /** An acknowledged (200) change that is not the cluster's state at the end. */
    public boolean lost() {
        return change.acknowledged() && !survived;
    }

    static AdminOutcome of(AdminChange change, PollRound last) {
        List<MemberView> views = last == null ? List.of() : last.views().values().stream().filter(MemberView::answered).toList();
        StringBuilder state = new StringBuilder();
        boolean survived = change.acknowledged() && !views.isEmpty();
        for (MemberView v : views) {
            state.append(state.length() == 0 ? "" : ", ").append('m').append(v.member()).append(" g").append(v.migrationGeneration())
                    .append(' ').append(v.v2SharePercent()).append('%');
            survived &= v.v2SharePercent() == change.v2SharePercent() && v.migrationGeneration() >= change.generation();
        }
        return new AdminOutcome(change, survived, views.isEmpty() ? "no member answered" : state.toString());
    }
}
