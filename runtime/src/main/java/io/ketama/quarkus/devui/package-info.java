/** The extension's Dev UI card: the rings, members and migration of the running member, and an owner lookup (dev mode only). */
package io.ketama.quarkus.devui;
