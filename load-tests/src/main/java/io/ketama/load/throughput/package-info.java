/**
 * The throughput instrument behind {@code load-tests/throughput.sh}: an open-loop load generator
 * ({@code Overload}, {@code LoadEngine}) with latency recording, and a cache warmer ({@code Warm}).
 */
package io.ketama.load.throughput;
