/**
 * The extension's build steps ({@link io.ketama.quarkus.deployment.KetamaProcessor}): the beans,
 * registered by class; health checks and meters only when SmallRye Health or Micrometer is
 * present; the admin route on the management interface; Hazelcast module opens; dev-mode file
 * watching and the Dev UI card; a native build refused with a message.
 */
package io.ketama.quarkus.deployment;
