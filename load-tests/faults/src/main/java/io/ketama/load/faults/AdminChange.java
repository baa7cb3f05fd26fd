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
 */
public record AdminChange(int member, String side, long sentAt, double v2SharePercent, int status, long generation, String answer) {

    public boolean acknowledged() {
        return status == 200;
    }
}
