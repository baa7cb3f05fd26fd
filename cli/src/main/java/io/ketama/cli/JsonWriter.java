package io.ketama.cli;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Writes JSON text by hand (core has no dependencies). Containers opened as "inline" stay on one
 * line, others put each member on its own indented line. Strings are escaped so the text is plain
 * ASCII; numbers must be finite, since JSON has no NaN or infinity.
 */
final class JsonWriter {

    private final StringBuilder out = new StringBuilder(4096);
    /** Per open container: whether it is inline, and whether it has a member yet. */
    private final Deque<boolean[]> open = new ArrayDeque<>();
    private boolean afterName;

    JsonWriter beginObject(boolean inline) {
        return begin('{', inline);
    }

    JsonWriter endObject() {
        return end('}');
    }

    JsonWriter beginArray(boolean inline) {
        return begin('[', inline);
    }

    JsonWriter endArray() {
        return end(']');
    }

    JsonWriter name(String name) {
        separate();
        string(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    JsonWriter value(String s) {
        separate();
        string(s);
        return this;
    }

    JsonWriter value(long n) {
        separate();
        out.append(n);
        return this;
    }

    JsonWriter value(double d) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("JSON has no representation for " + d);
        }
        separate();
        out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d));
        return this;
    }

    JsonWriter field(String name, String v) {
        return name(name).value(v);
    }

    JsonWriter field(String name, long v) {
        return name(name).value(v);
    }

    JsonWriter field(String name, double v) {
        return name(name).value(v);
    }

    /** The finished text, ending with a newline. */
    String text() {
        if (!open.isEmpty()) {
            throw new IllegalStateException("unclosed JSON container");
        }
        return out + "\n";
    }

    private JsonWriter begin(char bracket, boolean inline) {
        separate();
        out.append(bracket);
        boolean parentInline = !open.isEmpty() && open.peek()[0];
        open.push(new boolean[] {inline || parentInline, false});
        return this;
    }

    private JsonWriter end(char bracket) {
        boolean[] top = open.pop();
        if (top[1] && !top[0]) {
            newline();
        }
        out.append(bracket);
        return this;
    }

    /** Comma and line break before a member; nothing between a name and its value. */
    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        boolean[] top = open.peek();
        if (top == null) {
            return;
        }
        if (top[1]) {
            out.append(top[0] ? ", " : ",");
        }
        top[1] = true;
        if (!top[0]) {
            newline();
        }
    }

    private void newline() {
        out.append('\n');
        for (int i = 0; i < open.size(); i++) {
            out.append("  ");
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7E) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
