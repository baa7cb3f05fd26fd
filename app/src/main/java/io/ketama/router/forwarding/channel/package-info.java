/**
 * What members say to each other on every forward channel, whichever transport carries it: the
 * channel versions and what each may carry ({@code ChannelVersion}), the failure codes a receiver sends
 * back ({@code RemoteFailure}), where a member takes forwards ({@code PeerEndpoints}), the secret
 * members show each other ({@code ForwardSecret}), and the log of what a channel refused from the
 * network ({@code RefusalLog}). Shared by the three transports, so public; the service itself needs
 * only the endpoints' attributes and the secret.
 */
package io.ketama.router.forwarding.channel;
