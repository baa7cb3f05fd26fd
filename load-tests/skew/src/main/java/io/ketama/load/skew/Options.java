package io.ketama.load.skew;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line options written {@code --name=value}. Every value is checked where it is read, and a
 * bad one stops the program with the option's name, its value and what is allowed.
 */
final class Options {

    private final Map<String, String> values = new LinkedHashMap<>();

    Options(List<String> args, Set<String> known) {
        for (String a : args) {
            if (!a.startsWith("--") || a.indexOf('=') < 3) {
                throw new IllegalArgumentException("options are written --name=value; was '" + a + "'");
            }
            String name = a.substring(2, a.indexOf('='));
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + "; known: --" + String.join(", --", known));
            }
            values.put(name, a.substring(a.indexOf('=') + 1));
        }
    }

    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    String required(String name) {
        String v = values.get(name);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    long whole(String name, long fallback, long min, long max) {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--" + name + " must be a whole number from " + min + " to " + max + ", was '" + v + "'");
    }

    double number(String name, double fallback, double minExclusive, double max) {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            double n = Double.parseDouble(v);
            if (n > minExclusive && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--" + name + " must be a number above " + minExclusive + " and at most " + max
                + ", was '" + v + "'");
    }

    /** A comma-separated list; empty when absent. */
    List<String> list(String name) {
        String v = values.get(name);
        List<String> out = new ArrayList<>();
        if (v != null) {
            for (String s : v.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }

    /** A comma-separated list of {@code key=value} pairs, in order; empty when absent. */
    Map<String, String> pairs(String name) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String item : list(name)) {
            int eq = item.indexOf('=');
            if (eq <= 0 || eq == item.length() - 1) {
                throw new IllegalArgumentException("--" + name + " takes key=value pairs separated by commas; '" + item + "' is not one");
            }
            out.put(item.substring(0, eq), item.substring(eq + 1));
        }
        return out;
    }
}
