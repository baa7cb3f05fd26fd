/**
 * The command-line tool over {@code io.ketama.core}: {@code java -jar cli/target/ketama-cli.jar
 * route|analyze|diff}. {@link io.ketama.cli.KetamaCli} parses the command and its options, a
 * servers file becomes a ring through {@code RingOptions} and {@code ServersFile}, and each
 * command writes its answer (server names per key, or JSON). Nothing here is an API: the
 * command line and its output are.
 */
package io.ketama.cli;
