#!/usr/bin/env bash
# What an admission refusal (503 overloaded) costs a member, beside what a bare answer costs it, in
# one run on 127.0.0.1: the figure issue 9 point 3's bound is made of (load-tests/RESULTS.md runs 12, 14).
#
#   load-tests/refusal-cost.sh            (after ./mvnw -pl app -am package -DskipTests)
#
# One member of app/target/quarkus-app/quarkus-run.jar with an admission limit of 1 and a demo origin
# that answers after 60 s: one miss holds the only slot, so every further /cache/ request is refused.
# wrk (-t2 -c32, keys uniform out of 100k, 5 s warm-up) then loads GET /bench/bare and GET /cache/k/N in
# turn, REFUSAL_ROUNDS times; for each it prints req/s and the member's CPU per request from
# /proc/<pid>/stat, split into user (utime) and kernel (stime) time.
#
# Settings: REFUSAL_SECONDS [15] measured seconds per load   REFUSAL_ROUNDS [2]
#   REFUSAL_PORT_BASE [19500] (+0 HTTP, +1 management, +2 Hazelcast)   REFUSAL_JAR [app/target/quarkus-app/quarkus-run.jar]
# Needs wrk and curl. Only the member this script started is signalled; every wait is bounded.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=/dev/null
source .ci/jdk.sh

SECS=${REFUSAL_SECONDS:-15}
ROUNDS=${REFUSAL_ROUNDS:-2}
BASE=${REFUSAL_PORT_BASE:-19500}
JAR=${REFUSAL_JAR:-$ROOT/app/target/quarkus-app/quarkus-run.jar}
LUA="$ROOT/load-tests/throughput/keys.lua"
HOST=127.0.0.1
HTTP=$BASE MGMT=$((BASE + 1)) HZ=$((BASE + 2))

die() { echo "refusal-cost: $*" >&2; exit 1; }
for v in SECS ROUNDS BASE; do [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number, was '${!v}'"; done
((SECS >= 1 && ROUNDS >= 1 && BASE >= 1024 && BASE + 2 <= 65535)) || die "need REFUSAL_SECONDS >= 1, REFUSAL_ROUNDS >= 1, REFUSAL_PORT_BASE in [1024, 65533]"
command -v wrk >/dev/null || die "wrk is missing (Debian/Ubuntu: apt-get install wrk)"
command -v curl >/dev/null || die "curl is missing"
[[ -f $JAR ]] || die "$JAR is missing: build it first (./mvnw -pl app -am package -DskipTests)"
OUT=$(mktemp -d)
TICKS=$(getconf CLK_TCK)

java --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED \
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  -Xms512m -Xmx512m -XX:+UseSerialGC \
  -Dquarkus.http.host=$HOST -Dquarkus.http.port=$HTTP -Dquarkus.management.host=$HOST -Dquarkus.management.port=$MGMT \
  -Dquarkus.ketama.hazelcast.port=$HZ -Dquarkus.ketama.hazelcast.port-auto-increment=false \
  -Dquarkus.ketama.hazelcast.members=$HOST:$HZ -Dquarkus.ketama.hazelcast.cluster-name="refusal-cost-$$" \
  -Dhazelcast.phone.home.enabled=false '-Dquarkus.log.category."com.hazelcast".level=WARN' \
  -Dketama.router.origin.demo-delay=60s -Dketama.router.admission.max-in-flight=1 \
  -jar "$JAR" >"$OUT/member.log" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$OUT"' EXIT
for ((i = 0; i < 240; i++)); do
  curl -fsS --max-time 1 -o /dev/null "http://$HOST:$HTTP/bench/bare" 2>/dev/null && break
  kill -0 "$PID" 2>/dev/null || die "the member exited at start: $(tail -20 "$OUT/member.log")"
  sleep 0.5
done
# hold the one admission slot: this miss waits 60 s for the demo origin
curl -s -o /dev/null --max-time 90 "http://$HOST:$HTTP/cache/hold-the-slot" &
sleep 1
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$HOST:$HTTP/cache/k/1")
[[ $code == 503 ]] || die "a second /cache/ request answered $code, not 503: the slot is not held"

ticks() { awk '{print $14, $15}' "/proc/$PID/stat"; } # utime stime
measure() { # measure <label> <path prefix>
  wrk -t2 -c32 -d5s -s "$LUA" "http://$HOST:$HTTP/" -- random "$2" 100000 >/dev/null 2>&1
  local before after n rps
  before=$(ticks)
  wrk -t2 -c32 -d"${SECS}s" -s "$LUA" "http://$HOST:$HTTP/" -- random "$2" 100000 >"$OUT/$1.wrk" 2>&1
  after=$(ticks)
  n=$(awk '/requests in/{print $1}' "$OUT/$1.wrk")
  rps=$(awk '/Requests\/sec/{print $2}' "$OUT/$1.wrk")
  echo "$before $after" | awk -v label="$1" -v n="$n" -v rps="$rps" -v t="$TICKS" -v non2xx="$(awk '/Non-2xx/{print $5}' "$OUT/$1.wrk")" \
    '{ u = ($3 - $1) / t * 1e6 / n; s = ($4 - $2) / t * 1e6 / n;
       printf "%-8s %10.0f req/s  %9d requests  non-2xx %9d  member CPU %5.1f µs/req (user %4.1f, kernel %4.1f)\n", label, rps, n, non2xx, u + s, u, s }'
}
echo "member PID $PID on :$HTTP; wrk -t2 -c32, ${SECS}s per load; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= ROUNDS; r++)); do
  measure bare "/bench/bare?k="
  measure refused /cache/k/
done
