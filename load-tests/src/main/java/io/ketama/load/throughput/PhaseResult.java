package io.ketama.load.throughput;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one phase measured. Latencies are in nanoseconds, from the intended send time (open phase)
 * or the actual send time (closed phase) to the last byte of the answer.
 *
 * @param phase          the phase
 * @param seconds        how long requests were issued
 * @param scheduled      requests due in the phase (open) or sent (closed)
 * @param ok             answered 2xx, whenever (after the phase, until the deadline, included)
 * @param okInPhase      answered 2xx before the phase ended: the goodput's numerator
 * @param statuses       every answered status and its count
 * @param socketErrors   requests lost with their connection (reset, closed before the answer)
 * @param timeouts       requests unanswered within the deadline, sent or still waiting for a connection
 * @param okLatencies    latencies of the 2xx answers
 * @param allLatencies   latencies of every answer, whatever its status
 * @param sendLag        how long requests waited between their intended time and going on the wire
 * @param setupCpuNanos  CPU time of the measured processes during the phase
 * @param ownCpuNanos    CPU time of this generator during the phase
 */
record PhaseResult(Phase phase, double seconds, long scheduled, long ok, long okInPhase, Map<Integer, Long> statuses,
                   long socketErrors, long timeouts, Latencies okLatencies, Latencies allLatencies,
                   Latencies sendLag, long setupCpuNanos, long ownCpuNanos) {

    PhaseResult {
        statuses = new TreeMap<>(statuses);
    }

    /**
     * 2xx answers per second of the phase: only those that arrived while it lasted, so answers that
     * trail in after it (a backlog draining) do not inflate it.
     */
    double goodput() {
        return okInPhase / seconds;
    }

    long answered() {
        return statuses.values().stream().mapToLong(Long::longValue).sum();
    }

    long failed() {
        return scheduled - ok;
    }

    static double millis(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / 1e6;
    }

    /** One line for people and for grep: {@code key=value} pairs. */
    String line() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(java.util.Locale.ROOT,
                "phase=%s mode=%s offered=%s seconds=%.1f scheduled=%d ok=%d ok_in_phase=%d goodput=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f all_p99_ms=%.2f lag_p99_ms=%.2f socket_errors=%d timeouts=%d",
                phase.name(), phase.isOpen() ? "open" : "closed",
                phase.isOpen() ? String.format(java.util.Locale.ROOT, "%.0f/s", phase.rate()) : "c" + phase.concurrency(),
                seconds, scheduled, ok, okInPhase, goodput(),
                millis(okLatencies.percentile(50)), millis(okLatencies.percentile(90)), millis(okLatencies.percentile(99)),
                millis(okLatencies.percentile(99.9)), millis(okLatencies.max()), millis(allLatencies.percentile(99)),
                millis(sendLag.percentile(99)), socketErrors, timeouts));
        s.append(" statuses=");
        if (statuses.isEmpty()) {
            s.append('-');
        }
        statuses.forEach((status, count) -> s.append(status).append(':').append(count).append(','));
        if (!statuses.isEmpty()) {
            s.setLength(s.length() - 1);
        }
        long answered = answered();
        s.append(String.format(java.util.Locale.ROOT, " setup_cores=%.2f setup_cpu_us_per_req=%.1f generator_cores=%.2f",
                setupCpuNanos / 1e9 / seconds, answered == 0 ? Double.NaN : setupCpuNanos / 1e3 / answered,
                ownCpuNanos / 1e9 / seconds));
        return s.toString();
    }
}
