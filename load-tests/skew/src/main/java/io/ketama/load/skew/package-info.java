/**
 * The skew benchmark of issue 26 (run by {@code load-tests/skew/skew.sh}): paced open-loop HTTP load
 * on loopback with uniform or Zipf keys ({@link io.ketama.load.skew.Zipf}), entering on every target
 * alike ({@link io.ketama.load.skew.PacedLoad}); who served each answer, counted from its headers
 * ({@link io.ketama.load.skew.Tally}); each member's CPU from a cgroup of its own
 * ({@link io.ketama.load.skew.CgroupCpu}); the figures of one phase
 * ({@link io.ketama.load.skew.PhaseFigures}) and the report with the targets as ratios within
 * one run ({@link io.ketama.load.skew.Report}).
 */
package io.ketama.load.skew;
