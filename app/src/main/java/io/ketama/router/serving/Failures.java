package io.ketama.router.serving;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What a failed stage failed with, without the wrappers that stage composition adds. */
public final class Failures {

    private Failures() {
    }

    /** {@code failure} with every {@link CompletionException} and {@link ExecutionException} around it removed. */
    public static Throwable cause(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
