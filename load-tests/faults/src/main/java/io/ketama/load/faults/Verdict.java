package io.ketama.load.faults;

/**
 * One target of the issue judged on one fault.
 *
 * @param target the target in a few words
 * @param met whether the figures meet it
 * @param detail the figure it was judged on, and the bound
 */
public record Verdict(String target, boolean met, String detail) {
}
