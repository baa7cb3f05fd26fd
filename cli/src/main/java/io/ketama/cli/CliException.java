package io.ketama.cli;

/**
 * Bad arguments or bad input: the CLI prints the message as one line on standard error and exits
 * with status 2. The message names what was wrong and what is allowed.
 */
final class CliException extends Exception {

    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message.replace('\n', ' '));
    }
}
