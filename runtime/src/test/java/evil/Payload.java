package evil;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A class from outside the project sent to a member as a task: deserializing it runs code
 * ({@link #readObject}), as a gadget would. A hardened member must never get that far.
 */
public final class Payload implements Callable<String>, Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /** How many times any instance was deserialized in this JVM. */
    public static final AtomicInteger DESERIALIZED = new AtomicInteger();

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        DESERIALIZED.incrementAndGet();
    }

    @Override
    public String call() {
        return "ran";
    }
}
