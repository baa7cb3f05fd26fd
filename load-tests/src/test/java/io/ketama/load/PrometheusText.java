package io.ketama.load;

import java.util.List;

/**
 * Reads counters out of a Prometheus text exposition ({@code /q/metrics}). Micrometer appends
 * {@code _total} to counters, so a name matches with or without that suffix; every labelled
 * series of the name is summed (one counter per ring version or per member adds up to the whole).
 */
final class PrometheusText {

    private PrometheusText() {
    }

    /**
     * The sum of every sample of {@code name} (or {@code name_total}); NaN when the text has none,
     * so a renamed or missing meter shows up as "n/a" rather than as a silent zero.
     */
    static double sum(String exposition, String name) {
        double total = 0;
        boolean found = false;
        for (String line : exposition.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int nameEnd = nameEnd(l);
            String sampleName = l.substring(0, nameEnd);
            if (!sampleName.equals(name) && !sampleName.equals(name + "_total")) {
                continue;
            }
            String rest = l.substring(nameEnd);
            if (rest.startsWith("{")) {
                int close = closingBrace(rest);
                if (close < 0) {
                    continue;   // a malformed label set: skip the line rather than guess
                }
                rest = rest.substring(close + 1);
            }
            String[] parts = rest.strip().split("\\s+");
            if (parts.length == 0 || parts[0].isEmpty()) {
                continue;
            }
            double value;
            try {
                value = Double.parseDouble(parts[0]);
            } catch (NumberFormatException e) {
                continue;
            }
            if (!Double.isNaN(value)) {
                total += value;
                found = true;
            }
        }
        return found ? total : Double.NaN;
    }

    /** The sum of the first of {@code names} that the text has, NaN when it has none of them. */
    static double sumFirstPresent(String exposition, List<String> names) {
        for (String name : names) {
            double v = sum(exposition, name);
            if (!Double.isNaN(v)) {
                return v;
            }
        }
        return Double.NaN;
    }

    private static int nameEnd(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '{' || Character.isWhitespace(c)) {
                return i;
            }
        }
        return line.length();
    }

    /** Index of the brace closing the label set, skipping braces inside quoted label values. */
    private static int closingBrace(String labels) {
        boolean quoted = false;
        for (int i = 1; i < labels.length(); i++) {
            char c = labels.charAt(i);
            if (c == '\\' && quoted) {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == '}' && !quoted) {
                return i;
            }
        }
        return -1;
    }
}
