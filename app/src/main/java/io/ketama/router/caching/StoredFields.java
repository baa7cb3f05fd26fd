package io.ketama.router.caching;

import java.util.ArrayList;
import java.util.List;

/** The header fields a cache keeps of a response (RFC 9111 §3.1) and how a 304 updates them (§3.2, §4.3.4). */
final class StoredFields {

    private StoredFields() {
    }

    /**
     * {@code answer} without the fields its qualified {@code private="..."} and {@code no-cache="..."}
     * name (§5.2.2.7, §5.2.2.4: a shared cache must not store, or must not reuse without validation,
     * those fields; dropping them does both), and with a {@code Date} where it has none (RFC 9110
     * §6.6.1: a recipient that stores a message without one adds the time it arrived).
     */
    static OriginAnswer forStorage(OriginAnswer answer, CacheControl cc) {
        HttpFields headers = answer.headers();
        HttpFields kept = headers;
        if (!cc.privateFields().isEmpty() || !cc.noCacheFields().isEmpty()) {
            List<String> drop = new ArrayList<>(cc.privateFields());
            drop.addAll(cc.noCacheFields());
            kept = kept.without(drop.toArray(new String[0]));
        }
        if (!kept.has("Date")) {
            kept = kept.with("Date", HttpDates.format(answer.responseTime()));
        }
        return kept == headers ? answer : answer.with(kept, answer.responseTime(), answer.initialAgeMillis());
    }

    /**
     * {@code stored} with the fields of {@code notModified}: each replaces every line of its name, in the
     * place of the first, or is added at the end; not {@code Content-Length} (the 304 describes no body)
     * nor hop-by-hop fields (§3.1). Aged as the 304.
     */
    static OriginAnswer freshen(OriginAnswer stored, OriginAnswer notModified) {
        HttpFields old = stored.headers();
        HttpFields update = notModified.headers().endToEnd();
        HttpFields.Builder b = HttpFields.builder(old.size() + update.size());
        for (int i = 0; i < old.size(); i++) {
            String name = old.name(i);
            if (!has(update, name)) {
                b.add(name, old.value(i));
            } else if (firstOf(old, name) == i) {
                for (int j = 0; j < update.size(); j++) {
                    if (HttpFields.sameName(update.name(j), name)) {
                        b.add(update.name(j), update.value(j));
                    }
                }
            }
        }
        for (int j = 0; j < update.size(); j++) {
            String name = update.name(j);
            if (updatable(name) && !old.has(name)) {
                b.add(name, update.value(j));
            }
        }
        return stored.with(b.build(), notModified.responseTime(), notModified.initialAgeMillis());
    }

    /** Whether {@code update} replaces the lines named {@code name}. */
    private static boolean has(HttpFields update, String name) {
        return updatable(name) && update.has(name);
    }

    private static boolean updatable(String name) {
        return !HttpFields.sameName(name, "Content-Length") && !HttpFields.isHopByHop(name);
    }

    private static int firstOf(HttpFields fields, String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (HttpFields.sameName(fields.name(i), name)) {
                return i;
            }
        }
        return -1;
    }
}
