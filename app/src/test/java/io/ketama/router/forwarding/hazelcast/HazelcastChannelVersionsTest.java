package io.ketama.router.forwarding.hazelcast;

import static io.ketama.router.forwarding.ChannelTests.TRACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.OriginRequest;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import io.ketama.router.forwarding.hazelcast.ReleasedFormats.V1Task;
import io.ketama.router.forwarding.hazelcast.ReleasedFormats.V4Reply;
import io.ketama.router.forwarding.hazelcast.ReleasedFormats.V4Task;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The Hazelcast transport's payloads across channel versions: what this release writes is read by a
 * reader that stops where an older release stopped (version 1: the key; version 4: the key, the version,
 * the flags and the trace; a reply: up to its version byte), and what an older release wrote is read by
 * this one. A version-5 task carries the whole request (method, target, every client field byte for
 * byte), a version-5 reply the answer's fields and its age. An older member's task is served as a
 * {@code GET} of {@code /<key>} without fields and answered, as that member reads it, only with an
 * answer any client may have; else refused ({@link RemoteFailure#REFUSED}, {@code FAILED} to version 1).
 * The older releases are played by stand-in payloads that read and write exactly the fields they did.
 */
class HazelcastChannelVersionsTest {
    private static SerializationService serialization(com.hazelcast.nio.serialization.DataSerializableFactory factory) {
        return new DefaultSerializationServiceBuilder().addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, factory).build();
    }

    private static final SerializationService CURRENT = serialization(HazelcastForwarding.factory());
    private static final SerializationService VERSION_1 = serialization(type -> type == HazelcastForwarding.TASK ? new V1Task() : null);
    private static final SerializationService VERSION_4 = serialization(type -> switch (type) {
        case HazelcastForwarding.TASK -> new V4Task();
        case HazelcastForwarding.REPLY -> new V4Reply();
        default -> null;
    });

    /** Every char a field value may carry: tab, visible ASCII and obs-text. */
    private static final String OBS_TEXT;

    static {
        StringBuilder b = new StringBuilder("\t");
        for (char c = 0x20; c <= 0xFF; c++) {
            if (c != 0x7F) {
                b.append(c);
            }
        }
        OBS_TEXT = b.toString();
    }

    private static final HttpFields CLIENT_FIELDS = HttpFields.of("Accept", "text/html", "accept", "*/*;q=0.1",
            "X-Obs", OBS_TEXT, "Cookie", "a=\u00e9\u00ff", "X-Empty", "");

    /** Asserts {@code actual} holds the lines of {@code expected}, in order, names in their own case. */
    private static void assertSameFields(HttpFields actual, HttpFields expected) {
        assertThat(actual.size()).isEqualTo(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.name(i)).isEqualTo(expected.name(i));
            assertThat(actual.value(i)).isEqualTo(expected.value(i));
        }
    }

    @Test
    void aVersionFiveTaskCarriesTheWholeRequestByteForByteAndVersionOneAndFourReadersStopWhereTheyDid() {
        KeyRequest request = new KeyRequest("k-\u00e9\u00ff", "/k-\u00e9?x=\u00ff", new CacheRequest("HEAD", CLIENT_FIELDS));
        Data written = CURRENT.toData(new HazelcastForwardTask(request, true, TRACE));

        HazelcastForwardTask read = CURRENT.toObject(written);
        assertThat(read.version()).isEqualTo(ChannelVersion.CURRENT);
        assertThat(read.request().key()).isEqualTo(request.key());
        assertThat(read.request().target()).isEqualTo(request.target());
        assertThat(read.request().request().method()).isEqualTo("HEAD");
        assertSameFields(read.request().request().headers(), CLIENT_FIELDS);
        assertThat(read.spillable()).isTrue();
        assertThat(read.trace()).isEqualTo(TRACE);

        V1Task byVersion1 = VERSION_1.toObject(written);
        assertThat(byVersion1.key).as("version 1 reads the key and stops").isEqualTo(request.key());
        V4Task byVersion4 = VERSION_4.toObject(written);
        assertThat(byVersion4.key).isEqualTo(request.key());
        assertThat(byVersion4.version).as("its version byte, as version 4 reads it").isEqualTo(ChannelVersion.CURRENT);
        assertThat(byVersion4.flags & HazelcastForwardTask.SPILLABLE).isEqualTo(HazelcastForwardTask.SPILLABLE);
        assertThat(new TraceContext(byVersion4.traceparent, byVersion4.tracestate)).as("and stops after the trace").isEqualTo(TRACE);

        // untraced: the request follows the flags at once
        HazelcastForwardTask plain = CURRENT.toObject(CURRENT.toData(new HazelcastForwardTask(request, false, null)));
        assertThat(plain.trace()).isNull();
        assertThat(plain.spillable()).isFalse();
        assertSameFields(plain.request().request().headers(), CLIENT_FIELDS);
        assertThat(VERSION_4.<V4Task>toObject(CURRENT.toData(new HazelcastForwardTask(request, false, null))).key)
                .isEqualTo(request.key());
        // a task made of a key alone carries the plain GET it stands for
        HazelcastForwardTask keyOnly = CURRENT.toObject(CURRENT.toData(new HazelcastForwardTask("k-\u00e9")));
        assertThat(keyOnly.request().target()).isEqualTo("/k-\u00e9");
        assertThat(keyOnly.request().request().method()).isEqualTo("GET");
        assertThat(keyOnly.request().request().headers().isEmpty()).isTrue();
    }

    @Test
    void olderTasksReadOnThisReleaseAsAPlainGetOfTheKey() {
        V1Task v1 = new V1Task();
        v1.key = "k2";
        HazelcastForwardTask fromVersion1 = CURRENT.toObject(VERSION_1.toData(v1));
        assertThat(fromVersion1.version()).as("a task without a version is version 1").isEqualTo(1);
        assertThat(fromVersion1.request().key()).isEqualTo("k2");
        assertThat(fromVersion1.request().target()).isEqualTo("/k2");
        assertThat(fromVersion1.request().request().method()).isEqualTo("GET");
        assertThat(fromVersion1.request().request().headers().isEmpty()).isTrue();
        assertThat(fromVersion1.spillable()).isFalse();

        V4Task v4 = new V4Task();
        v4.key = "k4-\u00e9";
        v4.flags = HazelcastForwardTask.SPILLABLE | HazelcastForwardTask.TRACED;
        v4.traceparent = TRACE.traceparent();
        v4.tracestate = TRACE.tracestate();
        HazelcastForwardTask fromVersion4 = CURRENT.toObject(VERSION_4.toData(v4));
        assertThat(fromVersion4.version()).isEqualTo(4);
        assertThat(fromVersion4.request().target()).isEqualTo("/k4-\u00e9");
        assertThat(fromVersion4.request().request().headers().isEmpty()).isTrue();
        assertThat(fromVersion4.spillable()).isTrue();
        assertThat(fromVersion4.trace()).isEqualTo(TRACE);
    }

    @Test
    void aVersionFiveReplyCarriesFieldsAndAgeAndAVersionFourReaderStopsAtItsVersionByte() {
        HttpFields fields = HttpFields.of("Content-Type", "text/html", "Location", "/x", "Cache-Control", "max-age=60",
                "X-Obs", OBS_TEXT, "Set-Cookie", "a=1", "Set-Cookie", "b=2");
        long arrived = System.currentTimeMillis() - 4_000; // 4 s on the owner, 3 s old when it came
        OriginAnswer answer = new OriginAnswer(302, fields, new byte[] {1, 2}, arrived, 3_000);
        Served served = new Served(answer, CacheStatus.STALE, "m");
        Data written = CURRENT.toData(HazelcastForwardReply.served(served));

        long before = System.currentTimeMillis();
        HazelcastForwardReply reply = CURRENT.toObject(written);
        assertThat(reply.version()).isEqualTo(ChannelVersion.CURRENT);
        assertThat(reply.served()).isEqualTo(served); // status, fields, body, cache status, member
        assertSameFields(reply.served().answer().headers(), fields);
        assertThat(reply.served().answer().initialAgeMillis()).as("its age when written").isBetween(7_000L, 7_000L + 60_000);
        assertThat(reply.served().answer().responseTime()).as("aged from its arrival").isGreaterThanOrEqualTo(before);

        V4Reply byVersion4 = VERSION_4.toObject(written);
        assertThat(byVersion4.status).isEqualTo(302);
        assertThat(byVersion4.contentType).isEqualTo("text/html");
        assertThat(byVersion4.location).isEqualTo("/x");
        assertThat(byVersion4.body).containsExactly(1, 2);
        assertThat(byVersion4.version).isEqualTo(ChannelVersion.CURRENT);
        assertThat(byVersion4.cache).as("the cache status as written for version 5").isEqualTo(CacheStatus.STALE.ordinal());
        V4Reply forVersion4 = VERSION_4.toObject(CURRENT.toData(HazelcastForwardReply.served(served, 4)));
        assertThat(forVersion4.cache).as("written for version 4: a status it knows").isEqualTo(CacheStatus.HIT.ordinal());

        HazelcastForwardReply notCached = CURRENT.toObject(CURRENT.toData(HazelcastForwardReply.failed(RemoteFailure.NOT_CACHED, "no", 5)));
        assertThat(notCached.failure()).isEqualTo(RemoteFailure.NOT_CACHED);
        V4Reply notCachedForVersion4 = VERSION_4.toObject(CURRENT.toData(HazelcastForwardReply.failed(RemoteFailure.NOT_CACHED, "no", 4)));
        assertThat(notCachedForVersion4.failure).as("a code version 4 does not know goes to it as FAILED")
                .isEqualTo(RemoteFailure.FAILED.code());
        HazelcastForwardReply refused = CURRENT.toObject(CURRENT.toData(HazelcastForwardReply.failed(RemoteFailure.REFUSED, "no", 1)));
        assertThat(refused.failure()).as("a code version 1 does not know goes to it as FAILED").isEqualTo(RemoteFailure.FAILED);
    }

    @Test
    void aVersionFourReplyReadsOnThisReleaseAsTheAnswerItCarries() {
        V4Reply v4 = new V4Reply();
        v4.cache = CacheStatus.MISS.ordinal();
        v4.servedBy = "old";
        v4.status = 301;
        v4.contentType = "text/html";
        v4.body = new byte[] {7};
        v4.location = "/moved";
        HazelcastForwardReply read = CURRENT.toObject(VERSION_4.toData(v4));
        assertThat(read.version()).isEqualTo(4);
        assertThat(read.served()).isEqualTo(new Served(new OriginAnswer(301, "text/html", new byte[] {7}, "/moved"), CacheStatus.MISS,
                "old"));
        v4.status = 200; // a Location on an answer that is no redirect is not one
        assertThat(CURRENT.<HazelcastForwardReply>toObject(VERSION_4.toData(v4)).served().answer().location()).isNull();
        V4Reply failed = new V4Reply();
        failed.failure = RemoteFailure.SPILLED.code();
        failed.message = "past its bound";
        HazelcastForwardReply spilled = CURRENT.toObject(VERSION_4.toData(failed));
        assertThat(spilled.failure()).isEqualTo(RemoteFailure.SPILLED);
        assertThat(spilled.message()).isEqualTo("past its bound");
    }

    @Test
    void anInvalidationTaskCarriesItsKeyAndOneWithoutAKeyIsNotRead() {
        HazelcastInvalidateTask read = CURRENT.toObject(CURRENT.toData(new HazelcastInvalidateTask("k-\u00e9\u00ff")));
        assertThat(read).isNotNull();
        Data empty = CURRENT.toData(new HazelcastInvalidateTask(""));
        assertThatThrownBy(() -> CURRENT.toObject(empty)).isInstanceOf(HazelcastSerializationException.class)
                .hasMessageContaining("without a key");
    }

    /**
     * An older member's task, run on a member of this release (a real one, its receiver in its user
     * context): its key is served as a {@code GET} of {@code /<key>} without fields, and the answer goes
     * back as that member reads it only where any client may have it (storable by a shared cache for a
     * request without fields, no {@code Vary}); a private, varying or unstorable answer is refused.
     */
    @Test
    void anOlderMembersTaskIsServedAsAPlainGetAndAnsweredOnlyWithAnAnswerAnyClientMayHave() throws Exception {
        List<OriginRequest> asked = new CopyOnWriteArrayList<>();
        try (LoopbackPeers peers = new LoopbackPeers()) {
            HazelcastInstance owner = peers.start(config -> HazelcastForwarding.configure(config, 2, 16));
            ForwardReceiver receiver = new ForwardReceiver();
            receiver.attach(new KeyServer(new LocalCache(1 << 20), request -> {
                asked.add(request);
                String key = request.target().substring(1);
                HttpFields fields = switch (key) {
                    case "shared" -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "max-age=60");
                    case "private" -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "private, max-age=60");
                    case "varying" -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "max-age=60", "Vary", "Accept");
                    default -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "no-store");
                };
                return CompletableFuture.completedFuture(new OriginAnswer(200, fields, key.getBytes()));
            }, "owner"));
            owner.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);

            V4Task shared = new V4Task();
            shared.key = "shared";
            V4Reply served = VERSION_4.toObject(CURRENT.toData(run(owner, VERSION_4.toData(shared))));
            assertThat(served.failure).isZero();
            assertThat(served.status).isEqualTo(200);
            assertThat(served.contentType).isEqualTo("text/plain");
            assertThat(served.body).isEqualTo("shared".getBytes());
            assertThat(served.cache).isEqualTo(CacheStatus.MISS.ordinal());
            V4Reply hit = VERSION_4.toObject(CURRENT.toData(run(owner, VERSION_4.toData(shared))));
            assertThat(hit.cache).isEqualTo(CacheStatus.HIT.ordinal());
            assertThat(asked).as("what the origin was asked").hasSize(1);
            assertThat(asked.get(0).method()).isEqualTo("GET");
            assertThat(asked.get(0).target()).isEqualTo("/shared");
            assertThat(asked.get(0).headers().isEmpty()).as("no fields: an older member sends none").isTrue();

            for (String key : new String[] {"private", "varying", "no-store"}) {
                V4Task v4 = new V4Task();
                v4.key = key;
                V4Reply refused = VERSION_4.toObject(CURRENT.toData(run(owner, VERSION_4.toData(v4))));
                assertThat(refused.failure).as("%s, to version 4", key).isEqualTo(RemoteFailure.REFUSED.code());
                assertThat(refused.message).contains("channel version " + ChannelVersion.HTTP_CACHING);
                V1Task v1 = new V1Task();
                v1.key = key;
                HazelcastForwardReply toVersion1 = CURRENT.toObject(CURRENT.toData(run(owner, VERSION_1.toData(v1))));
                assertThat(toVersion1.failure()).as("%s, to version 1", key).isEqualTo(RemoteFailure.FAILED);
            }
            // the same answers go whole to a member of this release
            HazelcastForwardReply whole = run(owner, CURRENT.toData(new HazelcastForwardTask(
                    new KeyRequest("private", "/private", CacheRequest.get(HttpFields.EMPTY)), false, null)));
            assertThat(whole.served().answer().headers().first("Cache-Control")).isEqualTo("private, max-age=60");
        }
    }

    /** What a task written as {@code payload} answers on {@code member}, as its executor would run it there. */
    private static HazelcastForwardReply run(HazelcastInstance member, Data payload) {
        HazelcastForwardTask task = CURRENT.toObject(payload);
        task.setHazelcastInstance(member);
        return task.call();
    }

    @Test
    void aTaskReadByAMemberWithoutAReceiverIsAnsweredNotServing() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers()) {
            HazelcastInstance member = peers.start(Map.of());
            HazelcastForwardReply reply = run(member, CURRENT.toData(new HazelcastForwardTask("k")));
            assertThat(reply.failure()).isEqualTo(RemoteFailure.NOT_SERVING);
            HazelcastInvalidateTask invalidate = CURRENT.toObject(CURRENT.toData(new HazelcastInvalidateTask("k")));
            invalidate.setHazelcastInstance(member);
            assertThat(invalidate.call()).as("nothing to drop them with").isFalse();
        }
    }
}
