/**
 * Serving a key on the member that owns it: the local cache ({@code LocalCache}), the origins
 * ({@code HttpOrigin}, {@code DemoOrigin}, bounded by {@code BoundedOrigin}), one fetch per key at
 * a time ({@code KeyServer}), and what an answer carries ({@code Served}, {@code CacheStatus}).
 */
package io.ketama.router.serving;
