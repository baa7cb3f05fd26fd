package io.ketama.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** Multi-document YAML in and out, as plain maps and lists. */
final class Yamls {
    private Yamls() {
    }

    private static Yaml yaml() {
        LoaderOptions loader = new LoaderOptions();
        loader.setAllowDuplicateKeys(false);
        DumperOptions dumper = new DumperOptions();
        dumper.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        dumper.setIndicatorIndent(0);
        dumper.setWidth(200);
        return new Yaml(loader, dumper);
    }

    /** Every non-empty document of {@code text}; each must be a mapping. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> loadAll(String text, String origin) {
        List<Map<String, Object>> docs = new ArrayList<>();
        int n = 0;
        try {
            for (Object doc : yaml().loadAll(text)) {
                n++;
                if (doc == null) {
                    continue;
                }
                if (!(doc instanceof Map)) {
                    throw new IllegalArgumentException(origin + ": document " + n + " is not a YAML mapping");
                }
                docs.add((Map<String, Object>) doc);
            }
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalArgumentException(origin + ": invalid YAML: " + e.getMessage(), e);
        }
        return docs;
    }

    static List<Map<String, Object>> loadAll(Path file) {
        try {
            return loadAll(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Every document of {@code text} as loaded (null for an empty one); a YAML error throws. */
    static List<Object> loadAllDocuments(String text) {
        List<Object> docs = new ArrayList<>();
        for (Object doc : yaml().loadAll(text)) {
            docs.add(doc);
        }
        return docs;
    }

    static String dumpAll(List<Map<String, Object>> docs) {
        return yaml().dumpAll(docs.iterator());
    }
}
