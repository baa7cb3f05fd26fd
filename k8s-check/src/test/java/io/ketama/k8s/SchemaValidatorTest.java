package io.ketama.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaValidatorTest {

    @Test
    void withoutNodeTheCheckFailsWithInstructions(@TempDir Path emptyBin, @TempDir Path work) {
        assertThatThrownBy(() -> SchemaValidator.install(Path.of(System.getProperty("ketama.node.src",
                "src/test/node")), work, emptyBin.toString()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node is not on PATH")
                .hasMessageContaining("Node.js")
                .hasMessageContaining("-pl '!k8s-check'");
    }

    @Test
    void badYamlIsReportedAsAnInputErrorNotAsValid(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n");
        SchemaValidator.Result result = SchemaValidator.get().validate(List.of(file));
        assertThat(result.valid()).isFalse();
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("ERROR").contains("YAML");
    }
}
