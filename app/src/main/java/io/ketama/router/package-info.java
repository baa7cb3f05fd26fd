/**
 * The cache-routing service's HTTP layer: {@code GET /cache/{key}} (served by the key's owner),
 * {@code GET /route/{key}} (who owns a key, fetching nothing), {@code GET /ring}; turning a request
 * into a selection or the problem that stops it ({@code OwnerLookup}, {@code RawKey},
 * {@code FeaturesHeader}); admission; the one writer of {@code /cache/} answers and problems
 * ({@code CacheAnswers}); RFC 7807 problems ({@code Problem*}); the service's configuration
 * ({@code RouterConfig}), validated once into {@code RouterSettings}; meters ({@code RouterMetrics});
 * and the composition root that makes the parts it runs with ({@code RouterParts}). Forwarding to the owner lives in {@code io.ketama.router.forwarding},
 * serving a key (cache, origin) in {@code io.ketama.router.serving}.
 */
package io.ketama.router;
