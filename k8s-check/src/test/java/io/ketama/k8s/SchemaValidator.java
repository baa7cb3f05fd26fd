package io.ketama.k8s;

import com.google.gson.annotations.SerializedName;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Offline validation of Kubernetes objects against the Kubernetes API's own schema, in Java: the
 * model classes the official Kubernetes Java client generates from the API server's OpenAPI
 * document ({@code io.kubernetes:client-java-api}) carry, for every object type, its field names,
 * its required fields and each field's type. An object passes when every field it sets is one its
 * type defines, every required field is there, and every value has its field's type (a string
 * where a string is expected: the API server refuses {@code value: 2} for an env var, so this does
 * too), with quantities in the Kubernetes quantity grammar.
 *
 * <p>Output, one line per object: {@code OK <file> <apiVersion> <kind>/<name>}, or one
 * {@code INVALID <file> doc <n> <apiVersion> <kind>/<name>: <path> <message>} line per error; a
 * document that is no YAML gives {@code ERROR <file> doc <n>: YAML: ...}; a last line
 * {@code SUMMARY objects=.. invalid=.. errors=..}.
 */
final class SchemaValidator {

    private static final SchemaValidator INSTANCE = new SchemaValidator();

    /**
     * The API group of each kind this check knows (its version picks the model class): the kinds a
     * manifest of this repository may use. A kind outside it, or under another group, has no schema
     * here and fails the check.
     */
    private static final Map<String, String> GROUPS = groups(
            "", "Pod Service ConfigMap Secret ServiceAccount Namespace PersistentVolumeClaim Endpoints LimitRange ResourceQuota",
            "apps", "Deployment StatefulSet DaemonSet ReplicaSet",
            "policy", "PodDisruptionBudget",
            "networking.k8s.io", "NetworkPolicy Ingress IngressClass",
            "rbac.authorization.k8s.io", "Role RoleBinding ClusterRole ClusterRoleBinding",
            "autoscaling", "HorizontalPodAutoscaler",
            "batch", "Job CronJob",
            "coordination.k8s.io", "Lease",
            "discovery.k8s.io", "EndpointSlice",
            "scheduling.k8s.io", "PriorityClass");
    private static final String MODELS = "io.kubernetes.client.openapi.models.";
    private static final Pattern VERSION = Pattern.compile("v[0-9]+((alpha|beta)[0-9]+)?");
    /** Kubernetes' quantity grammar: a signed decimal number, then a binary-SI, decimal-SI or exponent suffix. */
    private static final Pattern QUANTITY = Pattern.compile(
            "[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");

    private final Map<Class<?>, Schema> schemas = new ConcurrentHashMap<>();

    record Result(int exitCode, String output) {
        boolean valid() {
            return exitCode == 0;
        }
    }

    /** One model type: its fields by JSON name, and the names it requires. */
    private record Schema(Map<String, Field> fields, Set<String> required) {
    }

    private SchemaValidator() {
    }

    static SchemaValidator get() {
        return INSTANCE;
    }

    /** Validates every object of the given multi-document YAML files. */
    Result validate(List<Path> files) {
        List<String> out = new ArrayList<>();
        int objects = 0;
        int invalid = 0;
        int bad = 0;
        for (Path file : files) {
            List<Object> docs;
            try {
                docs = Yamls.loadAllDocuments(Files.readString(file));
            } catch (IOException e) {
                out.add("ERROR " + file + ": cannot read: " + e.getMessage());
                bad++;
                continue;
            } catch (RuntimeException e) {
                out.add("ERROR " + file + " doc ?: YAML: " + e.getMessage().lines().findFirst().orElse(""));
                bad++;
                continue;
            }
            int n = 0;
            for (Object doc : docs) {
                n++;
                if (doc == null) {
                    continue; // an empty document
                }
                if (!(doc instanceof Map<?, ?> obj)) {
                    out.add("INVALID " + file + " doc " + n + ": not a Kubernetes object (a YAML mapping)");
                    invalid++;
                    continue;
                }
                objects++;
                String label = obj.get("apiVersion") + " " + obj.get("kind") + "/" + K8s.str(obj, "metadata", "name");
                List<String> errors = errors(obj);
                if (errors.isEmpty()) {
                    out.add("OK " + file + " " + label);
                } else {
                    invalid++;
                    for (String e : errors) {
                        out.add("INVALID " + file + " doc " + n + " " + label + ": " + e);
                    }
                }
            }
        }
        out.add("SUMMARY objects=" + objects + " invalid=" + invalid + " errors=" + bad);
        return new Result(bad > 0 ? 2 : invalid > 0 ? 1 : 0, String.join("\n", out) + "\n");
    }

