package io.ketama.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** Where things are, and small accessors for rendered objects (plain maps and lists). */
final class K8s {
    private K8s() {
    }

    static Path k8sDir() {
        return Path.of(System.getProperty("ketama.k8s.dir", "../k8s")).toAbsolutePath().normalize();
    }

    static Path fixtures() {
        return Path.of(System.getProperty("ketama.fixtures", "src/test/fixtures")).toAbsolutePath().normalize();
    }

    static Path renderWork() {
        return Path.of(System.getProperty("ketama.render.work", "target/rendered")).toAbsolutePath().normalize();
    }

    /** The overlay directories under k8s/overlays, by name. */
    static List<String> overlays() {
        try (Stream<Path> dirs = Files.list(k8sDir().resolve("overlays"))) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("kustomization.yaml"))).map(d -> d.getFileName()
                    .toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path overlay(String name) {
        return k8sDir().resolve("overlays").resolve(name);
    }

    static String id(Map<String, Object> obj) {
        return obj.get("apiVersion") + " " + obj.get("kind") + "/" + str(obj, "metadata", "name");
    }

    static List<Map<String, Object>> ofKind(List<Map<String, Object>> objects, String kind) {
        return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
    }

    static Optional<Map<String, Object>> find(List<Map<String, Object>> objects, String kind, String name) {
        return ofKind(objects, kind).stream().filter(o -> name.equals(str(o, "metadata", "name"))).findFirst();
    }

    /** The value at {@code path} (map keys), or null when any step is missing. */
    static Object at(Object root, String... path) {
        Object cur = root;
        for (String key : path) {
            if (!(cur instanceof Map<?, ?> m)) {
                return null;
            }
            cur = m.get(key);
        }
        return cur;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object root, String... path) {
        Object v = at(root, path);
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Object root, String... path) {
        Object v = at(root, path);
        return v instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    static String str(Object root, String... path) {
        Object v = at(root, path);
        return v == null ? null : v.toString();
    }

    /** The element of a named list ({@code env}, {@code containers}, ...) with this name. */
    static Optional<Map<String, Object>> named(List<Map<String, Object>> list, String name) {
        return list.stream().filter(e -> name.equals(e.get("name"))).findFirst();
    }

    /** Whether every label of {@code selector} is among {@code labels}. */
    static boolean selects(Map<String, Object> selector, Map<String, Object> labels) {
        return !selector.isEmpty() && labels.entrySet().containsAll(selector.entrySet());
    }
}
