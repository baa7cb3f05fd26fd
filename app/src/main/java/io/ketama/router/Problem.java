package io.ketama.router;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An RFC 7807 problem document ({@code application/problem+json}): what was wrong, and, in
 * {@code detail}, what is allowed. Extension members (such as {@code allowed}) follow the
 * standard ones.
 */
@Schema(name = "Problem", description = "RFC 7807 problem details")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "status", "detail", "instance"})
public final class Problem {

    /** The media type of problem documents. */
    public static final String MEDIA_TYPE = "application/problem+json";

    private final String type;
    private final String title;
    private final int status;
    private final String detail;
    private final String instance;
    private final Map<String, Object> extensions;

    Problem(ProblemType kind, String detail, String instance, Map<String, Object> extensions) {
        this.type = kind.uri();
        this.title = kind.title();
        this.status = kind.status();
        this.detail = detail;
        this.instance = instance;
        this.extensions = Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
    }

    @Schema(description = "URI naming the kind of problem", examples = "urn:ketama-router:problem:empty-key")
    public String getType() {
        return type;
    }

    @Schema(description = "Short summary of the kind of problem")
    public String getTitle() {
        return title;
    }

    @Schema(description = "HTTP status code")
    public int getStatus() {
        return status;
    }

    @Schema(description = "What was wrong in this request, and what is allowed")
    public String getDetail() {
        return detail;
    }

    @Schema(description = "The request path the problem occurred on")
    public String getInstance() {
        return instance;
    }

    @JsonAnyGetter
    public Map<String, Object> extensions() {
        return extensions;
    }
}
