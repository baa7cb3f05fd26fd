package io.ketama.load.faults;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The load as clients of any HTTP cache send it: entry members in turn, so that every member takes
 * an equal share and forwards what it does not own. Every request is recorded with its answer's headers.
 */
final class EntryLoad extends Load {

    static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"[^\"]*?([a-z-]+)\"");

    private final HttpClient http;
    private final List<MemberRef> members;
    private final Duration timeout;

    EntryLoad(HttpClient http, List<MemberRef> members, int rate, int keys, Duration timeout, LongSupplier clock) {
        super(rate, keys, clock);
        this.http = http;
        this.members = members;
        this.timeout = timeout;
    }

    @Override
    void send(long n, String key) {
        MemberRef entry = members.get((int) (n % members.size()));
        long sentAt = clock.getAsLong();
        HttpRequest request = HttpRequest.newBuilder(URI.create(MemberHttp.base(entry) + "/cache/" + key)).timeout(timeout).GET().build();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((r, failure) -> {
            long millis = clock.getAsLong() - sentAt;
            if (failure != null) {
                Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                String error = cause instanceof HttpTimeoutException ? "timed out" : cause.getClass().getSimpleName() + ": " + cause.getMessage();
                ended(new RequestRecord(sentAt, entry.index(), key, 0, millis, null, null, null, false, null, error));
                return;
            }
            ended(new RequestRecord(sentAt, entry.index(), key, r.statusCode(), millis,
                    r.headers().firstValue("X-Ketama-Owner").orElse(null), r.headers().firstValue("X-Ketama-Served-By").orElse(null),
                    r.headers().firstValue("X-Ketama-Cache").orElse(null), r.headers().firstValue("Retry-After").isPresent(),
                    problemType(r.statusCode(), r.body()), null));
        });
    }

    /** The last part of a problem answer's {@code type} ({@code ring-not-ready}), or null. */
    static String problemType(int status, String body) {
        if (status == 200) {
            return null;
        }
        Matcher type = PROBLEM_TYPE.matcher(body);
        return type.find() ? type.group(1) : null;
    }

    @Override
    long longestMillis() {
        return timeout.toMillis();
    }
}
