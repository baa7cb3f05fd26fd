package io.ketama.quarkus.runtime;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The members the cluster expects, by ring identity (node id, else address), each with the moment
 * it was first seen missing from the cluster, or none while it is there: the value
 * {@link ClusterRoster} keeps in the cluster. Immutable; every change makes a new value.
 *
 * <p>Stored as text (never a Java object), one member a line after a version line:
 * <pre>
 * expected-members 1
 * 10.0.0.1%3A5701
 * 10.0.0.3%3A5701 1733479200000
 * </pre>
 * each identity URL-encoded (so a node id holding blanks or line breaks stays one field), followed,
 * when the member is missing, by the epoch milliseconds since when.
 *
 * @param members each expected member's identity, and since when it is missing (null: it is there)
 */
record ExpectedMembers(SortedMap<String, Instant> members) {

    static final ExpectedMembers NONE = new ExpectedMembers(new TreeMap<>());
    private static final String HEADER = "expected-members 1";

    ExpectedMembers {
        TreeMap<String, Instant> copy = new TreeMap<>();
        for (Map.Entry<String, Instant> e : members.entrySet()) {
            copy.put(Objects.requireNonNull(e.getKey(), "identity"), e.getValue());
        }
        members = Collections.unmodifiableSortedMap(copy);
    }

    /** How many members the cluster expects: {@code E}. */
    int size() {
        return members.size();
    }

    boolean contains(String identity) {
        return members.containsKey(identity);
    }

    /** How many of the expected members are among {@code present} (identities in the cluster now). */
    int seen(Collection<String> present) {
        int n = 0;
        for (String id : Set.copyOf(present)) {
            if (members.containsKey(id)) {
                n++;
            }
        }
        return n;
    }

    /** The members missing now, with since when. */
    SortedMap<String, Instant> absent() {
        TreeMap<String, Instant> out = new TreeMap<>();
        members.forEach((id, since) -> {
            if (since != null) {
                out.put(id, since);
            }
        });
        return out;
    }

    /** With {@code identity} expected and there (a member that joined, or came back). */
    ExpectedMembers with(String identity) {
        if (members.containsKey(identity) && members.get(identity) == null) {
            return this;
        }
        TreeMap<String, Instant> next = new TreeMap<>(members);
        next.put(identity, null);
        return new ExpectedMembers(next);
    }

    /** Without {@code identity} (a member that stopped gracefully, or that an operator removed). */
    ExpectedMembers without(String identity) {
        if (!members.containsKey(identity)) {
            return this;
        }
        TreeMap<String, Instant> next = new TreeMap<>(members);
        next.remove(identity);
        return new ExpectedMembers(next);
    }

    /**
     * As seen by the oldest member at {@code now}: members among {@code present} are there, the
     * others missing since the moment first noted (or {@code now}), and those missing for longer than
     * {@code forgetAfter} no longer expected.
     */
    ExpectedMembers observed(Collection<String> present, Instant now, Duration forgetAfter) {
        Set<String> here = Set.copyOf(present);
        TreeMap<String, Instant> next = new TreeMap<>();
        members.forEach((id, since) -> {
            if (here.contains(id)) {
                next.put(id, null);
            } else {
                Instant missing = since == null ? now : since;
                if (Duration.between(missing, now).compareTo(forgetAfter) <= 0) {
                    next.put(id, missing);
                }
            }
        });
        ExpectedMembers out = new ExpectedMembers(next);
        return out.equals(this) ? this : out;
    }

    /** The members forgotten by {@link #observed}: in this value and not in {@code after}. */
    Set<String> forgottenIn(ExpectedMembers after) {
        java.util.TreeSet<String> out = new java.util.TreeSet<>(members.keySet());
        out.removeAll(after.members.keySet());
        return out;
    }

    String encode() {
        StringBuilder out = new StringBuilder(HEADER);
        members.forEach((id, since) -> {
            out.append('\n').append(URLEncoder.encode(id, StandardCharsets.UTF_8));
            if (since != null) {
                out.append(' ').append(since.toEpochMilli());
            }
        });
        return out.toString();
    }

    /**
     * @throws IllegalArgumentException when {@code text} is not a value {@link #encode} wrote, saying what is wrong
     */
    static ExpectedMembers decode(String text) {
        String[] lines = text.split("\n", -1);
        if (!lines[0].equals(HEADER)) {
            throw new IllegalArgumentException("the expected members do not start with '" + HEADER + "': '" + lines[0] + "'");
        }
        TreeMap<String, Instant> members = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int blank = line.indexOf(' ');
            String id;
            Instant since = null;
            try {
                id = URLDecoder.decode(blank < 0 ? line : line.substring(0, blank), StandardCharsets.UTF_8);
                if (blank >= 0) {
                    since = Instant.ofEpochMilli(Long.parseLong(line.substring(blank + 1)));
                }
            } catch (IllegalArgumentException e) { // NumberFormatException included
                throw new IllegalArgumentException("line " + (i + 1) + " of the expected members is not 'identity [millis]': '"
                        + line + "'", e);
            }
            if (id.isEmpty()) {
                throw new IllegalArgumentException("line " + (i + 1) + " of the expected members names no member");
            }
            members.put(id, since);
        }
        return new ExpectedMembers(members);
    }
}