    /** Writes {@code objects} to {@code file} (for the record in target/) and validates them. */
    Result validate(List<Map<String, Object>> objects, Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, Yamls.dumpAll(objects));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return validate(List.of(file));
    }

    /** Every schema error of one object, each as {@code <path> <message>}. */
    List<String> errors(Map<?, ?> obj) {
        List<String> errors = new ArrayList<>();
        Object name = K8s.at(obj, "metadata", "name");
        if (!(name instanceof String s) || s.isEmpty()) {
            errors.add("/metadata/name must be a non-empty string");
        }
        Class<?> model = modelOf(obj.get("apiVersion"), obj.get("kind"));
        if (model == null) {
            errors.add("/ no schema for apiVersion " + quoted(obj.get("apiVersion")) + " kind " + quoted(obj.get("kind"))
                    + " (unknown or misspelt)");
        } else {
            check(obj, model, "", errors);
        }
        return errors;
    }

    private static String quoted(Object o) {
        return o instanceof String s ? "\"" + s + "\"" : String.valueOf(o);
    }

    /** The model class of {@code apiVersion}/{@code kind}, or null when this check knows no such type. */
    private static Class<?> modelOf(Object apiVersion, Object kind) {
        if (!(apiVersion instanceof String av) || !(kind instanceof String k)) {
            return null;
        }
        int slash = av.lastIndexOf('/');
        String group = slash < 0 ? "" : av.substring(0, slash);
        String version = av.substring(slash + 1);
        if (!group.equals(GROUPS.get(k)) || !VERSION.matcher(version).matches()) {
            return null;
        }
        try {
            return Class.forName(MODELS + "V" + version.substring(1) + k);
        } catch (ClassNotFoundException e) {
            return null; // the group has no such version of the kind
        }
    }

    private void check(Object value, Type type, String path, List<String> errors) {
        String where = path.isEmpty() ? "/" : path;
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            if (List.class.isAssignableFrom(raw)) {
                if (!(value instanceof List<?> list)) {
                    errors.add(where + " must be array");
                    return;
                }
                for (int i = 0; i < list.size(); i++) {
                    check(list.get(i), p.getActualTypeArguments()[0], path + "/" + i, errors);
                }
            } else if (Map.class.isAssignableFrom(raw)) {
                if (!(value instanceof Map<?, ?> map)) {
                    errors.add(where + " must be object");
                    return;
                }
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    check(e.getValue(), p.getActualTypeArguments()[1], path + "/" + e.getKey(), errors);
                }
            }
            return;
        }
        Class<?> c = (Class<?>) type;
        if (value == null) {
            return; // null means unset, as the API server reads it
        }
        String problem = scalarProblem(value, c);
        if (problem != null) {
            errors.add(where + " " + problem);
        } else if (c.getName().startsWith(MODELS)) {
            if (!(value instanceof Map<?, ?> obj)) {
                errors.add(where + " must be object");
                return;
            }
            Schema schema = schemaOf(c);
            for (String required : schema.required()) {
                if (!obj.containsKey(required)) {
                    errors.add(where + " must have required property " + required);
                }
            }
            for (Map.Entry<?, ?> e : obj.entrySet()) {
                Field field = schema.fields().get(String.valueOf(e.getKey()));
                if (field == null) {
                    errors.add(where + " must NOT have additional properties: " + e.getKey() + " is no field of "
                            + c.getSimpleName().replaceFirst("^V[0-9a-z]+", ""));
                } else {
                    check(e.getValue(), field.getGenericType(), path + "/" + e.getKey(), errors);
                }
            }
        }
    }

    /** What is wrong with {@code value} as a {@code c}, or null (also for model types, checked by the caller). */
    private static String scalarProblem(Object value, Class<?> c) {
        if (c == String.class) {
            return value instanceof String ? null : "must be string";
        }
        if (c == Integer.class || c == Long.class) {
            return value instanceof Integer || value instanceof Long || value instanceof BigInteger ? null : "must be integer";
        }
        if (c == Double.class || c == Float.class || c == BigDecimal.class) {
            return value instanceof Number ? null : "must be number";
        }
        if (c == Boolean.class) {
            return value instanceof Boolean ? null : "must be boolean";
        }
        if (c == OffsetDateTime.class || c == byte[].class) {
            return value instanceof String ? null : "must be string";
        }
        return switch (c.getName()) {
            case "io.kubernetes.client.custom.Quantity" ->
                    (value instanceof String || value instanceof Number) && QUANTITY.matcher(value.toString()).matches()
                            ? null : "must match format \"quantity\"";
            case "io.kubernetes.client.custom.IntOrString" ->
                    value instanceof String || value instanceof Integer ? null : "must be integer or string";
            default -> null;
        };
    }

    private Schema schemaOf(Class<?> model) {
        return schemas.computeIfAbsent(model, SchemaValidator::readSchema);
    }

    /** Reads a model's fields (by their JSON names) and required names from the generated class. */
    @SuppressWarnings("unchecked")
    private static Schema readSchema(Class<?> model) {
        Map<String, Field> fields = new HashMap<>();
        for (Field f : model.getDeclaredFields()) {
            SerializedName json = f.getAnnotation(SerializedName.class);
            if (json != null && !Modifier.isStatic(f.getModifiers())) {
                fields.put(json.value(), f);
            }
        }
        try {
            Set<String> required = (Set<String>) model.getField("openapiRequiredFields").get(null);
            return new Schema(Map.copyOf(fields), Set.copyOf(required));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(model + " has no openapiRequiredFields: not a generated Kubernetes model?", e);
        }
    }

    private static Map<String, String> groups(String... groupAndKinds) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < groupAndKinds.length; i += 2) {
            for (String kind : groupAndKinds[i + 1].split(" ")) {
                out.put(kind, groupAndKinds[i]);
            }
        }
        return Map.copyOf(out);
    }
}
