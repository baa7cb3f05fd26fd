/**
 * The {@code http} transport: a forward is an HTTP/1.1 request on the owner's own HTTP port, under
 * {@code /_ketama/forward/} ({@code HttpForwarding}: the path and headers), sent by a pooled keep-alive
 * client ({@code HttpForwardClient}) and answered by a Vert.x handler ({@code HttpForwardHandler}).
 */
package io.ketama.router.forwarding.http;
