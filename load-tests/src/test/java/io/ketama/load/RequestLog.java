package io.ketama.load;

/** Receives what the load generator saw, request by request. Implementations must be thread-safe. */
interface RequestLog {

    /**
     * A request finished (answered, or failed after its last attempt).
     *
     * @param epochMillis   when the answer (or the last failure) came
     * @param rank          the key's popularity rank, 1-based
     * @param outcome       HIT, MISS or ERROR
     * @param latencyMillis the last attempt's response time, -1 when there was no response
     * @param servedByV2    whether {@code X-Ketama-Ring} said v2
     * @param failovers     members the cluster tried before one answered ({@code X-Ketama-Failover}, 0 when absent)
     */
    void finished(long epochMillis, int rank, Outcome outcome, long latencyMillis, boolean servedByV2, int failovers);

    /** An attempt failed and the request may be retried on another member. */
    void attemptFailed(long epochMillis, int port, String reason);

    /** Forgets everything: for traffic that only warms the JVMs up. */
    RequestLog NONE = new RequestLog() {
        @Override
        public void finished(long epochMillis, int rank, Outcome outcome, long latencyMillis, boolean servedByV2, int failovers) {
        }

        @Override
        public void attemptFailed(long epochMillis, int port, String reason) {
        }
    };

    /** Sends every event to both logs, {@code first} first. */
    static RequestLog both(RequestLog first, RequestLog second) {
        return new RequestLog() {
            @Override
            public void finished(long epochMillis, int rank, Outcome outcome, long latencyMillis, boolean servedByV2, int failovers) {
                first.finished(epochMillis, rank, outcome, latencyMillis, servedByV2, failovers);
                second.finished(epochMillis, rank, outcome, latencyMillis, servedByV2, failovers);
            }

            @Override
            public void attemptFailed(long epochMillis, int port, String reason) {
                first.attemptFailed(epochMillis, port, reason);
                second.attemptFailed(epochMillis, port, reason);
            }
        };
    }

    /** Logs into a {@link Timeline}. */
    static RequestLog of(Timeline timeline) {
        return new RequestLog() {
            @Override
            public void finished(long epochMillis, int rank, Outcome outcome, long latencyMillis, boolean servedByV2, int failovers) {
                timeline.record(epochMillis, outcome, latencyMillis, servedByV2, failovers);
            }

            @Override
            public void attemptFailed(long epochMillis, int port, String reason) {
                timeline.recordFailedAttempt(epochMillis, port + ": " + reason);
            }
        };
    }
}
