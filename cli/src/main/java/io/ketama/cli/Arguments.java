package io.ketama.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name value} options of one command, each at most once. The word {@code --against}
 * (diff only) splits the arguments into the options of the first ring and those of the second.
 */
final class Arguments {

    private final String command;
    private final Map<String, String> values;

    private Arguments(String command, Map<String, String> values) {
        this.command = command;
        this.values = values;
    }

    /**
     * Parses {@code args} as {@code --name value} pairs whose names are in {@code allowed}.
     *
     * @throws CliException on an unknown or repeated option, a stray word, or a missing value
     */
    static Arguments parse(String command, List<String> args, Set<String> allowed) throws CliException {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String name = args.get(i);
            if (!allowed.contains(name)) {
                String what = name.startsWith("--") ? "unknown option '" + name + "'" : "unexpected argument '" + name + "'";
                throw new CliException(what + " for " + command + "; allowed: " + String.join(", ", allowed));
            }
            if (i + 1 >= args.size()) {
                throw new CliException("option " + name + " needs a value");
            }
            if (values.put(name, args.get(++i)) != null) {
                throw new CliException("option " + name + " is given twice");
            }
        }
        return new Arguments(command, values);
    }

    String get(String name) {
        return values.get(name);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    String required(String name) throws CliException {
        String v = values.get(name);
        if (v == null) {
            throw new CliException(command + " needs " + name + " FILE");
        }
        return v;
    }

    /** An integer option from {@code min} to {@code max}, or {@code fallback} when absent. */
    int intValue(String name, int min, int max, int fallback) throws CliException {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, with the allowed range
        }
        throw new CliException("option " + name + " must be an integer from " + min + " to " + max + ", was '" + v + "'");
    }
}
