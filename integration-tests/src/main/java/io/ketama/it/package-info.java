/**
 * A minimal application of the extension (neither Micrometer nor Health), as a new user writes it:
 * endpoints that ask {@code RingSelector} who owns a key and say which cluster this member is in.
 */
package io.ketama.it;
