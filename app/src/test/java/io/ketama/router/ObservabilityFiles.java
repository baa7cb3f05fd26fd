package io.ketama.router;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/** The repository's dashboard, rules and documented PromQL, read from the source tree (the app module's parent). */
final class ObservabilityFiles {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    static final Path DIR = REPO.resolve("k8s/observability");
    static final Path DASHBOARD = DIR.resolve("ketama-router-dashboard.json");
    static final Path RULES = DIR.resolve("ketama-rules.yaml");
    /** Markdown files whose ```promql blocks are checked, one expression a line. */
    static final List<Path> DOCS = List.of(REPO.resolve("README.md"), REPO.resolve("app/README.md"), REPO.resolve("runtime/README.md"),
            REPO.resolve("k8s/README.md"), DIR.resolve("README.md"));

    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");
    private static final Pattern PROMQL_BLOCK = Pattern.compile("```promql\\n(.*?)```", Pattern.DOTALL);

    private ObservabilityFiles() {
    }

    /** Every expression, by where it is written ("dashboard: panel 'x'", "README.md line 3 of a promql block", ...). */
    static Map<String, String> expressions() {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode dashboard = json(DASHBOARD);
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                out.put("dashboard panel '" + panel.path("title").asText() + "' " + target.path("refId").asText(),
                        target.path("expr").asText());
            }
        }
        for (Map<String, Object> rule : rules()) {
            out.put("rules " + (rule.containsKey("alert") ? "alert " + rule.get("alert") : "record " + rule.get("record")),
                    String.valueOf(rule.get("expr")));
        }
        for (Path doc : DOCS) {
            if (!Files.exists(doc)) {
                continue;
            }
            Matcher m = PROMQL_BLOCK.matcher(read(doc));
            int block = 0;
            while (m.find()) {
                block++;
                String[] lines = m.group(1).split("\n");
                for (int i = 0; i < lines.length; i++) {
                    if (!lines[i].isBlank() && !lines[i].strip().startsWith("#")) {
                        out.put(REPO.relativize(doc) + " promql block " + block + " line " + (i + 1), lines[i]);
                    }
                }
            }
        }
        return out;
    }

    /** The metrics the dashboard's variables list label values of. */
    static List<String> variableMetrics() {
        List<String> out = new ArrayList<>();
        for (JsonNode variable : json(DASHBOARD).path("templating").path("list")) {
            Matcher m = LABEL_VALUES.matcher(variable.path("definition").asText());
            if (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** Every rule of every group of the rules file. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> rules() {
        Map<String, Object> file = new Yaml().load(read(RULES));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            out.addAll((List<Map<String, Object>>) group.get("rules"));
        }
        return out;
    }

    static JsonNode json(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
