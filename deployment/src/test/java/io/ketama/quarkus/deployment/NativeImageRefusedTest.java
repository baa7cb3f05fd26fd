package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/** A native build stops at build time with a message saying why and what to do instead. */
class NativeImageRefusedTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.native.enabled", "true")
            .assertException(t -> {
                StringBuilder messages = new StringBuilder();
                for (Throwable c = t; c != null; c = c.getCause()) {
                    messages.append(c.getMessage()).append('\n');
                }
                assertThat(messages.toString()).contains(KetamaProcessor.NATIVE_UNSUPPORTED);
            });

    @Test
    void theBuildFails() {
        fail("the build should have failed");
    }
}
