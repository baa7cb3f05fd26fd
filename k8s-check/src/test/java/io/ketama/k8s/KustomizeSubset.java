package io.ketama.k8s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A renderer for the small subset of kustomize that k8s/ uses, for machines without kubectl.
 *
 * <p>Supported: {@code resources} (files, and directories holding a kustomization), {@code replicas},
 * and {@code patches} given by {@code path} or inline {@code patch} as strategic merge patches matched
 * to their target by apiVersion, kind and name. Strategic merge follows Kubernetes' patch merge keys for
 * the lists a workload uses (containers and env by name, container ports by containerPort, ...); every
 * other list is replaced, a null value deletes a key. Anything else in a kustomization (generators,
 * name prefixes, label transformers, patch targets, JSON 6902 patches, {@code $patch} directives) is
 * refused with a message, never silently ignored: the test that compares this renderer with kubectl
 * keeps the two honest. One known difference errs on the strict side: kustomize keeps the style of the
 * value a patch replaces (an unquoted {@code value: 10} patched over a quoted env value comes out as
 * "10"); this renderer keeps the patch's value as written, which the schema check then refuses.
 */
final class KustomizeSubset implements Renderer {
    static final Set<String> SUPPORTED_FIELDS = Set.of("apiVersion", "kind", "resources", "replicas", "patches");
    private static final Set<String> SCALABLE_KINDS = Set.of("Deployment", "StatefulSet", "ReplicaSet",
            "ReplicationController");
    /** Kubernetes' patchMergeKey of the list fields a workload uses ("ports" is decided by its elements). */
    private static final Map<String, String> MERGE_KEYS = Map.of(
            "containers", "name",
            "initContainers", "name",
            "ephemeralContainers", "name",
            "env", "name",
            "volumes", "name",
            "volumeMounts", "mountPath",
            "volumeDevices", "devicePath",
            "imagePullSecrets", "name",
            "hostAliases", "ip",
            "topologySpreadConstraints", "topologyKey");

    @Override
    public String name() {
        return "built-in kustomize subset";
    }

    @Override
    public List<Map<String, Object>> render(Path dir) {
        return render(dir.toAbsolutePath().normalize(), new LinkedHashSet<>());
    }

