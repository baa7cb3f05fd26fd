package io.ketama.quarkus.deployment;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The runtime jar's extension descriptor carries what Quarkus tooling lists an extension by. */
class ExtensionMetadataTest {

    @Test
    void theDescriptorNamesDescribesAndCategorisesTheExtension() throws IOException {
        List<URL> descriptors = Collections.list(getClass().getClassLoader().getResources("META-INF/quarkus-extension.yaml"));
        String ours = null;
        for (URL url : descriptors) {
            try (InputStream in = url.openStream()) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (text.contains("io.ketama:quarkus-ketama:")) {
                    ours = text;
                }
            }
        }
        assertThat(ours).as("quarkus-ketama's descriptor among %s", descriptors).isNotNull();
        assertThat(ours).contains("name: \"Ketama Router\"", "description: \"Consistent-hash routing of keys",
                "keywords:", "- \"ketama\"", "- \"hazelcast\"", "categories:", "status: \"preview\"",
                "- \"quarkus.ketama.\"", "minimum-java-version: \"17\"");
    }
}
