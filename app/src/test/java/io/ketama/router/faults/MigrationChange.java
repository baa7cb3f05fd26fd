package io.ketama.router.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * A migration change made on one side while a fault lasts, and the state it stored. With the
 * learned quorum (no {@code quarkus.ketama.migration.min-members}: a majority of the members the
 * cluster expects) the member answers 200 once a quorum of members apply it, or 503
 * {@code unconfirmed} when they do not within its wait (on a loaded machine, a member of the same
 * side may be late): either way the change is stored on that side, which is what the
 * fault tests then follow through the heal. A refusal (nothing stored) fails the test.
 *
 * @param status the answer's status
 * @param generation the generation the member applies once it answered
 * @param v2Share the share it applies
 */
record MigrationChange(int status, long generation, double v2Share) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static MigrationChange make(Http http, JarMember at, double share, String token) throws IOException {
        return checked(http, at, share, http.put(at.management() + "/q/ketama/migration", "{\"v2SharePercent\":" + share + "}", token, 30_000));
    }

    private static MigrationChange checked(Http http, JarMember at, double share, Http.Answer answer) throws IOException {
        assertThat(answer).as("an answer to the migration change on %s", at.name()).isNotNull();
        assertThat(answer.status() == 200 || answer.status() == 503 && answer.body().contains("unconfirmed"))
                .as("the change stored: 200, or 503 unconfirmed; was %d %s", answer.status(), answer.body()).isTrue();
        Http.Answer state = http.get(at.management() + "/q/ketama/migration", 5_000);
        assertThat(state).isNotNull();
        var node = JSON.readTree(state.body());
        assertThat(node.path("v2SharePercent").asDouble()).as("the share %s applies after the change", at.name()).isEqualTo(share);
        return new MigrationChange(answer.status(), node.path("generation").asLong(), share);
    }

    /**
     * {@link #make}, asked again every second while the member refuses it for seeing too few
     * members (nothing stored), for at most {@code within}: after a master is lost, the members
     * taking over may be apart for a moment on a machine whose CPU they share with builds (heartbeats
     * arrive late), and merge again within the merge interval.
     */
    static MigrationChange makeOnceEnoughMembers(Http http, JarMember at, double share, String token, java.time.Duration within)
            throws IOException, InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        int refused = 0;
        while (true) {
            Http.Answer answer = http.put(at.management() + "/q/ketama/migration", "{\"v2SharePercent\":" + share + "}", token, 30_000);
            boolean tooFew = answer != null && answer.status() == 503 && answer.body().contains("too-few-members");
            if (!tooFew || System.nanoTime() > end) {
                if (refused > 0) {
                    System.out.printf("MigrationChange: refused %d times for too few members before this answer%n", refused);
                }
                return checked(http, at, share, answer);
            }
            refused++;
            Thread.sleep(1_000);
        }
    }

    /** Whether every member applies this change: its generation and its share. */
    boolean appliedBy(java.util.List<MemberState> states) {
        return states.stream().allMatch(s -> s.answered() && s.generation() == generation && s.v2Share() == v2Share);
    }
}
