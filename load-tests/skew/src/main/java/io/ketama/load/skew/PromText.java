package io.ketama.load.skew;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sums of meters in Prometheus text exposition ({@code /q/metrics}): for each meter name asked
 * for, the sum of every series of that name whatever its labels ({@code ketama_spills_total{member="a"} 3}
 * and {@code …{member="b"} 4} sum to 7). Comments, other meters and values that are not numbers
 * ({@code NaN}) are left out; a meter not exposed sums to 0.
 */
final class PromText {

    private PromText() {
    }

    static Map<String, Double> sums(String text, Collection<String> meters) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String m : meters) {
            out.put(m, 0.0);
        }
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            int end = brace >= 0 && (space < 0 || brace < space) ? brace : space;
            if (end <= 0) {
                continue;
            }
            String name = line.substring(0, end);
            if (!out.containsKey(name)) {
                continue;
            }
            int valueStart = brace >= 0 && brace == end ? line.indexOf('}', brace) + 1 : end;
            if (valueStart <= 0) {
                continue;
            }
            String[] rest = line.substring(valueStart).trim().split("\\s+");
            try {
                double v = Double.parseDouble(rest[0]);
                if (!Double.isNaN(v)) {
                    out.merge(name, v, Double::sum);
                }
            } catch (NumberFormatException e) {
                // not a sample line
            }
        }
        return out;
    }
}
