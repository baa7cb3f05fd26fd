/**
 * The binary transport, the default: one persistent TCP connection per peer and event loop carrying
 * length-prefixed frames with request ids ({@code BinaryFrames}). The sending side is
 * {@code BinaryForwardClient}; the receiving side {@code BinaryForwardServer}, one
 * {@code BinaryServerConnection} per accepted connection within {@code BinaryServerLimits}. Frames an
 * event loop writes in one round share one flush ({@code CoalescedFlushes}). The frames and the
 * connection are package-private: nothing outside reads or writes them.
 */
package io.ketama.router.forwarding.binary;
