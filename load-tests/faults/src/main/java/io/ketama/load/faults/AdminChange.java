package io.ketama.load.faults;

/**
 * A change of the cluster's migration state sent to one member during a partition
 * ({@code PUT /q/ketama/migration} with the admin token), and what it was answered.
 *
 * @param member where it was sent
 * @param side {@code majority} or {@code minority}
 * @param sentAt milliseconds since the checker started
 * @param v2SharePercent the share it asked for (distinct per change, so the survivor is known)
 * @param status the HTTP status (0: no answer)
 * @param generation the generation the answer names (a 200 does), or -1
 * @param answer the answer's body, shortened
 * @param belowQuorum whether the side it was sent to has fewer members than a change needs (the learned quorum, or
 *     {@code min-members} when set): such a side must acknowledge nothing
 */
public record AdminChange(int member, String side, long sentAt, double v2SharePercent, int status, long generation, String answer,
        boolean belowQuorum) {

    /** A change sent to a side that is not known to be below the quorum. */
    public AdminChange(int member, String side, long sentAt, double v2SharePercent, int status, long generation, String answer) {
        this(member, side, sentAt, v2SharePercent, status, generation, answer, false);
    }

    /** This change, sent to a side of {@code sideMembers} members when a change needs {@code quorum}. */
    public AdminChange onSide(int sideMembers, int quorum) {
        return new AdminChange(member, side, sentAt, v2SharePercent, status, generation, answer, sideMembers < quorum);
    }

    public boolean acknowledged() {
        return status == 200;
    }

    /** The problem a refusal names ({@code too-few-members}, {@code unconfirmed}, ...) when its answer names one, else "". */
    public String problem() {
        if (acknowledged() || answer == null) {
            return "";
        }
        for (String p : new String[] {"too-few-members", "unconfirmed"}) {
            if (answer.contains(p)) {
                return p;
            }
        }
        return "";
    }
}
