package io.ketama.router.faults;

/**
 * A plain HTTP exchange with a member, however the test reaches it: straight from the test JVM on
 * loopback ({@link LoopbackHttp}), or through an agent inside a network namespace ({@link NamespaceHttp}).
 */
interface Http {

    /** {@code GET url}; {@code null} when no answer came within {@code timeoutMillis}. */
    Answer get(String url, long timeoutMillis);

    /** {@code PUT url} of a JSON body with a bearer token; {@code null} when no answer came. */
    Answer put(String url, String json, String token, long timeoutMillis);

    /** An HTTP answer: its status and body. */
    record Answer(int status, String body) {
    }
}