    private List<Map<String, Object>> render(Path dir, Set<Path> visiting) {
        if (!visiting.add(dir)) {
            throw new IllegalArgumentException("kustomization cycle through " + dir);
        }
        Path file = kustomizationFile(dir);
        List<Map<String, Object>> docs = Yamls.loadAll(file);
        if (docs.size() != 1) {
            throw new IllegalArgumentException(file + ": expected one YAML document, found " + docs.size());
        }
        Map<String, Object> k = docs.get(0);
        for (String field : k.keySet()) {
            if (!SUPPORTED_FIELDS.contains(field)) {
                throw new IllegalArgumentException(file + ": field '" + field + "' is outside the kustomize subset"
                        + " the offline renderer supports " + SUPPORTED_FIELDS + "; keep overlays simple or extend "
                        + KustomizeSubset.class.getSimpleName());
            }
        }
        expectIfPresent(k, "apiVersion", "kustomize.config.k8s.io/v1beta1", file);
        expectIfPresent(k, "kind", "Kustomization", file);

        List<Map<String, Object>> objects = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        for (Object entry : list(k.get("resources"), "resources", file)) {
            if (!(entry instanceof String ref) || ref.isBlank()) {
                throw new IllegalArgumentException(file + ": resources entries must be paths, found " + entry);
            }
            if (ref.contains("://") || ref.startsWith("github.com/")) {
                throw new IllegalArgumentException(file + ": remote resource " + ref + " is not supported offline");
            }
            Path target = dir.resolve(ref).normalize();
            List<Map<String, Object>> loaded;
            if (Files.isDirectory(target)) {
                loaded = render(target, visiting);
            } else if (Files.isRegularFile(target)) {
                loaded = Yamls.loadAll(target);
            } else {
                throw new IllegalArgumentException(file + ": resource " + ref + " not found (" + target + ")");
            }
            for (Map<String, Object> obj : loaded) {
                String id = id(obj, target);
                if (!ids.add(id)) {
                    throw new IllegalArgumentException(file + ": " + id + " is defined twice (again in " + ref + ")");
                }
                objects.add(obj);
            }
        }

        for (Object entry : list(k.get("patches"), "patches", file)) {
            if (!(entry instanceof Map<?, ?> p)) {
                throw new IllegalArgumentException(file + ": patches entries must be mappings, found " + entry);
            }
            for (Object key : p.keySet()) {
                if (!"path".equals(key) && !"patch".equals(key)) {
                    throw new IllegalArgumentException(file + ": patches field '" + key + "' is not supported by the"
                            + " offline renderer (only path or patch, matched by apiVersion, kind and name)");
                }
            }
            List<Map<String, Object>> patchDocs;
            String origin;
            if (p.get("path") instanceof String path && p.get("patch") == null) {
                Path patchFile = dir.resolve(path).normalize();
                origin = patchFile.toString();
                patchDocs = Yamls.loadAll(patchFile);
            } else if (p.get("patch") instanceof String inline && p.get("path") == null) {
                origin = file + " (inline patch)";
                patchDocs = Yamls.loadAll(inline, origin);
            } else {
                throw new IllegalArgumentException(file + ": each patch needs exactly one of path or patch: " + p);
            }
            for (Map<String, Object> patch : patchDocs) {
                applyPatch(objects, patch, origin);
            }
        }

        for (Object entry : list(k.get("replicas"), "replicas", file)) {
            if (!(entry instanceof Map<?, ?> r) || !(r.get("name") instanceof String name)
                    || !(r.get("count") instanceof Integer count) || count < 0 || r.size() != 2) {
                throw new IllegalArgumentException(file + ": replicas entries need exactly a name and a count >= 0: "
                        + entry);
            }
            int hits = 0;
            for (Map<String, Object> obj : objects) {
                if (SCALABLE_KINDS.contains(obj.get("kind")) && name.equals(metadata(obj).get("name"))) {
                    map(obj, "spec").put("replicas", count);
                    hits++;
                }
            }
            if (hits == 0) {
                throw new IllegalArgumentException(file + ": replicas names " + name + ", which no workload has");
            }
        }
        visiting.remove(dir);
        return objects;
    }

