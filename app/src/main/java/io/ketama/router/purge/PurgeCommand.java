package io.ketama.router.purge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one purge asks: keys (as the cache keys them: the request target, or what
 * {@code ketama.router.cache.key} makes of it) and tags ({@code Surrogate-Key}, {@code Cache-Tag}),
 * each once.
 *
 * @param keys the keys, in the order given, duplicates once
 * @param tags the tags, duplicates once
 */
public record PurgeCommand(List<String> keys, Set<String> tags) {

    /** Keys and tags one call may name together. */
    public static final int MAX_ITEMS = 10_000;
    /** The longest key, in bytes (as a request target is bounded). */
    public static final int MAX_KEY_BYTES = 8192;
    /** The longest tag, in bytes. */
    public static final int MAX_TAG_BYTES = 1024;
    /** The largest body the purge call reads. */
    public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    public PurgeCommand {
        keys = List.copyOf(keys);
        tags = Set.copyOf(tags);
    }

    /** A purge of {@code keys} alone (an unsafe method's targets, a {@code PURGE}). */
    public static PurgeCommand ofKeys(List<String> keys) {
        return new PurgeCommand(new ArrayList<>(new LinkedHashSet<>(keys)), Set.of());
    }

    /** Items named. */
    public int size() {
        return keys.size() + tags.size();
    }

    /**
     * Reads {@code {"keys": [...], "tags": [...]}} (either may be left out, not both; no other member).
     *
     * @throws IllegalArgumentException saying what is wrong and what is allowed
     */
    public static PurgeCommand parse(ObjectMapper json, String body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON (" + e.getOriginalMessage()
                    + "); send {\"keys\": [\"/a/key\"], \"tags\": [\"a-tag\"]}");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the body must be a JSON object, {\"keys\": [...], \"tags\": [...]}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            String name = it.next().getKey();
            if (!name.equals("keys") && !name.equals("tags")) {
                throw new IllegalArgumentException("unknown member \"" + name + "\": a purge names \"keys\" and/or \"tags\"");
            }
        }
        List<String> keys = strings(root.get("keys"), "keys", MAX_KEY_BYTES);
        List<String> tags = strings(root.get("tags"), "tags", MAX_TAG_BYTES);
        if (keys.isEmpty() && tags.isEmpty()) {
            throw new IllegalArgumentException("nothing to purge: give at least one key in \"keys\" or one tag in \"tags\"");
        }
        if (keys.size() + tags.size() > MAX_ITEMS) {
            throw new IllegalArgumentException("too many: " + keys.size() + " keys and " + tags.size() + " tags; one purge names at most "
                    + MAX_ITEMS + " together, send more calls");
        }
        return new PurgeCommand(new ArrayList<>(new LinkedHashSet<>(keys)), new LinkedHashSet<>(tags));
    }

    private static List<String> strings(JsonNode node, String name, int maxBytes) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("\"" + name + "\" must be an array of strings");
        }
        if (node.size() > MAX_ITEMS) {
            throw new IllegalArgumentException("too many " + name + ": " + node.size() + "; one purge names at most " + MAX_ITEMS);
        }
        List<String> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (!item.isTextual()) {
                throw new IllegalArgumentException("\"" + name + "\"[" + i + "] is not a string");
            }
            String s = item.textValue();
            int bytes = s.getBytes(StandardCharsets.UTF_8).length;
            if (bytes == 0 || bytes > maxBytes) {
                throw new IllegalArgumentException("\"" + name + "\"[" + i + "] has " + bytes + " bytes; 1 to " + maxBytes + " are allowed");
            }
            for (int c = 0; c < s.length(); c++) {
                char ch = s.charAt(c);
                if (ch < 0x21 || ch == 0x7F) {
                    throw new IllegalArgumentException("\"" + name + "\"[" + i + "] holds a space or control character at " + c
                            + "; keys and tags are visible characters only");
                }
            }
            out.add(s);
        }
        return out;
    }
}
