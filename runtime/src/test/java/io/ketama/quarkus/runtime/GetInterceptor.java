package io.ketama.quarkus.runtime;

import com.hazelcast.map.MapInterceptor;

/**
 * A map interceptor that acts on gets alone, on the entry's owner ({@link #onGet}), and changes no
 * value: the board tests' way to hold, slow or count the remote reads of the board. Subclasses keep
 * their state in static fields (Hazelcast sends the interceptor to every member as a copy).
 */
abstract class GetInterceptor implements MapInterceptor {

    /** Runs on the partition thread of the entry read. */
    abstract void onGet();

    @Override
    public final Object interceptGet(Object value) {
        onGet();
        return null;
    }

    @Override
    public final void afterGet(Object value) {
    }

    @Override
    public final Object interceptPut(Object oldValue, Object newValue) {
        return null;
    }

    @Override
    public final void afterPut(Object value) {
    }

    @Override
    public final Object interceptRemove(Object removedValue) {
        return null;
    }

    @Override
    public final void afterRemove(Object value) {
    }
}
