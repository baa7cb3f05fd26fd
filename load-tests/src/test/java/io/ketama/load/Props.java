package io.ketama.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Typed reads of the {@code load.*} system properties that parameterise the simulations. A value
 * that is missing takes its default; a value that is malformed or out of range stops the run with
 * a message naming the property, what it was and what is allowed.
 */
final class Props {

    private final Properties source;

    Props(Properties source) {
        this.source = source;
    }

    static Props system() {
        return new Props(System.getProperties());
    }

    int intIn(String name, int defaultValue, int min, int max) {
        String raw = raw(name);
        if (raw == null) {
            return defaultValue;
        }
        int value;
        try {
            value = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw invalid(name, raw, "an integer from " + min + " to " + max);
        }
        if (value < min || value > max) {
            throw invalid(name, raw, "an integer from " + min + " to " + max);
        }
        return value;
    }

    double doubleIn(String name, double defaultValue, double minExclusive, double max) {
        String raw = raw(name);
        if (raw == null) {
            return defaultValue;
        }
        double value;
        try {
            value = Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw invalid(name, raw, "a number above " + minExclusive + " and at most " + max);
        }
        if (!(value > minExclusive && value <= max)) {
            throw invalid(name, raw, "a number above " + minExclusive + " and at most " + max);
        }
        return value;
    }

    long longValue(String name, long defaultValue) {
        String raw = raw(name);
        if (raw == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw invalid(name, raw, "a 64-bit integer");
        }
    }

    String required(String name) {
        String raw = raw(name);
        if (raw == null) {
            throw new IllegalArgumentException("system property " + name + " is required (pass -D" + name + "=...)");
        }
        return raw;
    }

    String optional(String name) {
        return raw(name);
    }

    /**
     * A comma-separated list of integers, each within {@code [min, max]}; parsed from
     * {@code defaultValue} when the property is absent or blank.
     */
    List<Integer> intList(String name, String defaultValue, int min, int max) {
        String raw = raw(name);
        String text = raw == null ? defaultValue : raw;
        List<Integer> values = new ArrayList<>();
        for (String part : text.split(",")) {
            String item = part.trim();
            if (item.isEmpty()) {
                continue;
            }
            int value;
            try {
                value = Integer.parseInt(item);
            } catch (NumberFormatException e) {
                throw invalid(name, text, "a comma-separated list of integers from " + min + " to " + max);
            }
            if (value < min || value > max) {
                throw invalid(name, text, "a comma-separated list of integers from " + min + " to " + max);
            }
            values.add(value);
        }
        return List.copyOf(values);
    }

    private String raw(String name) {
        String value = source.getProperty(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static IllegalArgumentException invalid(String name, String raw, String allowed) {
        return new IllegalArgumentException("system property " + name + "='" + raw + "' is invalid; allowed: " + allowed);
    }
}
