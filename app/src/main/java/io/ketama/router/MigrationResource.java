package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingSelector;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET/PUT /admin/migration}: this member's split between the v1 and v2 rings. Each member
 * keeps its own setting; an operator raises the v2 share on every member step by step.
 */
@Path("/admin/migration")
@Tag(name = "admin", description = "Ring migration, v1 to v2")
public class MigrationResource {

    private static final Set<String> FIELDS = Set.of("mode", "v2SharePercent", "shadow");
    private static final String ALLOWED = "a JSON object with any of: mode (\"v1\", \"v2\" or \"split\"), "
            + "v2SharePercent (a number from 0 to 100, decimals allowed), shadow (true or false); fields left out keep their value";

    private final RingSelector selector;
    private final ObjectMapper json;

    MigrationResource(RingSelector selector, ObjectMapper json) {
        this.selector = selector;
        this.json = json;
    }

    /**
     * The migration settings.
     *
     * @param mode           {@code v1}, {@code v2} or {@code split}
     * @param v2SharePercent in split mode, the share of keys (0 to 100) the v2 ring serves
     * @param shadow         whether both rings are consulted and their disagreements counted
     */
    @Schema(name = "Migration")
    record MigrationView(@Schema(enumeration = {"v1", "v2", "split"}) String mode, double v2SharePercent, boolean shadow) {

        static MigrationView of(MigrationSettings s) {
            return new MigrationView(s.mode().name().toLowerCase(Locale.ROOT), s.v2SharePercent(), s.shadow());
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "This member's migration settings")
    @APIResponse(responseCode = "200", description = "The settings in force",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MigrationView.class)))
    public MigrationView get() {
        return MigrationView.of(selector.migration());
    }

    @PUT
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change this member's migration settings",
            description = "Takes effect for the next request. In split mode the choice is sticky per key: raising the share "
                    + "only moves keys from v1 to v2, lowering it moves them back.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = MigrationView.class)))
    @APIResponse(responseCode = "200", description = "The settings now in force",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MigrationView.class)))
    @APIResponse(responseCode = "400", description = "Malformed or invalid settings; nothing changed",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public MigrationView put(String body) {
        JsonNode tree = parse(body);
        MigrationSettings current = selector.migration();
        MigrationSettings.Mode mode = current.mode();
        double share = current.v2SharePercent();
        boolean shadow = current.shadow();
        if (tree.has("mode")) {
            JsonNode m = tree.get("mode");
            mode = m.isTextual() ? modeOf(m.asText()) : null;
            if (mode == null) {
                throw invalid("mode must be one of \"v1\", \"v2\", \"split\", was " + shorten(m.toString()));
            }
        }
        if (tree.has("v2SharePercent")) {
            JsonNode p = tree.get("v2SharePercent");
            if (!p.isNumber() || !(p.asDouble() >= 0 && p.asDouble() <= 100)) {
                throw invalid("v2SharePercent must be a number from 0 to 100 (decimals allowed), was " + shorten(p.toString()));
            }
            share = p.asDouble();
        }
        if (tree.has("shadow")) {
            JsonNode s = tree.get("shadow");
            if (!s.isBoolean()) {
                throw invalid("shadow must be true or false, was " + shorten(s.toString()));
            }
            shadow = s.asBoolean();
        }
        MigrationSettings next;
        try {
            next = new MigrationSettings(mode, share, shadow);
            selector.updateMigration(next);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
        return MigrationView.of(selector.migration());
    }

    private JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            throw new ProblemException(ProblemType.MALFORMED_BODY, "the body is empty; expected " + ALLOWED);
        }
        JsonNode tree;
        try {
            tree = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ProblemException(ProblemType.MALFORMED_BODY, "the body is not JSON (" + e.getOriginalMessage()
                    + "); expected " + ALLOWED);
        }
        if (tree == null || !tree.isObject()) {
            throw new ProblemException(ProblemType.MALFORMED_BODY, "the body is JSON but not an object; expected " + ALLOWED);
        }
        for (Iterator<String> names = tree.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new ProblemException(ProblemType.INVALID_MIGRATION, "unknown field \"" + shorten(name) + "\"; expected "
                        + ALLOWED, Map.of("allowed", FIELDS.stream().sorted().toList()), null);
            }
        }
        return tree;
    }

    private static MigrationSettings.Mode modeOf(String text) {
        for (MigrationSettings.Mode m : MigrationSettings.Mode.values()) {
            if (m.name().equalsIgnoreCase(text.trim())) {
                return m;
            }
        }
        return null;
    }

    private static ProblemException invalid(String detail) {
        return new ProblemException(ProblemType.INVALID_MIGRATION, detail + "; nothing was changed",
                Map.of("allowed", ALLOWED), null);
    }

    private static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }
}
