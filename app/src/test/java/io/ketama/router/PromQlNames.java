package io.ketama.router;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads. Strings, label matchers ({@code {...}}), range and
 * subquery brackets, and the label lists of {@code by}/{@code without}/{@code on}/{@code ignoring}/
 * {@code group_left}/{@code group_right} are taken out first; of the identifiers left, those
 * that are not a PromQL function, aggregation, keyword or a Grafana variable are metric names,
 * recording rules ({@code ketama:...}) included. Enough for the expressions of this repository,
 * not a full PromQL parser.
 */
final class PromQlNames {

    private static final Set<String> WORDS = Set.of(
            // aggregations and keywords
            "sum", "min", "max", "avg", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "group",
            "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "offset", "bool", "inf", "nan",
            // functions this repository uses or may
            "rate", "irate", "increase", "delta", "idelta", "deriv", "scalar", "vector", "abs", "absent", "absent_over_time",
            "clamp", "clamp_min", "clamp_max", "histogram_quantile", "label_replace", "label_join", "time", "timestamp",
            "sum_over_time", "avg_over_time", "max_over_time", "min_over_time", "count_over_time", "changes", "resets",
            "round", "ceil", "floor", "sort", "sort_desc", "label_values", "query_result", "predict_linear");

    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w$.:])[a-zA-Z_:][a-zA-Z0-9_:]*");

    private PromQlNames() {
    }

    /** The metric names {@code expression} reads. */
    static Set<String> of(String expression) {
        String e = expression.replaceAll("(?m)#.*$", " ");
        e = STRINGS.matcher(e).replaceAll("\"\"");
        e = e.replaceAll("\\{[^}]*}", " ");
        e = e.replaceAll("\\[[^\\]]*]", " ");
        e = GROUPING.matcher(e).replaceAll(" ");
        e = e.replaceAll("\\$\\w+", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(e);
        while (m.find()) {
            String word = m.group();
            if (!WORDS.contains(word.toLowerCase(java.util.Locale.ROOT)) && !word.matches("\\d.*")) {
                names.add(word);
            }
        }
        return names;
    }
}
