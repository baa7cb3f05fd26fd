package io.ketama.cli;

/**
 * One server of a servers file.
 *
 * @param address the address exactly as written in the file (what {@code route} prints)
 * @param weight  its weight, at least 1
 * @param line    1-based line number in the file, for error messages
 */
record ServerEntry(String address, int weight, int line) {
}
