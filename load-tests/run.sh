#!/usr/bin/env bash
# Load tests of ketama-router against a real three-member cluster on 127.0.0.1.
#
#   load-tests/run.sh [steady] [migration] [churn]      (no argument: all three, in that order)
#
# For each scenario: starts three JVMs of app/target/quarkus-app/quarkus-run.jar (HTTP 8080-8082,
# Hazelcast 5701-5703, management ports HTTP + 1000 (metrics, admin plane; the admin token is made
# fresh per run), members listed one by one, a cluster name of its own), waits until every
# member answers /q/health/ready, runs the Gatling simulation, and stops the members. The churn
# scenario also kill -9s the third member under load and starts a fourth (HTTP 8083, Hazelcast
# 5704). Only processes this script started are ever stopped: their PIDs are recorded, and an
# EXIT trap stops them on success, failure and Ctrl-C alike. Every wait is bounded.
#
# Results (CSV, PNG, summary) go to load-tests/results/<scenario>/, Gatling's HTML reports to
# load-tests/target/gatling/. Settings, all optional (defaults in brackets):
#   LOAD_RATE [100] requests/s   LOAD_KEYS [5000]   LOAD_ZIPF [1.0]   LOAD_SEED [42]
#   LOAD_JVM_WARMUP [20] seconds of traffic on other keys before each measured load (JIT warm-up)
#   LOAD_STEADY_SECONDS [90]     LOAD_WARMUP_SECONDS [40]   LOAD_STEP_SECONDS [25]
#   LOAD_SHARES [0,1,10,50,100]  LOAD_CHURN_SECONDS [150]   LOAD_KILL_AT [45]   LOAD_START_AT [80]
#   LOAD_HTTP_BASE [8080]        LOAD_HZ_BASE [5701]        LOAD_ORIGIN_DELAY [20ms]
#   LOAD_MGMT_OFFSET [1000] a member's management port is its HTTP port + this (4 or more)
#   LOAD_MEMBER_HEAP [256m]      LOAD_MEMBER_OPTS [] extra JVM options for every member
#   LOAD_SKIP_BUILD [0]          1 = reuse the app and load-tests builds already in target/
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=/dev/null
source .ci/jdk.sh

HOST=127.0.0.1
RATE=${LOAD_RATE:-100}
KEYS=${LOAD_KEYS:-5000}
ZIPF=${LOAD_ZIPF:-1.0}
SEED=${LOAD_SEED:-42}
JVM_WARMUP=${LOAD_JVM_WARMUP:-20}
STEADY_SECONDS=${LOAD_STEADY_SECONDS:-90}
WARMUP_SECONDS=${LOAD_WARMUP_SECONDS:-40}
STEP_SECONDS=${LOAD_STEP_SECONDS:-25}
SHARES=${LOAD_SHARES:-0,1,10,50,100}
CHURN_SECONDS=${LOAD_CHURN_SECONDS:-150}
KILL_AT=${LOAD_KILL_AT:-45}
START_AT=${LOAD_START_AT:-80}
HTTP_BASE=${LOAD_HTTP_BASE:-8080}
HZ_BASE=${LOAD_HZ_BASE:-5701}
ORIGIN_DELAY=${LOAD_ORIGIN_DELAY:-20ms}
MEMBER_HEAP=${LOAD_MEMBER_HEAP:-256m}
SKIP_BUILD=${LOAD_SKIP_BUILD:-0}
RESULTS="$ROOT/load-tests/results"
JAR="$ROOT/app/target/quarkus-app/quarkus-run.jar"

# Management interface of a member: its HTTP port + this (metrics, /q/ketama/migration).
MGMT_OFFSET=${LOAD_MGMT_OFFSET:-1000}
if ! [[ $MGMT_OFFSET =~ ^[0-9]+$ ]] || ((MGMT_OFFSET < 4 || MGMT_OFFSET > 10000)); then
  # 4 or more: the four HTTP ports (three members and the churn's fourth) come first
  echo "LOAD_MGMT_OFFSET must be a whole number in [4, 10000], was '$MGMT_OFFSET'" >&2
  exit 1
