#!/usr/bin/env bash
# Builds the benchmark jar and runs every benchmark (JMH + JOL), writing results into
# benchmarks/results/<date>/ (or the directory given as $1): one JMH JSON per group, results.csv,
# memory.md/.csv and summary.md (the tables of BENCHMARKS.md). About 15-25 minutes on 2 cores.
#
#   benchmarks/run.sh                  # everything
#   benchmarks/run.sh /tmp/out         # into /tmp/out
#   QUICK=1 benchmarks/run.sh          # one short iteration of each benchmark: checks the pipeline
#
# A single benchmark, by hand (any JMH option works):
#   java -XX:+UseCompactObjectHeaders -jar benchmarks/target/benchmarks.jar 'LookupBench.ketama' -p row=2048-v1
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
out="${1:-benchmarks/results/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$out"

./mvnw -q -B -pl benchmarks -am package -DskipTests

jvm=(-Xms3g -Xmx3g -Djdk.attach.allowAttachSelf=true)
# Compact object headers (JDK 24+; a product flag from 25) cut every object header to 8 bytes.
if java -XX:+UseCompactObjectHeaders -version >/dev/null 2>&1; then
  jvm=(-XX:+UseCompactObjectHeaders "${jvm[@]}")
fi
[ -n "${QUICK:-}" ] && jvm+=(-Dbench.quick=true)

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "java: $(java -version 2>&1 | head -2 | tr '\n' ' ')"
  echo "jvm flags: ${jvm[*]}"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/environment.txt"

# Forked benchmark JVMs inherit these flags.
java "${jvm[@]}" -cp benchmarks/target/benchmarks.jar io.ketama.bench.RunAll "$out" 2>&1 | tee "$out/run.log"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/environment.txt"
echo "results in $out (summary.md, results.csv, memory.md, jmh-*.json)"
