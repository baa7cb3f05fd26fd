package io.ketama.quarkus.runtime;

import io.ketama.core.EnumLabels;
import io.ketama.quarkus.MigrationSettings;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A change of the migration settings as an admin sends it: a JSON object with any of {@code mode},
 * {@code v2SharePercent} and {@code shadow}; a field left out keeps its current value.
 */
final class MigrationChange {

    static final Set<String> FIELDS = new TreeSet<>(Set.of("mode", "v2SharePercent", "shadow"));
    static final String ALLOWED = "a JSON object with any of: mode (\"v1\", \"v2\" or \"split\"), "
            + "v2SharePercent (a number from 0 to 100, decimals allowed), shadow (true or false); fields left out keep their value";

    private final JsonObject fields;

    private MigrationChange(JsonObject fields) {
        this.fields = fields;
    }

    /**
     * Parses a request body.
     *
     * @throws IllegalArgumentException saying what is wrong and what is allowed
     */
    static MigrationChange parse(String body) {
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("the body is empty; expected " + ALLOWED);
        }
        Object value;
        try {
            value = Json.decodeValue(body);
        } catch (DecodeException e) {
            throw new IllegalArgumentException("the body is not JSON; expected " + ALLOWED);
        }
        if (!(value instanceof JsonObject object)) {
            throw new IllegalArgumentException("the body is JSON but not an object; expected " + ALLOWED);
        }
        for (String name : object.fieldNames()) {
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field \"" + shorten(name) + "\"; expected " + ALLOWED);
            }
        }
        return new MigrationChange(object);
    }

    /**
     * {@code current} with the fields of this change.
     *
     * @throws IllegalArgumentException naming the field, its value and what is allowed
     */
    MigrationSettings applyTo(MigrationSettings current) {
        MigrationSettings.Mode mode = current.mode();
        double share = current.v2SharePercent();
        boolean shadow = current.shadow();
        Map<String, Object> map = fields.getMap();
        if (map.containsKey("mode")) {
            mode = mode(map.get("mode"));
        }
        if (map.containsKey("v2SharePercent")) {
            Object p = map.get("v2SharePercent");
            if (!(p instanceof Number n) || !(n.doubleValue() >= 0 && n.doubleValue() <= 100)) {
                throw new IllegalArgumentException("v2SharePercent must be a number from 0 to 100 (decimals allowed), was "
                        + shorten(Json.encode(p)));
            }
            share = n.doubleValue();
        }
        if (map.containsKey("shadow")) {
            Object s = map.get("shadow");
            if (!(s instanceof Boolean b)) {
                throw new IllegalArgumentException("shadow must be true or false, was " + shorten(Json.encode(s)));
            }
            shadow = b;
        }
        return new MigrationSettings(mode, share, shadow);
    }

    /** The mode a JSON value names, by {@link EnumLabels}; the error shows at most 80 characters of what was sent. */
    private static MigrationSettings.Mode mode(Object value) {
        if (value instanceof String text) {
            try {
                return EnumLabels.parse(MigrationSettings.Mode.class, text, "mode");
            } catch (IllegalArgumentException unknown) {
                // said below, with the value shortened
            }
        }
        throw new IllegalArgumentException("mode must be one of " + EnumLabels.allowed(MigrationSettings.Mode.class) + ", was "
                + shorten(Json.encode(value)));
    }

    private static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }
}