fi
# The members' admin token (PUT /q/ketama/migration): fresh per run, handed to the members and to
# Gatling in the environment, never on a command line.
export LOAD_ADMIN_TOKEN=${LOAD_ADMIN_TOKEN:-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')}
HTTP_PORTS=("$HTTP_BASE" "$((HTTP_BASE + 1))" "$((HTTP_BASE + 2))")
HZ_PORTS=("$HZ_BASE" "$((HZ_BASE + 1))" "$((HZ_BASE + 2))")
NEW_HTTP=$((HTTP_BASE + 3))
NEW_HZ=$((HZ_BASE + 3))

# Hazelcast needs these module openings (see ../shared/STACK.md); a jar manifest cannot carry them.
HZ_JVM_FLAGS=(--add-modules java.se
  --add-exports java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.management/sun.management=ALL-UNNAMED
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED)
MEMBER_JVM_FLAGS=(-Xms"$MEMBER_HEAP" -Xmx"$MEMBER_HEAP" -XX:+UseSerialGC)
if java -XX:+UseCompactObjectHeaders -version >/dev/null 2>&1; then
  MEMBER_JVM_FLAGS+=(-XX:+UseCompactObjectHeaders)
fi
# shellcheck disable=SC2206 # word splitting of the user's extra options is intended
MEMBER_JVM_FLAGS+=(${LOAD_MEMBER_OPTS:-})

# --- process bookkeeping: only what this script started is ever signalled -------------------
declare -A MEMBER_PID=()    # HTTP port -> PID of the member JVM started on it
GATLING_PID=""              # session leader of the running Gatling (its process group = its PID)

log() { printf '%s [run.sh] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# The machine's load when a scenario starts and ends: the members and the load generator share its
# cores with whatever else runs, and the figures only mean something beside that.
log_load() { log "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores $1"; }
die() { log "ERROR: $*"; exit 1; }

# Sends TERM, waits up to $2 seconds, then KILL: for one PID this script started.
stop_pid() {
  local pid=$1 grace=$2 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "PID $pid still alive after ${grace}s, sending KILL"
  kill -KILL "$pid" 2>/dev/null || true
}

stop_gatling() {
  [[ -n "$GATLING_PID" ]] || return 0
  if kill -0 "$GATLING_PID" 2>/dev/null; then
    log "stopping Gatling (process group $GATLING_PID)"
    # The group holds Maven and the Gatling JVM it forked: both were started by this script.
    kill -TERM -- "-$GATLING_PID" 2>/dev/null || true
    local i
    for ((i = 0; i < 100; i++)); do
      kill -0 "$GATLING_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$GATLING_PID" 2>/dev/null || true
  fi
  GATLING_PID=""
}

stop_members() {
  local port
  for port in "${!MEMBER_PID[@]}"; do
    log "stopping member :$port (PID ${MEMBER_PID[$port]})"
    stop_pid "${MEMBER_PID[$port]}" 20
    unset "MEMBER_PID[$port]"
  done
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_gatling
  stop_members
  exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

# --- helpers ------------------------------------------------------------------------------
port_busy() { [[ $(ss -Hltn "sport = :$1" 2>/dev/null | wc -l) -gt 0 ]]; }

require_free_ports() {
  local p
  for p in "$@"; do
    port_busy "$p" && die "port $p on this machine is already in use (another cluster or test?); stop it or choose other ports with LOAD_HTTP_BASE / LOAD_HZ_BASE"
  done
  return 0
}

# start_member <http port> <hazelcast port> <comma list of member addresses> <log file> [-Dkey=value ...]
start_member() {
  local http=$1 hz=$2 members=$3 logfile=$4
  shift 4
  QUARKUS_KETAMA_ADMIN_TOKEN="$LOAD_ADMIN_TOKEN" java "${HZ_JVM_FLAGS[@]}" "${MEMBER_JVM_FLAGS[@]}" \
    -Dquarkus.http.host="$HOST" \
    -Dquarkus.http.port="$http" \
    -Dquarkus.management.host="$HOST" \
    -Dquarkus.management.port="$((http + MGMT_OFFSET))" \
    -Dquarkus.ketama.hazelcast.port="$hz" \
    -Dquarkus.ketama.hazelcast.port-auto-increment=false \
    -Dquarkus.ketama.hazelcast.members="$members" \
    -Dquarkus.ketama.hazelcast.cluster-name="$CLUSTER" \
    -Dhazelcast.phone.home.enabled=false \
    '-Dquarkus.log.category."com.hazelcast".level=WARN' \
    -Dketama.router.origin.demo-delay="$ORIGIN_DELAY" \
    "$@" \
    -jar "$JAR" >"$logfile" 2>&1 &
  MEMBER_PID[$http]=$!
  log "started member :$http / hazelcast :$hz (PID ${MEMBER_PID[$http]}), log $logfile"
}

# wait_ready <http port> <timeout seconds>: polls readiness once a second (at most <timeout> polls,
# and not past the deadline), gives up as soon as the member's JVM is gone.
wait_ready() {
  local port=$1 timeout=$2 i start=$SECONDS
  for ((i = 0; i < timeout && SECONDS - start < timeout; i++)); do
    if curl -fsS --max-time 2 "http://$HOST:$port/q/health/ready" >/dev/null 2>&1; then
      log "member :$port ready ($((SECONDS - start))s of waiting)"
      return 0
    fi
    kill -0 "${MEMBER_PID[$port]}" 2>/dev/null || die "member :$port exited before it was ready (see its log)"
    sleep 1
  done
  die "member :$port not ready within ${timeout}s"
}

member_list() { # the Hazelcast addresses of the given ports, one by one (never a range)
  local out="" p
  for p in "$@"; do out+="${out:+,}$HOST:$p"; done
  printf '%s' "$out"
}

start_cluster() { # start_cluster <scenario dir> [-Dkey=value ...]
  local dir=$1 i
  shift
  CLUSTER="ketama-load-$$-$(date +%s)"
  require_free_ports "${HTTP_PORTS[@]}" "${HZ_PORTS[@]}" $(for p in "${HTTP_PORTS[@]}"; do echo $((p + MGMT_OFFSET)); done)
  for i in 0 1 2; do
    start_member "${HTTP_PORTS[$i]}" "${HZ_PORTS[$i]}" "$(member_list "${HZ_PORTS[@]}")" "$dir/member-${HTTP_PORTS[$i]}.log" "$@"
  done
  for i in 0 1 2; do
    wait_ready "${HTTP_PORTS[$i]}" 240
  done
  wait_ring_size "${HTTP_PORTS[0]}" 3 60 || die "the cluster did not form: /ring on :${HTTP_PORTS[0]} does not list 3 members"
}

# The cluster addresses (host:port) of the members on the rings of the member on HTTP port $1,
# one a line, from GET /ring ({"members":[{"address":...},...],"excluded":[...],...}).
ring_members() {
  local body
  body=$(curl -fsS --max-time 2 "http://$HOST:$1/ring" 2>/dev/null) || return 0
  if command -v jq >/dev/null; then
    jq -r '.members[].address' <<<"$body" 2>/dev/null || true
  else
    sed -e 's/.*"members":\[//' -e 's/\],"excluded".*//' <<<"$body" | grep -oE '"address":"[^"]*"' | cut -d'"' -f4
  fi
}

ring_size() { ring_members "$1" | sort -u | wc -l; }

ring_lists() { # ring_lists <http port asked> <hazelcast port looked for>
  ring_members "$1" | grep -qx "$HOST:$2"
}

wait_ring_size() { # wait_ring_size <http port> <size> <timeout seconds>
  local i
  for ((i = 0; i < $3 * 4; i++)); do
    [[ $(ring_size "$1") -eq $2 ]] && return 0
    sleep 0.25
  done
  return 1
}

now_ms() { date +%s%3N; }

# start_gatling <simulation class> [-Dload.x=y ...]: runs Gatling in the background in its own
# process group, so the trap can stop Maven and the Gatling JVM it forks together.
start_gatling() {
  local simulation=$1
  shift
  setsid "$ROOT/mvnw" -q -P load-tests -pl load-tests gatling:test \
    -Dgatling.simulationClass="io.ketama.load.$simulation" \
    -Dload.rate="$RATE" -Dload.keys="$KEYS" -Dload.zipf="$ZIPF" -Dload.seed="$SEED" \
    -Dload.jvmWarmupSeconds="$JVM_WARMUP" -Dload.managementOffset="$MGMT_OFFSET" \
    "$@" &
  GATLING_PID=$!
}

wait_gatling() { # wait_gatling <seconds of load>: allows for the warm-up and Maven's and Gatling's start and reports
  local i limit=$(($1 + JVM_WARMUP + 300))
  for ((i = 0; i < limit; i++)); do
    kill -0 "$GATLING_PID" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$GATLING_PID" 2>/dev/null; then
    stop_gatling
    die "Gatling did not finish within $limit s"
  fi
  local rc=0
  wait "$GATLING_PID" || rc=$?
  GATLING_PID=""
  [[ $rc -eq 0 ]] || die "Gatling failed (exit $rc)"
}

scenario_dir() {
  local dir="$RESULTS/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  printf '%s' "$dir"
}

# --- scenarios ----------------------------------------------------------------------------
run_steady() {
  local dir
  dir=$(scenario_dir steady)
  log "=== steady: $RATE req/s for ${STEADY_SECONDS}s, $KEYS keys, Zipf $ZIPF"
  start_cluster "$dir"
  log_load "as the steady load starts"
  start_gatling SteadyLoadSimulation -Dload.ports="$(IFS=,; echo "${HTTP_PORTS[*]}")" \
    -Dload.seconds="$STEADY_SECONDS" -Dload.out="$dir"
  wait_gatling "$STEADY_SECONDS"
  log_load "as the steady load ends"
  stop_members
}

run_migration() {
  local dir
  dir=$(scenario_dir migration)
  local first_share=${SHARES%%,*}
  log "=== migration: v2 share $SHARES, ${WARMUP_SECONDS}s warm-up, ${STEP_SECONDS}s per step, shadow on"
  start_cluster "$dir" -Dquarkus.ketama.migration.mode=split \
    -Dquarkus.ketama.migration.v2-share="$first_share" -Dquarkus.ketama.migration.shadow=true
  log_load "as the migration load starts"
  start_gatling MigrationSimulation -Dload.ports="$(IFS=,; echo "${HTTP_PORTS[*]}")" \
    -Dload.shares="$SHARES" -Dload.warmupSeconds="$WARMUP_SECONDS" -Dload.stepSeconds="$STEP_SECONDS" \
    -Dload.out="$dir"
  local steps
  steps=$(tr ',' '\n' <<<"$SHARES" | wc -l)
  wait_gatling $((WARMUP_SECONDS + steps * STEP_SECONDS + 20))
  log_load "as the migration load ends"
  stop_members
}

# Sleeps until $1 seconds after $2 (epoch ms), at most $1 seconds.
sleep_until() {
  local target=$(($2 + $1 * 1000)) now
  now=$(now_ms)
  if ((target > now)); then
    sleep "$(awk -v ms=$((target - now)) 'BEGIN { printf "%.3f", ms / 1000 }')"
  fi
}

run_churn() {
  local dir events victim_http victim_hz
  dir=$(scenario_dir churn)
  events="$dir/events.txt"
  victim_http=${HTTP_PORTS[2]}
  victim_hz=${HZ_PORTS[2]}
  ((KILL_AT < START_AT && START_AT + 30 < CHURN_SECONDS)) \
    || die "churn needs LOAD_KILL_AT < LOAD_START_AT and LOAD_START_AT + 30 < LOAD_CHURN_SECONDS (was $KILL_AT, $START_AT, $CHURN_SECONDS)"
  log "=== churn: $RATE req/s for ${CHURN_SECONDS}s; kill -9 :$victim_http at ${KILL_AT}s, start :$NEW_HTTP at ${START_AT}s"
  require_free_ports "$NEW_HTTP" "$NEW_HZ" "$((NEW_HTTP + MGMT_OFFSET))"
  start_cluster "$dir"
  log_load "as the churn load starts"
  : >"$events"
  start_gatling ChurnSimulation -Dload.ports="$(IFS=,; echo "${HTTP_PORTS[*]}")" -Dload.standbyPorts="$NEW_HTTP" \
    -Dload.attempts=3 -Dload.seconds="$CHURN_SECONDS" -Dload.out="$dir" -Dload.events="$events"
  local t0 i
  # Maven and Gatling take a while to start: the simulation appends "<epoch ms> load-start" to the
  # events file, the moment its measured load begins (after the JVM warm-up); the kill and the
  # start are scheduled from that moment.
  for ((i = 0; i < 180; i++)); do
    grep -q ' load-start' "$events" && break
    kill -0 "$GATLING_PID" 2>/dev/null || die "Gatling exited before the load started"
    sleep 1
  done
  grep -q ' load-start' "$events" || die "the churn load did not start within 180 s"
  t0=$(awk '$2 == "load-start" { print $1; exit }' "$events")
  log "measured load starts at $(date -d "@$((t0 / 1000))" +%H:%M:%S); kill -9 at +${KILL_AT}s"

  sleep_until "$KILL_AT" "$t0"
  kill -9 "${MEMBER_PID[$victim_http]}"
  echo "$(now_ms) kill member :$victim_http (PID ${MEMBER_PID[$victim_http]}, hazelcast :$victim_hz)" >>"$events"
  log "kill -9 member :$victim_http"
  wait "${MEMBER_PID[$victim_http]}" 2>/dev/null || true
  unset "MEMBER_PID[$victim_http]"

  for ((i = 0; i < 240; i++)); do # at most 60 s
    if ! ring_lists "${HTTP_PORTS[0]}" "$victim_hz" && ! ring_lists "${HTTP_PORTS[1]}" "$victim_hz"; then
      echo "$(now_ms) removed survivors' rings no longer list :$victim_hz" >>"$events"
      log "survivors dropped :$victim_hz from their rings"
      break
    fi
    sleep 0.25
  done

  sleep_until "$START_AT" "$t0"
  start_member "$NEW_HTTP" "$NEW_HZ" "$(member_list "${HZ_PORTS[0]}" "${HZ_PORTS[1]}" "$NEW_HZ")" "$dir/member-$NEW_HTTP.log"
  echo "$(now_ms) start member :$NEW_HTTP (hazelcast :$NEW_HZ)" >>"$events"
  wait_ready "$NEW_HTTP" 120
  echo "$(now_ms) ready member :$NEW_HTTP" >>"$events"
  for ((i = 0; i < 240; i++)); do # at most 60 s
    if ring_lists "${HTTP_PORTS[0]}" "$NEW_HZ" && ring_lists "${HTTP_PORTS[1]}" "$NEW_HZ"; then
      echo "$(now_ms) joined every ring lists :$NEW_HZ" >>"$events"
      log "member :$NEW_HTTP is in every ring"
      break
    fi
    sleep 0.25
  done

  wait_gatling "$CHURN_SECONDS"
  log_load "as the churn load ends"
  stop_members
}

# --- main -----------------------------------------------------------------------------------
SCENARIOS=("$@")
[[ ${#SCENARIOS[@]} -gt 0 ]] || SCENARIOS=(steady migration churn)
for s in "${SCENARIOS[@]}"; do
  case "$s" in
    steady | migration | churn) ;;
    *) die "unknown scenario '$s'; allowed: steady, migration, churn" ;;
  esac
done

if [[ "$SKIP_BUILD" != 1 ]]; then
  log "building the app (./mvnw -q -pl app -am package -DskipTests)"
  ./mvnw -q -pl app -am package -DskipTests
  log "compiling the load tests"
  ./mvnw -q -P load-tests -pl load-tests test-compile
fi
[[ -f "$JAR" ]] || die "$JAR is missing: build the app first (./mvnw -q -pl app -am package -DskipTests)"

log "java: $(java -version 2>&1 | head -1); results in $RESULTS"
for s in "${SCENARIOS[@]}"; do
  "run_$s"
done
log "done; results in $RESULTS"
