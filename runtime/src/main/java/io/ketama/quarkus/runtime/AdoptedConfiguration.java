package io.ketama.quarkus.runtime;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The configuration the cluster last adopted as its migration state, and the members still to be
 * rolled onto it: kept beside the state in the map {@value ClusterMigration#MAP} (key
 * {@value #KEY}) as JSON text, so no member deserializes a Java object to read it. An admin change
 * or a ramp leaves it as it is: it says what the configuration last asked for, not what applies.
 * The rule that reads it is {@link ConfigurationRollout}.
 *
 * @param configured the configuration adopted
 * @param generation the generation of the migration state that applied it; 0 when it was only
 *                   recorded (the state came from an admin change, or the cluster is new)
 * @param from       the ring identity of the member whose configuration it was
 * @param at         when it was adopted (the clock of that member)
 * @param pending    members (by ring identity) that ran another configuration when it was
 *                   adopted, each with that configuration ({@link ConfiguredMigration#encode()}, empty
 *                   when unknown: a member of an earlier release publishes none); a member leaves
 *                   this map when it comes back with the adopted configuration
 */
record AdoptedConfiguration(ConfiguredMigration configured, long generation, String from, Instant at, Map<String, String> pending) {

    /** The map key beside the state's. */
    static final String KEY = "configuration";
    private static final int FORMAT = 1;

    AdoptedConfiguration {
        Objects.requireNonNull(configured, "configured");
        Objects.requireNonNull(from, "from");
        at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MILLIS);
        pending = Map.copyOf(pending);
    }

    /** This record without {@code identity} among the members still to be rolled. */
    AdoptedConfiguration rolled(String identity) {
        Map<String, String> left = new TreeMap<>(pending);
        left.remove(identity);
        return new AdoptedConfiguration(configured, generation, from, at, left);
    }

    String encode() {
        JsonObject pendingJson = new JsonObject();
        new TreeMap<>(pending).forEach(pendingJson::put);
        return new JsonObject()
                .put("format", FORMAT)
                .put("configured", configured.encode())
                .put("generation", generation)
                .put("from", from)
                .put("at", at.toEpochMilli())
                .put("pending", pendingJson)
                .encode();
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    static AdoptedConfiguration decode(String text) {
        try {
            JsonObject json = new JsonObject(text);
            if (!Integer.valueOf(FORMAT).equals(json.getInteger("format"))) {
                throw new IllegalArgumentException("format " + json.getValue("format") + " is not " + FORMAT);
            }
            Map<String, String> pending = new TreeMap<>();
            JsonObject pendingJson = json.getJsonObject("pending", new JsonObject());
            for (String id : pendingJson.fieldNames()) {
                pending.put(id, pendingJson.getString(id));
            }
            return new AdoptedConfiguration(ConfiguredMigration.decode(require(json.getString("configured"), "configured")),
                    require(json.getLong("generation"), "generation"), require(json.getString("from"), "from"),
                    Instant.ofEpochMilli(require(json.getLong("at"), "at")), pending);
        } catch (DecodeException | ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException("not an adopted configuration: " + e.getMessage() + " in '"
                    + (text.length() > 200 ? text.substring(0, 200) + "…" : text) + "'", e);
        }
    }

    private static <T> T require(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("field '" + field + "' is missing");
        }
        return value;
    }
}
