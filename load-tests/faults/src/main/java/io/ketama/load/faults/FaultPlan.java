package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a fault's kind into the commands and expectations of one {@link Fault}. The member a fault
 * hits moves with its place in the run ({@code sequence}), so three rounds of a schedule hit
 * different members rather than the same one three times.
 *
 * @param members how many members the cluster has (1..members)
 * @param holdSeconds how long a partition, a slow member or a dead one lasts
 * @param pauseSeconds how long a SIGSTOP lasts
 * @param blipSeconds how long a blip lasts (meant to be shorter than the failure timeout)
 * @param slowPercent the CPU a slow member gets, per cent of one CPU
 */
public record FaultPlan(int members, int holdSeconds, int pauseSeconds, int blipSeconds, int slowPercent) {

    public FaultPlan {
        if (members < 3) {
            throw new IllegalArgumentException("the faults need at least 3 members, was " + members);
        }
    }

    /** The majority of the cluster: more than half of its members. */
    public int majority() {
        return members / 2 + 1;
    }

    public Fault fault(FaultKind kind, int sequence) {
        int target = (sequence - 1) % members + 1;
        Set<Integer> all = range(1, members);
        switch (kind) {
            case ISOLATE:
            case BLIP: {
                Set<Integer> rest = without(all, Set.of(target));
                List<String> cut = new ArrayList<>();
                for (int other : rest) {
                    cut.add(pair(target, other));
                }
                boolean blip = kind == FaultKind.BLIP;
                return new Fault(kind, sequence, kind.word() + " m" + target,
                        blip ? List.of(all) : List.of(rest, Set.of(target)), true,
                        Set.of(target), Set.of(),
                        List.of("cut " + String.join(" ", cut)), List.of("mend"),
                        (blip ? blipSeconds : holdSeconds) * 1000L, !blip, !blip);
            }
            case SPLIT: {
                Set<Integer> minority = new LinkedHashSet<>();
                for (int i = 0; i < members - majority(); i++) {
                    minority.add((target - 1 + i) % members + 1);
                }
                Set<Integer> majoritySide = without(all, minority);
                List<String> cut = new ArrayList<>();
                for (int a : majoritySide) {
                    for (int b : minority) {
                        cut.add(pair(a, b));
                    }
                }
                return new Fault(kind, sequence, "split " + names(majoritySide) + " | " + names(minority),
                        List.of(majoritySide, minority), true, minority, Set.of(),
                        List.of("cut " + String.join(" ", cut)), List.of("mend"), holdSeconds * 1000L, true, true);
            }
            case PARTIAL: {
                int other = target % members + 1;
                return new Fault(kind, sequence, "partial m" + target + " x m" + other, List.of(all), false, Set.of(), Set.of(),
                        List.of("cut " + pair(target, other)), List.of("mend"), holdSeconds * 1000L, false, true);
            }
            case PAUSE:
                return new Fault(kind, sequence, "pause m" + target + " " + pauseSeconds + " s",
                        List.of(without(all, Set.of(target))), true, Set.of(), Set.of(target),
                        List.of("pause " + target), List.of("resume " + target), pauseSeconds * 1000L, false, true);
            case SLOW:
                return new Fault(kind, sequence, "slow m" + target + " " + slowPercent + " % CPU", List.of(all), false, Set.of(),
                        Set.of(target), List.of("slow " + target + " " + slowPercent), List.of("unslow " + target),
                        holdSeconds * 1000L, false, false);
            case KILL:
                return new Fault(kind, sequence, "kill -9 m" + target, List.of(without(all, Set.of(target))), true, Set.of(),
                        Set.of(target), List.of("kill " + target), List.of("start " + target), holdSeconds * 1000L, false, true);
            default:
                throw new IllegalArgumentException("no plan for " + kind);
        }
    }

    private static String pair(int a, int b) {
        return a + ":" + b;
    }

    private static Set<Integer> range(int from, int to) {
        Set<Integer> s = new TreeSet<>();
        for (int i = from; i <= to; i++) {
            s.add(i);
        }
        return s;
    }

    private static Set<Integer> without(Set<Integer> all, Set<Integer> some) {
        Set<Integer> s = new TreeSet<>(all);
        s.removeAll(some);
        return s;
    }

    static String names(Set<Integer> members) {
        StringBuilder out = new StringBuilder();
        for (int m : new TreeSet<>(members)) {
            out.append(out.length() == 0 ? "" : ",").append('m').append(m);
        }
        return out.toString();
    }
}
