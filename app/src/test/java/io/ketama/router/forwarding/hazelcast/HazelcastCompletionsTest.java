package io.ketama.router.forwarding.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.StartedMembers;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Where Hazelcast's futures complete when the common pool has one thread (any 2-CPU machine; set
 * here as there, whatever this machine has): not on a new thread each, and not on Hazelcast's
 * response thread, where Hazelcast's own continuations may not invoke. Real members on 127.0.0.1,
 * ports chosen at run time, a cluster of this run's own.
 */
class HazelcastCompletionsTest {

    private static final String MAP = "completions";

    private final StartedMembers started = new StartedMembers();

    @BeforeAll
    static void asOnATwoCpuMachine() {
        HazelcastForwarding.completeWithoutNewThreads(1);
    }

    @AfterEach
    void stopMembers() {
        started.close();
    }

    private List<HazelcastInstance> cluster(int size) {
        String name = LoopbackHazelcast.clusterName("ketama-completions");
        List<Integer> ports = new ArrayList<>();
        List<HazelcastInstance> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            HazelcastInstance hz = started.start(LoopbackHazelcast.anyFreePort(name, ports));
            ports.add(hz.getCluster().getLocalMember().getAddress().getPort());
            members.add(hz);
        }
        return members;
    }

    @Test
    void membersThatJoinedRegisterEntryListenersAndReceiveTheEvents() throws Exception {
        List<HazelcastInstance> members = cluster(3);
        List<BlockingQueue<String>> added = new ArrayList<>();
        for (HazelcastInstance m : members) {
            BlockingQueue<String> keys = new LinkedBlockingQueue<>();
            // Hazelcast registers the listener on every member in turn, each step in the completion
            // of the one before: on the response thread that step was refused
            IMap<String, String> map = m.getMap(MAP);
            map.addEntryListener((EntryAddedListener<String, String>) e -> keys.add(e.getKey()), true);
            added.add(keys);
        }
        members.get(0).<String, String>getMap(MAP).put("k", "v");
        for (int i = 0; i < members.size(); i++) {
            assertThat(added.get(i).poll(60, TimeUnit.SECONDS)).as("the entry event on member %d", i + 1).isEqualTo("k");
        }
    }

    @Test
    void completionsRunOnTheTwoCompletionThreadsAndStartNoThreadEach() throws Exception {
        HazelcastInstance hz = cluster(1).get(0);
        IMap<String, String> map = hz.getMap(MAP);
        map.put("k", "v");
        for (int i = 0; i < 100; i++) { // the two threads start with the first completions
            completedOn(map);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long startedBefore = threads.getTotalStartedThreadCount();
        List<String> on = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            on.add(completedOn(map));
        }
        long startedDuring = threads.getTotalStartedThreadCount() - startedBefore;
        assertThat(on).as("threads the completions ran on").allMatch(name -> name.startsWith("ketama-hz-completion-"));
        // a thread per completion would start 1,000; Hazelcast's own background threads may start a few
        assertThat(startedDuring).as("threads started during 1,000 completions").isLessThanOrEqualTo(16);
    }

    /** The name of the thread a completion of an asynchronous get ran on. */
    private static String completedOn(IMap<String, String> map) throws Exception {
        CompletableFuture<String> thread = new CompletableFuture<>();
        map.getAsync("k").whenCompleteAsync((value, failure) -> thread.complete(Thread.currentThread().getName()));
        return thread.get(60, TimeUnit.SECONDS);
    }
}
