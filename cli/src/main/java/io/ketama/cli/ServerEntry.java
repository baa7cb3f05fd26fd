package io.ketama.cli;

/**
 * One server of a servers file.
 *
 * @param address the server as written in the file, what its hash style reads ({@code host:port:weight name} for twemproxy)
 * @param weight  its weight, at least 1
 * @param line    1-based line number in the file, for error messages
 * @param shown   how {@code route} and the JSON name it: the address as written, or a twemproxy server's name
 */
record ServerEntry(String address, int weight, int line, String shown) {
}
