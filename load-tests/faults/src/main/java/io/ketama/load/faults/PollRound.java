package io.ketama.load.faults;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every member's view at one moment: one round of polls, all sent at {@code at}.
 *
 * @param at milliseconds since the checker started
 * @param views each member's view by index (every member polled, answered or not)
 */
public record PollRound(long at, Map<Integer, MemberView> views) {

    public PollRound {
        views = Collections.unmodifiableMap(new TreeMap<>(views)); // in member order, for reports
    }

    public MemberView view(int member) {
        MemberView v = views.get(member);
        return v != null ? v : MemberView.silent(member, "not polled");
    }
}