    private static Path kustomizationFile(Path dir) {
        for (String name : List.of("kustomization.yaml", "kustomization.yml", "Kustomization")) {
            Path f = dir.resolve(name);
            if (Files.isRegularFile(f)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no kustomization.yaml in " + dir);
    }

    private static void applyPatch(List<Map<String, Object>> objects, Map<String, Object> patch, String origin) {
        Map<String, Object> meta = metadata(patch);
        if (patch.get("apiVersion") == null || patch.get("kind") == null || meta.get("name") == null) {
            throw new IllegalArgumentException(origin + ": a strategic merge patch needs apiVersion, kind and"
                    + " metadata.name (JSON 6902 patches and patch targets are not supported offline)");
        }
        Map<String, Object> target = null;
        for (Map<String, Object> obj : objects) {
            if (Objects.equals(obj.get("apiVersion"), patch.get("apiVersion"))
                    && Objects.equals(obj.get("kind"), patch.get("kind"))
                    && Objects.equals(metadata(obj).get("name"), meta.get("name"))
                    && Objects.equals(metadata(obj).get("namespace"), meta.get("namespace"))) {
                target = obj;
            }
        }
        if (target == null) {
            throw new IllegalArgumentException(origin + ": patch target " + patch.get("apiVersion") + " "
                    + patch.get("kind") + "/" + meta.get("name") + " not found among the resources");
        }
        merge(target, patch, origin, "");
    }

    /** Strategic merge of {@code patch} into {@code target}, in place. */
    @SuppressWarnings("unchecked")
    static void merge(Map<String, Object> target, Map<String, Object> patch, String origin, String path) {
        for (Map.Entry<String, Object> e : patch.entrySet()) {
            String key = e.getKey();
            String at = path + "/" + key;
            Object value = e.getValue();
            if (key.startsWith("$")) {
                throw new IllegalArgumentException(origin + ": directive " + key + " at " + path
                        + " is not supported by the offline renderer");
            }
            Object current = target.get(key);
            if (value == null) {
                target.remove(key);
            } else if (value instanceof Map<?, ?> pm && current instanceof Map<?, ?> cm) {
                merge((Map<String, Object>) cm, (Map<String, Object>) pm, origin, at);
            } else if (value instanceof List<?> pl && current instanceof List<?> cl && mergeKey(key, cl, pl) != null) {
                target.put(key, mergeList((List<Object>) cl, (List<Object>) pl, mergeKey(key, cl, pl), origin, at));
            } else {
                target.put(key, copy(value));
            }
        }
    }

    private static String mergeKey(String field, List<?> current, List<?> patch) {
        if ("ports".equals(field)) {
            boolean containerPorts = current.stream().anyMatch(o -> o instanceof Map<?, ?> m
                    && m.containsKey("containerPort"));
            return containerPorts ? "containerPort" : "port";
        }
        return MERGE_KEYS.get(field);
    }

    /**
     * Merges two lists by {@code key} in kustomize's order: the patch's elements first, in patch order
     * (each merged into its namesake), then the target's elements the patch did not name.
     */
    @SuppressWarnings("unchecked")
    private static List<Object> mergeList(List<Object> current, List<Object> patch, String key, String origin,
            String path) {
        List<Object> result = new ArrayList<>();
        List<Object> rest = new ArrayList<>(current);
        for (Object p : patch) {
            if (!(p instanceof Map<?, ?> pm) || pm.get(key) == null) {
                throw new IllegalArgumentException(origin + ": every element of " + path + " needs its merge key "
                        + key + ": " + p);
            }
            Map<String, Object> match = null;
            for (Object c : rest) {
                if (c instanceof Map<?, ?> cm && Objects.equals(cm.get(key), pm.get(key))) {
                    match = (Map<String, Object>) cm;
                    break;
                }
            }
            if (match != null) {
                rest.remove(match);
                merge(match, (Map<String, Object>) pm, origin, path + "[" + key + "=" + pm.get(key) + "]");
                result.add(match);
            } else {
                result.add(copy(p));
            }
        }
        result.addAll(rest);
        return result;
    }

    @SuppressWarnings("unchecked")
    private static Object copy(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put((String) k, copy(v)));
            return out;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(v -> out.add(copy(v)));
            return out;
        }
        return value;
    }

    private static String id(Map<String, Object> obj, Path origin) {
        Object apiVersion = obj.get("apiVersion");
        Object kind = obj.get("kind");
        Object name = metadata(obj).get("name");
        if (apiVersion == null || kind == null || name == null) {
            // kustomize refuses such a document too; the schema check would name it less clearly
            throw new IllegalArgumentException(origin + ": every resource needs apiVersion, kind and metadata.name,"
                    + " found apiVersion=" + apiVersion + " kind=" + kind + " name=" + name);
        }
        String group = apiVersion.toString().contains("/") ? apiVersion.toString().split("/")[0] : "";
        Object ns = metadata(obj).get("namespace");
        return group + " " + kind + "/" + (ns == null ? "" : ns + "/") + name;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata(Map<String, Object> obj) {
        return obj.get("metadata") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> obj, String key) {
        return (Map<String, Object>) obj.computeIfAbsent(key, x -> new LinkedHashMap<String, Object>());
    }

    private static List<?> list(Object value, String field, Path file) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> l)) {
            throw new IllegalArgumentException(file + ": " + field + " must be a list");
        }
        return l;
    }

    private static void expectIfPresent(Map<String, Object> k, String field, String expected, Path file) {
        Object actual = k.get(field);
        if (actual != null && !expected.equals(actual)) {
            throw new IllegalArgumentException(file + ": " + field + " must be " + expected + ", found " + actual);
        }
    }
}
