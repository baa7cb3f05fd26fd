/**
 * The fault harness's checker (issue 25): paced client load on every member (or through the direct
 * client, issue 39), every member's view of
 * the rings polled twice a second, faults injected through {@code load-tests/faults/faults.sh} on a
 * schedule, and per fault the figures the issue asks for (requests failed by where they entered,
 * when each side dropped the other, when the sides merged and agreed again, rebuild loops, empty
 * rings, migration changes acknowledged during a split and whether they survived), judged against
 * stated bounds. The analysis ({@link io.ketama.load.faults.FaultFigures} and what it uses) is plain
 * functions of recorded requests and polls, unit-tested in {@code ./mvnw verify}; the parts that
 * talk to members ({@code EntryLoad}, {@code DirectClientLoad}, {@code Observer}, {@code MemberHttp}) and to the script
 * ({@code Injector}) are exercised by running the harness.
 */
package io.ketama.load.faults;
