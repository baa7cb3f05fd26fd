package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/** Questions about members' views, asked of one poll round or of a run of them. */
final class Views {

    private Views() {
    }

    /** The answering members of {@code group} in {@code round}. */
    static List<MemberView> answering(PollRound round, Set<Integer> group) {
        List<MemberView> out = new ArrayList<>();
        for (int m : group) {
            MemberView v = round.view(m);
            if (v.answered()) {
                out.add(v);
            }
        }
        return out;
    }

    static boolean allAnswered(PollRound round, Set<Integer> group) {
        return answering(round, group).size() == group.size();
    }

    /** Whether the members of {@code group} that answered name the same owner for every key (true when at most one answered). */
    static boolean ownersAgree(PollRound round, Set<Integer> group, List<String> keys) {
        List<MemberView> views = answering(round, group);
        for (int i = 1; i < views.size(); i++) {
            if (!views.get(i).ownersInOrder(keys).equals(views.get(0).ownersInOrder(keys))) {
                return false;
            }
        }
        return true;
    }

    /** Whether every answering member of {@code group} has exactly {@code expected} on its rings. */
    static boolean ringsAre(PollRound round, Set<Integer> group, Set<String> expected) {
        return answering(round, group).stream().allMatch(v -> v.ring().equals(expected));
    }

    /** Whether the answering members of {@code group} have the same rings. */
    static boolean ringsEqual(PollRound round, Set<Integer> group) {
        return answering(round, group).stream().map(MemberView::ring).distinct().count() <= 1;
    }

    static boolean generationsAgree(PollRound round, Set<Integer> group) {
        return answering(round, group).stream().map(MemberView::migrationGeneration).distinct().count() <= 1;
    }

    /** Whether every answering member of {@code group} has left every address outside {@code keep} off its rings. */
    static boolean dropped(PollRound round, Set<Integer> group, Set<String> keep) {
        List<MemberView> views = answering(round, group);
        return !views.isEmpty() && views.stream().allMatch(v -> keep.containsAll(v.ring()));
    }

    /**
     * The rounds in which every member of {@code group} answered. A poll that got no answer in time
     * (on a loaded machine, or from a member that is paused) is no evidence either way: agreement
     * is judged on the rounds that heard every member.
     */
    static List<PollRound> complete(List<PollRound> rounds, Set<Integer> group) {
        return rounds.stream().filter(r -> allAnswered(r, group)).toList();
    }

    /** The rounds at or after {@code from} and before {@code to}. */
    static List<PollRound> between(List<PollRound> rounds, long from, long to) {
        return rounds.stream().filter(r -> r.at() >= from && r.at() < to).toList();
    }

    /** When {@code p} first held among the rounds at or after {@code from} and before {@code to}, or null. */
    static Long first(List<PollRound> rounds, Predicate<PollRound> p, long from, long to) {
        return between(rounds, from, to).stream().filter(p).map(PollRound::at).findFirst().orElse(null);
    }

    /**
     * When {@code p} began to hold without a break up to the last round before {@code to}: the time
     * of the first round of that unbroken run, or null when it does not hold at that last round (or
     * there is none).
     */
    static Long stableFrom(List<PollRound> rounds, Predicate<PollRound> p, long from, long to) {
        List<PollRound> in = between(rounds, from, to);
        Long start = null;
        for (PollRound r : in) {
            if (p.test(r)) {
                if (start == null) {
                    start = r.at();
                }
            } else {
                start = null;
            }
        }
        return start;
    }

    /**
     * How long {@code p} held among the rounds at or after {@code from} and before {@code to}: each
     * round stands for the time until the next one (the last one until {@code to}).
     */
    static long heldMillis(List<PollRound> rounds, Predicate<PollRound> p, long from, long to) {
        List<PollRound> in = between(rounds, from, to);
        long held = 0;
        for (int i = 0; i < in.size(); i++) {
            long until = i + 1 < in.size() ? in.get(i + 1).at() : to;
            if (p.test(in.get(i))) {
                held += until - in.get(i).at();
            }
        }
        return held;
    }

    /**
     * Ring rebuilds of {@code member} seen among the rounds in {@code [from, to)}: the sum of the
     * rises of its rebuild generation between consecutive answers. A fall (the member restarted and
     * counts from zero again) counts its new value.
     */
    static long rebuilds(List<PollRound> rounds, int member, long from, long to) {
        long count = 0;
        Long last = null;
        for (PollRound r : between(rounds, from, to)) {
            MemberView v = r.view(member);
            if (!v.answered()) {
                continue;
            }
            if (last != null) {
                count += v.rebuildGeneration() >= last ? v.rebuildGeneration() - last : v.rebuildGeneration();
            }
            last = v.rebuildGeneration();
        }
        return count;
    }

    /** The members of {@code group} that answered with an empty ring in some round of {@code [from, to)}, and how often. */
    static EmptyRings emptyRings(List<PollRound> rounds, Set<Integer> group, long from, long to) {
        Set<Integer> members = new HashSet<>();
        int polls = 0;
        for (PollRound r : between(rounds, from, to)) {
            for (MemberView v : answering(r, group)) {
                if (v.ring().isEmpty()) {
                    members.add(v.member());
                    polls++;
                }
            }
        }
        return new EmptyRings(polls, Set.copyOf(members));
    }

    /** Answers with an empty ring: how many, and from which members. */
    record EmptyRings(int polls, Set<Integer> members) {
        EmptyRings {
            Objects.requireNonNull(members);
        }
    }
}
