#!/usr/bin/env bash
# Capacity of ketama-router beside nginx doing the same routing job, in one run on 127.0.0.1.
#
#   load-tests/throughput.sh [nginx] [service] [bare] [local] [overload] [failover] [profile]
#   (no argument: nginx service bare local overload failover, in that order; profile only when named)
#
# Setups, each loaded by wrk (-t2 -c32, random keys out of 100k, a warm-up run first, then a measured run):
#   nginx     the yardstick: an nginx router with `hash $request_uri consistent` in front of three
#             owner server blocks answering 1 KiB, upstream keep-alive
#   service   three members of app/target/quarkus-app/quarkus-run.jar with an HTTP origin answering
#             1 KiB with Cache-Control: max-age=3600 (the same nginx, another server block), caches warmed first, load entering on one
#             member: GET /cache/k/N, so 2/3 of the keys are forwarded
#   bare      a bare endpoint of the same app on the same member (GET /bench/bare, a constant 1 KiB)
#   local     local hits: only keys the entry member owns, all cached, entering on that member
#   purging   the service setup again while one curl sends PURGE /cache/k/N for keys 1, 2, ... at
#             THROUGHPUT_PURGE_RATE a second to the entry member (each a purge confirmed by all three
#             members): the request path's p50/p99 beside the service setup's, rounds interleaved
#   overload  issue 9 point 3, with the open-loop generator of this module (io.ketama.load.throughput.Overload):
#             peak = the higher goodput of two closed loops (32 and 256 in flight); then 0.5x and 2x that rate at fixed arrival
#             times over up to 1024 connections
#             (latency counted from the intended send time); target: goodput(2x) >= 0.8 peak and
#             p99(2x) <= 5 p99(0.5x). Load spread round-robin over the three members (THROUGHPUT_OVERLOAD_ENTRY=one: entry member only)
#   overload-nginx  the same generator and phases against nginx doing the routing job: the plain router,
#             then a router with a bulkhead (limit_conn: THROUGHPUT_NGINX_INFLIGHT requests under way, past
#             it 503 with Retry-After, as a member's admission limit): what the yardstick itself does at 2x
#   failover  issue 9 point 7: wrk saturates the entry member and the last member is killed with
#             kill -9 a few seconds in; counts failed requests (non-2xx, socket errors)
#   profile   a JFR recording of the entry member under the service load (threads started, hot methods, CPU)
#   direct    issue 39 point 4, one Java generator (load-tests/direct, THROUGHPUT_DIRECT_THREADS threads, closed loop)
#             sending the same keys three ways in each round: (a) to every member alike (2/3 forwarded),
#             (b) through the direct client (client/: rings followed through a Hazelcast client, each key
#             to its owner's HTTP port), (c) to the nginx router; CPU per answer of the serving processes
#             (members and origin nginx; nginx for (c)), the generator's own beside it; then the same three on the
#             wire loaded by three wrk at once ((b): each wrk to one member with the keys it owns, what the direct
#             client sends), for the serving side without the Java generator's weight. Targets: (b) <= 0.6x (a)'s
#             CPU per answer and below (c)'s. Then 20 changes (migration steps, the last member stopped and
#             started) with the client's rings compared with member 0's /route for 10,000 keys after each
#   transports  the service setup once per forward transport (THROUGHPUT_TRANSPORTS, set with
#             -D$THROUGHPUT_TRANSPORT_KEY=<name>), each on a fresh warmed cluster, every round
#             beside an nginx run: the transport comparison, in one run
# For each setup: req/s, p50, p99, errors, and CPU time per request of the setup's processes (utime +
# stime deltas from /proc/<pid>/stat: nginx master and workers; the three members plus the origin
# nginx), the load generator's CPU, and what the rest of the machine used meanwhile. Then the ratios.
#
# Prerequisites: a JDK 17+, curl, nginx (Debian: nginx-light) and wrk (Debian: wrk). Run as root on a
# Debian/Ubuntu machine with a package mirror, the script installs the missing ones with apt-get;
# otherwise it says what to install. Every address is 127.0.0.1; ports: THROUGHPUT_PORT_BASE [19000]
# + 80 (nginx router), 81-83 (nginx owners), 90 (origin), 100-102 (members' HTTP), 200-202 (members'
# management), 701-703 (Hazelcast). Only processes this script started are ever signalled (their PIDs
# are recorded; an EXIT trap stops them on success, failure and Ctrl-C); every wait is bounded.
#
# Settings (environment, defaults in brackets):
#   THROUGHPUT_SECONDS [20] measured seconds per setup   THROUGHPUT_WARMUP [10] wrk seconds before each
#   THROUGHPUT_ROUNDS [1] rounds of the wrk setups, interleaved (nginx, service, bare, local, nginx, ...):
#                         on a shared machine the ratios are taken per round, then their median
#                         (later rounds warm up for at most 3 s)
#   THROUGHPUT_KEYS [100000]   THROUGHPUT_THREADS [2]   THROUGHPUT_CONNECTIONS [32]
#   THROUGHPUT_PORT_BASE [19000]   THROUGHPUT_MEMBER_HEAP [512m]
#   THROUGHPUT_MEMBER_OPTS [] extra member JVM options; {i} in them becomes the member's index 0, 1, 2
#                             (e.g. -Dketama.router.forward.binary.port=1930{i})
#   THROUGHPUT_PURGE_RATE [20] purges a second in the purging setup
#   THROUGHPUT_BARE_PATH [/bench/bare]   THROUGHPUT_FAILOVER_SECONDS [20]   THROUGHPUT_KILL_AT [5]
#   THROUGHPUT_OVERLOAD_ENTRY [all] (or one)   THROUGHPUT_OVERLOAD_CONNECTIONS [1024]   THROUGHPUT_OVERLOAD_SECONDS [20]
#   THROUGHPUT_MEMBER_CPUS [] CPUs the members and nginx may run on (taskset -c list, e.g. 1); THROUGHPUT_GENERATOR_CPUS []
#                            the same for the overload generator (e.g. 0): to see point 3 with the generator
#                            off the members' cores (then "the load that saturates the cluster" is that of those cores)
#   THROUGHPUT_NGINX_INFLIGHT [128] the shedding nginx router's limit of requests under way (limit_conn)
#   THROUGHPUT_OVERLOAD_RATE [0] requests/s of the overload phase (0: twice the measured peak); a fixed rate
#                            compares two builds or settings at the same offered load
#   THROUGHPUT_HUGE_PAGES [1] members run with -XX:+UseTransparentHugePages where the kernel offers THP
#                            (as k8s/Dockerfile runs them); 0: 4 KB pages
#   THROUGHPUT_PROFILE_SECONDS [10]   THROUGHPUT_LABEL [] free text for the summary (e.g. the transport)
#   THROUGHPUT_TRANSPORTS [hazelcast http binary]   THROUGHPUT_TRANSPORT_KEY [ketama.router.forward.transport]
#   THROUGHPUT_QUIET_LOCK [] a file held from the build to the end of the run, with its PID (taken after waiting, at most
#                            15 min, while another live run holds it or any other quiet-* file of its directory
#                            exists), removed at the end
#   THROUGHPUT_SKIP_BUILD [0]  1 = reuse app/target/quarkus-app as built
#   THROUGHPUT_JAR [app/target/quarkus-app/quarkus-run.jar] the service to measure (another build: no build step)
#   THROUGHPUT_OUT [load-tests/results/throughput/<time>]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=/dev/null
source .ci/jdk.sh

HOST=127.0.0.1
SECS=${THROUGHPUT_SECONDS:-20}
WARMUP=${THROUGHPUT_WARMUP:-10}
ROUNDS=${THROUGHPUT_ROUNDS:-1}
KEYS=${THROUGHPUT_KEYS:-100000}
THREADS=${THROUGHPUT_THREADS:-2}
CONNS=${THROUGHPUT_CONNECTIONS:-32}
BASE=${THROUGHPUT_PORT_BASE:-19000}
MEMBER_HEAP=${THROUGHPUT_MEMBER_HEAP:-512m}
BARE_PATH=${THROUGHPUT_BARE_PATH:-/bench/bare}
PURGE_RATE=${THROUGHPUT_PURGE_RATE:-20}
# the members' admin token (PURGE needs it); made per run, never printed
ADMIN_TOKEN="throughput-$$-$(date +%s%N)"
export QUARKUS_KETAMA_ADMIN_TOKEN=$ADMIN_TOKEN
PURGER_PID=""
declare -A PURGES_SENT=() PURGES_OK=()
FAILOVER_SECONDS=${THROUGHPUT_FAILOVER_SECONDS:-20}
KILL_AT=${THROUGHPUT_KILL_AT:-5}
OVERLOAD_ENTRY=${THROUGHPUT_OVERLOAD_ENTRY:-all}
OVERLOAD_CONNECTIONS=${THROUGHPUT_OVERLOAD_CONNECTIONS:-1024}
OVERLOAD_SECONDS=${THROUGHPUT_OVERLOAD_SECONDS:-20}
OVERLOAD_RATE=${THROUGHPUT_OVERLOAD_RATE:-0}
NGINX_INFLIGHT=${THROUGHPUT_NGINX_INFLIGHT:-128}
MEMBER_CPUS=${THROUGHPUT_MEMBER_CPUS:-}
GENERATOR_CPUS=${THROUGHPUT_GENERATOR_CPUS:-}
HUGE_PAGES=${THROUGHPUT_HUGE_PAGES:-1}
PROFILE_SECONDS=${THROUGHPUT_PROFILE_SECONDS:-10}
read -r -a TRANSPORTS <<<"${THROUGHPUT_TRANSPORTS:-hazelcast http binary}"
TRANSPORT_KEY=${THROUGHPUT_TRANSPORT_KEY:-ketama.router.forward.transport}
LABEL=${THROUGHPUT_LABEL:-}
QUIET_LOCK=${THROUGHPUT_QUIET_LOCK:-}
SKIP_BUILD=${THROUGHPUT_SKIP_BUILD:-0}
OUT=${THROUGHPUT_OUT:-$ROOT/load-tests/results/throughput/$(date +%Y%m%d-%H%M%S)}
JAR=${THROUGHPUT_JAR:-$ROOT/app/target/quarkus-app/quarkus-run.jar}
[[ -n ${THROUGHPUT_JAR:-} ]] && SKIP_BUILD=1
LUA="$ROOT/load-tests/throughput/keys.lua"

ROUTER_PORT=$((BASE + 80))
SHED_ROUTER_PORT=$((BASE + 84))
OWNER_PORTS=($((BASE + 81)) $((BASE + 82)) $((BASE + 83)))
ORIGIN_PORT=$((BASE + 90))
HTTP_PORTS=($((BASE + 100)) $((BASE + 101)) $((BASE + 102)))
MGMT_PORTS=($((BASE + 200)) $((BASE + 201)) $((BASE + 202)))
HZ_PORTS=($((BASE + 701)) $((BASE + 702)) $((BASE + 703)))
ENTRY=${HTTP_PORTS[0]}
VICTIM=${HTTP_PORTS[2]}

log() { printf '%s [throughput] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
num() { [[ $2 =~ ^[0-9]+$ ]] || die "$1 must be a whole number, was '$2'"; }
for v in SECS:THROUGHPUT_SECONDS WARMUP:THROUGHPUT_WARMUP ROUNDS:THROUGHPUT_ROUNDS KEYS:THROUGHPUT_KEYS THREADS:THROUGHPUT_THREADS \
  CONNS:THROUGHPUT_CONNECTIONS BASE:THROUGHPUT_PORT_BASE FAILOVER_SECONDS:THROUGHPUT_FAILOVER_SECONDS \
  KILL_AT:THROUGHPUT_KILL_AT OVERLOAD_CONNECTIONS:THROUGHPUT_OVERLOAD_CONNECTIONS \
  OVERLOAD_SECONDS:THROUGHPUT_OVERLOAD_SECONDS OVERLOAD_RATE:THROUGHPUT_OVERLOAD_RATE NGINX_INFLIGHT:THROUGHPUT_NGINX_INFLIGHT PROFILE_SECONDS:THROUGHPUT_PROFILE_SECONDS PURGE_RATE:THROUGHPUT_PURGE_RATE; do
  var=${v%%:*}
  num "${v#*:}" "${!var}"
done
((NGINX_INFLIGHT >= 1)) || die "THROUGHPUT_NGINX_INFLIGHT must be at least 1, was $NGINX_INFLIGHT"
((PURGE_RATE >= 1)) || die "THROUGHPUT_PURGE_RATE must be at least 1, was $PURGE_RATE"
((ROUNDS >= 1 && ROUNDS <= 9)) || die "THROUGHPUT_ROUNDS must be in [1, 9], was $ROUNDS"
((SECS >= 1 && KEYS >= 3 && THREADS >= 1 && CONNS >= THREADS)) || die "need THROUGHPUT_SECONDS >= 1, THROUGHPUT_KEYS >= 3, 1 <= THROUGHPUT_THREADS <= THROUGHPUT_CONNECTIONS"
((BASE >= 1024 && BASE + 703 <= 65535)) || die "THROUGHPUT_PORT_BASE must be in [1024, 64832], was $BASE"
((KILL_AT >= 1 && KILL_AT + 3 <= FAILOVER_SECONDS)) || die "need 1 <= THROUGHPUT_KILL_AT <= THROUGHPUT_FAILOVER_SECONDS - 3 (were $KILL_AT, $FAILOVER_SECONDS)"
[[ $HUGE_PAGES == 0 || $HUGE_PAGES == 1 ]] || die "THROUGHPUT_HUGE_PAGES must be 0 or 1, was '$HUGE_PAGES'"
pinned() { # pinned <cpu list or empty>: the command prefix that runs a program on those CPUs only
  [[ -z $1 ]] && return 0
  command -v taskset >/dev/null || die "taskset is missing (util-linux), needed for the CPU list '$1'"
  printf '%s\n' taskset -c "$1"
}
for v in MEMBER_CPUS:THROUGHPUT_MEMBER_CPUS GENERATOR_CPUS:THROUGHPUT_GENERATOR_CPUS; do
  var=${v%%:*}
  [[ -z ${!var} || ${!var} =~ ^[0-9]+([,-][0-9]+)*$ ]] || die "${v#*:} must be a CPU list such as 1 or 0-1 or 0,2, was '${!var}'"
done
mapfile -t MEMBER_PIN < <(pinned "$MEMBER_CPUS")
mapfile -t GENERATOR_PIN < <(pinned "$GENERATOR_CPUS")
[[ $OVERLOAD_ENTRY == all || $OVERLOAD_ENTRY == one ]] || die "THROUGHPUT_OVERLOAD_ENTRY must be 'all' or 'one', was '$OVERLOAD_ENTRY'"

STEPS=("$@")
[[ ${#STEPS[@]} -gt 0 ]] || STEPS=(nginx service bare local overload failover)
for s in "${STEPS[@]}"; do
  case "$s" in
    nginx | service | purging | bare | local | overload | overload-nginx | failover | profile | transports | direct) ;;
    *) die "unknown step '$s'; allowed: nginx, service, purging, bare, local, overload, overload-nginx, failover, profile, transports, direct" ;;
  esac
done
wants() { local s; for s in "${STEPS[@]}"; do [[ $s == "$1" ]] && return 0; done; return 1; }
wants_members() { wants service || wants purging || wants bare || wants local || wants overload || wants failover || wants profile || wants direct; }
wants_jar() { wants_members || wants transports; }

# --- prerequisites ---------------------------------------------------------------------------
install_hint="apt-get install nginx-light wrk   (Debian/Ubuntu; elsewhere: nginx with the upstream hash module, and wrk 4.x)"
missing=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]} > 0)); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing ${missing[*]} with apt-get"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 \
      || die "apt-get could not install ${missing[*]}; install them by hand: $install_hint"
  else
    die "missing ${missing[*]}; install them (as root): $install_hint"
  fi
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
CLK_TCK=$(getconf CLK_TCK)
[[ -r /proc/self/stat ]] || die "/proc is needed for the CPU figures (Linux only)"

# --- process bookkeeping: only what this script started is ever signalled -----------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ketama-throughput.XXXXXX")
NGINX_PID=""
NGINX_WORKERS=()
declare -A MEMBER_PID=()   # HTTP port -> PID of the member JVM started on it
CHILD_PID=""               # the load generator or warm-up running in the background
LOCK_MADE=0

stop_pid() { # stop_pid <pid> <grace seconds>: TERM, bounded wait, then KILL; for one PID this script started
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

stop_nginx() {
  [[ -n $NGINX_PID ]] || return 0
  log "stopping nginx (master PID $NGINX_PID, workers ${NGINX_WORKERS[*]:-none})"
  stop_pid "$NGINX_PID" 10
  local w
  for w in "${NGINX_WORKERS[@]}"; do
    # a worker outlives its master only if the master was killed; these PIDs were read as its children
    stop_pid "$w" 5
  done
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=""
}

stop_members() {
  local port
  for port in "${!MEMBER_PID[@]}"; do
    log "stopping member :$port (PID ${MEMBER_PID[$port]})"
    stop_pid "${MEMBER_PID[$port]}" 20
    wait "${MEMBER_PID[$port]}" 2>/dev/null || true
    unset "MEMBER_PID[$port]"
  done
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n $CHILD_PID ]]; then stop_pid "$CHILD_PID" 5; fi
  if [[ -n $PURGER_PID ]]; then stop_pid "$PURGER_PID" 2; fi
  if [[ -n ${AGREE_PID:-} ]]; then stop_pid "$AGREE_PID" 5; fi
  stop_members
  stop_nginx
  if ((LOCK_MADE)) && ! lock_held_by_other "$QUIET_LOCK"; then rm -f "$QUIET_LOCK"; fi
  if [[ -d $OUT ]]; then cp -f "$WORK"/member-*.log "$WORK"/nginx-error.log "$OUT"/ 2>/dev/null || true; fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

# run_child <timeout seconds> <output file> <command...>: runs a generator in the background (so the
# traps stay live), waits for it at most <timeout> seconds, returns its exit status.
run_child() {
  local limit=$1 outfile=$2 i rc=0
  shift 2
  "$@" >"$outfile" 2>"$outfile.err" &
  CHILD_PID=$!
  for ((i = 0; i < limit * 10; i++)); do
    kill -0 "$CHILD_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$CHILD_PID" 2>/dev/null; then
    stop_pid "$CHILD_PID" 5
    CHILD_PID=""
    die "$1 did not finish within ${limit}s"
  fi
  wait "$CHILD_PID" || rc=$?
  CHILD_PID=""
  return "$rc"
}

# --- measuring helpers ---------------------------------------------------------------------------
port_busy() { [[ $(ss -Hltn "sport = :$1" 2>/dev/null | wc -l) -gt 0 ]]; }
require_free_ports() {
  local p
  for p in "$@"; do
    port_busy "$p" && die "port $p is already in use (another run?); stop it or choose other ports with THROUGHPUT_PORT_BASE"
  done
  return 0
}

proc_ticks() { # summed utime+stime (clock ticks) of the given PIDs; a PID that is gone counts 0
  local total=0 pid stat rest
  local -a f
  for pid in "$@"; do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    rest=${stat##*) }
    read -r -a f <<<"$rest"
    total=$((total + f[11] + f[12]))
  done
  echo "$total"
}
children_ticks() { # CPU of this script's waited-for children (cutime + cstime): the load generator
  local stat rest
  local -a f
  stat=$(cat /proc/$$/stat)
  rest=${stat##*) }
  read -r -a f <<<"$rest"
  echo $((f[13] + f[14]))
}
machine_ticks() { # busy ticks of the whole machine (every CPU): user nice system irq softirq steal
  local -a f
  read -r -a f </proc/stat
  echo $((f[1] + f[2] + f[3] + f[6] + f[7] + f[8]))
}
nginx_pids() { echo "$NGINX_PID" "${NGINX_WORKERS[@]}"; }
member_pids() { local p; for p in "${HTTP_PORTS[@]}"; do [[ -n ${MEMBER_PID[$p]:-} ]] && echo "${MEMBER_PID[$p]}"; done; return 0; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
kv() { # kv <key> <line>: the value of key=value in a line
  local k=$1 line=$2
  sed -nE "s/.*(^| )$k=([^ ]*).*/\\2/p" <<<"$line"
}
calc() { awk "BEGIN { $1 }"; }

declare -A RPS=() P50=() P99=() CPU_US=() ERRORS=() GEN_CORES=() OTHER_CORES=() GEN_US=()
ROWS=()

# run_wrk <seconds> <output file> <url> <keys.lua args...>: one wrk run, bounded
run_wrk() {
  local seconds=$1 outfile=$2 url=$3
  shift 3
  run_child $((seconds + 30)) "$outfile" wrk -t"$THREADS" -c"$CONNS" -d"${seconds}s" --timeout 5s -s "$LUA" "$url" -- "$@"
}

# measure <setup> <round> <url> <setup pids (space separated)> <lua args...>: results under "<setup>/<round>"
measure() {
  local setup=$1 round=$2 url=$3 pids=$4
  shift 4
  local name="$setup/$round" file="$setup-$round" warm=$WARMUP
  ((round == 1 || warm <= 3)) || warm=3
  local -a setup_pids
  read -r -a setup_pids <<<"$pids"
  log "[$name] warm-up: ${warm}s of $url"
  if ((warm > 0)); then
    run_wrk "$warm" "$WORK/$file-warmup.out" "$url" "$@" || die "[$name] wrk warm-up failed: $(cat "$WORK/$file-warmup.out.err")"
  fi
  local cpu0 gen0 all0 t0 cpu1 gen1 all1 t1 line
  cpu0=$(proc_ticks "${setup_pids[@]}"); gen0=$(children_ticks); all0=$(machine_ticks); t0=$(date +%s%N)
  log "[$name] measuring ${SECS}s: wrk -t$THREADS -c$CONNS -d${SECS}s --timeout 5s -s $LUA $url -- $*"
  run_wrk "$SECS" "$OUT/$file.wrk" "$url" "$@" || die "[$name] wrk failed: $(cat "$OUT/$file.wrk.err")"
  cpu1=$(proc_ticks "${setup_pids[@]}"); gen1=$(children_ticks); all1=$(machine_ticks); t1=$(date +%s%N)
  line=$(grep '^wrk ' "$OUT/$file.wrk") || die "[$name] no result line from wrk: $(cat "$OUT/$file.wrk" "$OUT/$file.wrk.err")"
  local req dur wall
  req=$(kv requests "$line"); dur=$(kv duration_us "$line")
  wall=$(calc "print ($t1 - $t0) / 1e9")
  RPS[$name]=$(calc "printf \"%.0f\", $req / ($dur / 1e6)")
  P50[$name]=$(calc "printf \"%.2f\", $(kv p50_us "$line") / 1000")
  P99[$name]=$(calc "printf \"%.2f\", $(kv p99_us "$line") / 1000")
  CPU_US[$name]=$(calc "printf \"%.1f\", ($cpu1 - $cpu0) * 1e6 / $CLK_TCK / $req")
  ERRORS[$name]=$(($(kv non2xx "$line") + $(kv connect_errors "$line") + $(kv read_errors "$line") + $(kv write_errors "$line") + $(kv timeouts "$line")))
  GEN_CORES[$name]=$(calc "printf \"%.2f\", ($gen1 - $gen0) / $CLK_TCK / $wall")
  OTHER_CORES[$name]=$(calc "x = (($all1 - $all0) - ($cpu1 - $cpu0) - ($gen1 - $gen0)) / $CLK_TCK / $wall; printf \"%.2f\", (x < 0 ? 0 : x)")
  ROWS+=("$name")
  log "[$name] ${RPS[$name]} req/s, p50 ${P50[$name]} ms, p99 ${P99[$name]} ms, ${CPU_US[$name]} us CPU/req, errors ${ERRORS[$name]}"
}

# measure_java <setup> <round> <setup pids (comma separated)> <generator args...>: the direct step's generator,
# which measures its own window (after its warm-up) and the setup's CPU; results under "<setup>/<round>"
DIRECT_THREADS=${THROUGHPUT_DIRECT_THREADS:-32}
measure_java() {
  local setup=$1 round=$2 pids=$3
  shift 3
  local name="$setup/$round" file="$setup-$round" warm=$WARMUP line
  ((round == 1 || warm <= 3)) || warm=3
  log "[$name] ${warm}s warm-up, ${SECS}s measured: java -jar ketama-direct-load.jar $*"
  run_child $((warm + SECS + 90)) "$OUT/$file.out" "${GENERATOR_PIN[@]}" java -Xms256m -Xmx1g -XX:+UseSerialGC -jar "$DIRECT_JAR" \
    --threads="$DIRECT_THREADS" --keys="$KEYS" --warm="$warm" --seconds="$SECS" --pids="$pids" --clk-tck="$CLK_TCK" "$@" \
    || die "[$name] the generator failed: $(tail -20 "$OUT/$file.out" "$OUT/$file.out.err")"
  line=$(grep '^direct-load ' "$OUT/$file.out") || die "[$name] no result line: $(cat "$OUT/$file.out" "$OUT/$file.out.err")"
  RPS[$name]=$(kv rps "$line")
  P50[$name]=$(calc "printf \"%.2f\", $(kv p50_us "$line") / 1000")
  P99[$name]=$(calc "printf \"%.2f\", $(kv p99_us "$line") / 1000")
  CPU_US[$name]=$(kv setup_cpu_us "$line")
  GEN_US[$name]=$(kv generator_cpu_us "$line")
  ERRORS[$name]=$(kv errors "$line")
  GEN_CORES[$name]=$(kv generator_cores "$line")
  OTHER_CORES[$name]=$(kv other_cores "$line")
  ROWS+=("$name")
  log "[$name] ${RPS[$name]} req/s, p50 ${P50[$name]} ms, p99 ${P99[$name]} ms, ${CPU_US[$name]} us CPU/answer (setup), ${GEN_US[$name]} us (generator), errors ${ERRORS[$name]}"
}

# measure_wrk3 <setup> <round> <setup pids (space separated)> <url>@<lua args> x3: three wrk at once (-t1,
# THROUGHPUT_CONNECTIONS/3 connections each), one a target; requests summed, p50 the request-weighted mean of
# the three, p99 the highest of the three (an upper bound); results under "<setup>/<round>"
measure_wrk3() {
  local setup=$1 round=$2 pids=$3
  shift 3
  local name="$setup/$round" file="$setup-$round" warm=$WARMUP conns=$((CONNS / 3)) i
  ((round == 1 || warm <= 3)) || warm=3
  ((conns >= 1)) || conns=1
  local -a setup_pids specs=("$@") waits=()
  read -r -a setup_pids <<<"$pids"
  run3() { # run3 <seconds> <file prefix>
    local spec url args
    waits=()
    for i in 0 1 2; do
      spec=${specs[$i]}; url=${spec%%@*}; args=${spec#*@}
      # shellcheck disable=SC2086 # the lua arguments are words
      timeout $(($1 + 30)) wrk -t1 -c"$conns" -d"${1}s" --timeout 5s -s "$LUA" "$url" -- $args >"$2-$i.wrk" 2>"$2-$i.wrk.err" &
      waits+=($!)
    done
    for i in 0 1 2; do wait "${waits[$i]}" || die "[$name] wrk $i failed: $(cat "$2-$i.wrk.err")"; done
  }
  log "[$name] warm-up: ${warm}s, three wrk: $*"
  ((warm > 0)) && run3 "$warm" "$WORK/$file-warmup"
  local cpu0 gen0 all0 t0 cpu1 gen1 all1 t1 line req=0 dur=0 p50w=0 p99=0 errors=0 r d
  cpu0=$(proc_ticks "${setup_pids[@]}"); gen0=$(children_ticks); all0=$(machine_ticks); t0=$(date +%s%N)
  log "[$name] measuring ${SECS}s"
  run3 "$SECS" "$OUT/$file"
  cpu1=$(proc_ticks "${setup_pids[@]}"); gen1=$(children_ticks); all1=$(machine_ticks); t1=$(date +%s%N)
  for i in 0 1 2; do
    line=$(grep '^wrk ' "$OUT/$file-$i.wrk") || die "[$name] no result line from wrk $i"
    r=$(kv requests "$line"); d=$(kv duration_us "$line")
    req=$((req + r)); ((d > dur)) && dur=$d
    p50w=$(calc "print $p50w + $r * $(kv p50_us "$line")")
    p99=$(calc "v = $(kv p99_us "$line"); print (v > $p99 ? v : $p99)")
    errors=$((errors + $(kv non2xx "$line") + $(kv connect_errors "$line") + $(kv read_errors "$line") + $(kv write_errors "$line") + $(kv timeouts "$line")))
  done
  local wall
  wall=$(calc "print ($t1 - $t0) / 1e9")
  RPS[$name]=$(calc "printf \"%.0f\", $req / ($dur / 1e6)")
  P50[$name]=$(calc "printf \"%.2f\", $p50w / $req / 1000")
  P99[$name]=$(calc "printf \"%.2f\", $p99 / 1000")
  CPU_US[$name]=$(calc "printf \"%.1f\", ($cpu1 - $cpu0) * 1e6 / $CLK_TCK / $req")
  ERRORS[$name]=$errors
  GEN_CORES[$name]=$(calc "printf \"%.2f\", ($gen1 - $gen0) / $CLK_TCK / $wall")
  OTHER_CORES[$name]=$(calc "x = (($all1 - $all0) - ($cpu1 - $cpu0) - ($gen1 - $gen0)) / $CLK_TCK / $wall; printf \"%.2f\", (x < 0 ? 0 : x)")
  ROWS+=("$name")
  log "[$name] ${RPS[$name]} req/s, p50 ${P50[$name]} ms, p99 ${P99[$name]} ms (highest of three), ${CPU_US[$name]} us CPU/req, errors ${ERRORS[$name]}"
}

# --- nginx: the yardstick router, its owners, and the service's origin ------------------------------
body_1k() { # 1024 bytes of printable text, no quotes or backslashes
  local s="" i
  for ((i = 0; i < 16; i++)); do s+="ketama-router throughput body, 1 KiB; line $(printf '%02d' "$i") of 16 ...........\\n"; done
  # each line is 64 bytes with its \n escape counted as one byte by nginx
  printf '%s' "$s"
}

start_nginx() {
  local body conf="$WORK/nginx.conf"
  body=$(body_1k)
  mkdir -p "$WORK/nginx-temp"
  cat >"$conf" <<EOF
# generated by load-tests/throughput.sh: loopback only
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx-temp/body;
  proxy_temp_path $WORK/nginx-temp/proxy;
  fastcgi_temp_path $WORK/nginx-temp/fastcgi;
  uwsgi_temp_path $WORK/nginx-temp/uwsgi;
  scgi_temp_path $WORK/nginx-temp/scgi;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  default_type application/octet-stream;

  # the yardstick: nginx's consistent-hash routing hop (ketama, 160 points per weight) to three owners
  upstream owners {
    hash \$request_uri consistent;
    server $HOST:${OWNER_PORTS[0]};
    server $HOST:${OWNER_PORTS[1]};
    server $HOST:${OWNER_PORTS[2]};
    keepalive 64;
  }
  server {
    listen $HOST:$ROUTER_PORT;
    location / {
      proxy_pass http://owners;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
  # the same router with a bulkhead, for overload-nginx: at most $NGINX_INFLIGHT requests under way
  # (limit_conn counts connections with a request in progress), past it an immediate 503 + Retry-After
  limit_conn_zone \$server_port zone=inflight:1m;
  server {
    listen $HOST:$SHED_ROUTER_PORT;
    limit_conn inflight $NGINX_INFLIGHT;
    limit_conn_status 503;
    limit_conn_log_level info;
    error_page 503 @overloaded;
    location / {
      proxy_pass http://owners;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
    location @overloaded {
      add_header Retry-After 1 always;
      return 503 '{"type":"overloaded"}';
    }
  }
  # every answer says it may be cached for an hour (the service stores only what HTTP lets it);
  # the owners answer the yardstick with the same fields
  server { listen $HOST:${OWNER_PORTS[0]}; location / { add_header Cache-Control "max-age=3600"; return 200 "$body"; } }
  server { listen $HOST:${OWNER_PORTS[1]}; location / { add_header Cache-Control "max-age=3600"; return 200 "$body"; } }
  server { listen $HOST:${OWNER_PORTS[2]}; location / { add_header Cache-Control "max-age=3600"; return 200 "$body"; } }

  # the service's origin: every fetch is logged, so a run shows how many misses it had
  server {
    listen $HOST:$ORIGIN_PORT;
    access_log $WORK/origin-access.log;
    location / { add_header Cache-Control "max-age=3600"; return 200 "$body"; }
  }
}
EOF
  "$NGINX" -t -q -p "$WORK" -c "$conf" -e "$WORK/nginx-error.log" -g 'daemon off;' 2>"$WORK/nginx-check.log" \
    || die "nginx rejects the generated configuration: $(cat "$WORK/nginx-check.log")"
  "${MEMBER_PIN[@]}" "$NGINX" -p "$WORK" -c "$conf" -e "$WORK/nginx-error.log" -g 'daemon off;' >"$WORK/nginx-stdout.log" 2>&1 &
  NGINX_PID=$!
  local i
  for ((i = 0; i < 100; i++)); do
    curl -fsS --max-time 1 "http://$HOST:$ROUTER_PORT/k/1" -o /dev/null 2>/dev/null && break
    kill -0 "$NGINX_PID" 2>/dev/null || die "nginx exited at start: $(cat "$WORK/nginx-error.log" "$WORK/nginx-stdout.log")"
    sleep 0.1
  done
  local size
  size=$(curl -fsS --max-time 2 "http://$HOST:$ROUTER_PORT/k/1" | wc -c) || die "nginx router on :$ROUTER_PORT does not answer"
  [[ $size -eq 1024 ]] || die "nginx answers $size bytes, expected 1024"
  mapfile -t NGINX_WORKERS < <(ps -o pid= --ppid "$NGINX_PID" | tr -d ' ')
  log "nginx master PID $NGINX_PID, workers ${NGINX_WORKERS[*]}: router :$ROUTER_PORT, owners :${OWNER_PORTS[*]}, origin :$ORIGIN_PORT"
}

# --- members ------------------------------------------------------------------------------------
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
# Transparent huge pages for the members' heaps, as k8s/Dockerfile runs them: a hit on a warm 100k-key
# cache touches ~10 random heap pages, each a TLB miss with 4 KB pages (RESULTS.md run 11). Only where
# the kernel offers them to a process that asks (enabled: always or madvise).
if [[ $HUGE_PAGES == 1 ]] && grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
  MEMBER_JVM_FLAGS+=(-XX:+UseTransparentHugePages)
fi
member_opts() { # the user's extra options for member $1 (0, 1, 2): every {i} in them becomes $1
  local opts=${THROUGHPUT_MEMBER_OPTS:-}
  printf '%s' "${opts//\{i\}/$1}"
}

member_list() { local out="" p; for p in "${HZ_PORTS[@]}"; do out+="${out:+,}$HOST:$p"; done; printf '%s' "$out"; }

CLUSTER=""
start_members() { # start_members [extra member JVM options...]
  local i
  CLUSTER="ketama-throughput-$$-$(date +%s%N)"
  require_free_ports "${HTTP_PORTS[@]}" "${MGMT_PORTS[@]}" "${HZ_PORTS[@]}"
  for i in 0 1 2; do start_member "$i" "$@"; done
  for i in 0 1 2; do wait_ready "${HTTP_PORTS[$i]}" 240 || return 1; done
  wait_ring_size "$ENTRY" 3 60 || die "the cluster did not form: /ring on :$ENTRY does not list 3 members"
  log "cluster $CLUSTER formed: $(ring_size "$ENTRY") members on the entry member's ring"
}

start_member() { # start_member <index 0-2> [extra member JVM options...]: member <index> of cluster $CLUSTER, in the background
  local i=$1
  shift
  # shellcheck disable=SC2046 # word splitting of the user's extra options is intended
  "${MEMBER_PIN[@]}" java "${HZ_JVM_FLAGS[@]}" "${MEMBER_JVM_FLAGS[@]}" \
    -Dquarkus.http.host="$HOST" -Dquarkus.http.port="${HTTP_PORTS[$i]}" \
    -Dquarkus.management.host="$HOST" -Dquarkus.management.port="${MGMT_PORTS[$i]}" \
    -Dquarkus.ketama.hazelcast.port="${HZ_PORTS[$i]}" \
    -Dquarkus.ketama.hazelcast.port-auto-increment=false \
    -Dquarkus.ketama.hazelcast.members="$(member_list)" \
    -Dquarkus.ketama.hazelcast.cluster-name="$CLUSTER" \
    -Dhazelcast.phone.home.enabled=false \
    '-Dquarkus.log.category."com.hazelcast".level=WARN' \
    -Dketama.router.origin.base-url="http://$HOST:$ORIGIN_PORT/o" \
    $(member_opts "$i") "$@" \
    -jar "$JAR" >>"$WORK/member-${HTTP_PORTS[$i]}.log" 2>&1 &
  MEMBER_PID[${HTTP_PORTS[$i]}]=$!
  log "started member :${HTTP_PORTS[$i]} / hazelcast :${HZ_PORTS[$i]} (PID ${MEMBER_PID[${HTTP_PORTS[$i]}]})"
}

SOFT_START=0   # 1: a member that exits at start-up makes start_members return 1 instead of ending the run
wait_ready() { # wait_ready <http port> <timeout s>
  local port=$1 timeout=$2 start=$SECONDS
  while ((SECONDS - start < timeout)); do
    curl -fsS --max-time 2 "http://$HOST:$port/q/health/ready" >/dev/null 2>&1 && return 0
    if ! kill -0 "${MEMBER_PID[$port]}" 2>/dev/null; then
      ((SOFT_START)) && return 1
      die "member :$port exited before it was ready: $(tail -20 "$WORK/member-$port.log")"
    fi
    sleep 1
  done
  die "member :$port not ready within ${timeout}s"
}

ring_members() { # cluster addresses on the rings of the member on HTTP port $1
  curl -fsS --max-time 2 "http://$HOST:$1/ring" 2>/dev/null | grep -oE '"address":"[^"]*"' | cut -d'"' -f4 | sort -u || true
}
ring_size() { ring_members "$1" | wc -l; }
wait_ring_size() { # <http port> <size> <timeout s>
  local i
  for ((i = 0; i < $3 * 4; i++)); do
    [[ $(ring_size "$1") -eq $2 ]] && return 0
    sleep 0.25
  done
  return 1
}

warm_caches() {
  local members="" i
  for i in 0 1 2; do members+="${members:+,}$HOST:${HZ_PORTS[$i]}=${HTTP_PORTS[$i]}"; done
  log "warming the caches: owner of each of $KEYS keys from /route, then GET /cache on the owner (no forwards)"
  run_child 600 "$OUT/warm.out" java -cp "$WORK/classes" io.ketama.load.throughput.Warm \
    --entry="$HOST:$ENTRY" --members="$members" --keys="$KEYS" --out="$WORK" \
    || die "warm-up failed: $(cat "$OUT/warm.out" "$OUT/warm.out.err")"
  log "$(cat "$OUT/warm.out")"
}

origin_fetches() { [[ -f $WORK/origin-access.log ]] && wc -l <"$WORK/origin-access.log" || echo 0; }

# --- quiet machine --------------------------------------------------------------------------------
# True when the lock file names a live process other than this run (an empty or stale file is free).
lock_held_by_other() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ && $pid != "$$" ]] && kill -0 "$pid" 2>/dev/null
}

take_quiet_lock() {
  # Announce first, then look: two runs starting together both see each other and back off (for a
  # random while), instead of both seeing none and measuring each other.
  [[ -n $QUIET_LOCK ]] || return 0
  local dir i others
  dir=$(dirname "$QUIET_LOCK")
  mkdir -p "$dir"
  for ((i = 0; i < 90; i++)); do
    # A run that holds this very file (same name) is another run too: it wrote its PID in it.
    if lock_held_by_other "$QUIET_LOCK"; then
      others="$QUIET_LOCK (run $(cat "$QUIET_LOCK" 2>/dev/null))"
    else
      echo $$ >"$QUIET_LOCK"
      LOCK_MADE=1
      others=$(find "$dir" -maxdepth 1 -name 'quiet-*' ! -path "$QUIET_LOCK" 2>/dev/null | head -3)
      [[ -z $others ]] && break
      rm -f "$QUIET_LOCK"
      LOCK_MADE=0
    fi
    ((i % 6 == 0)) && log "waiting for other timing runs to end: $others"
    sleep $((5 + RANDOM % 10))
  done
  if [[ -n $others ]]; then
    if lock_held_by_other "$QUIET_LOCK"; then
      die "another run (PID $(cat "$QUIET_LOCK")) still holds $QUIET_LOCK after 15 min: give this run a lock file of its own"
    fi
    log "WARNING: other timing runs still hold $others after 15 min; measuring anyway (figures may be disturbed)"
    echo $$ >"$QUIET_LOCK"
    LOCK_MADE=1
  fi
  log "holding $QUIET_LOCK"
}

# --- steps -----------------------------------------------------------------------------------------
step_failover() {
  local victim_pid=${MEMBER_PID[$VICTIM]} victim_hz=${HZ_PORTS[2]} t_kill t_gone="" i line
  log "[failover] wrk for ${FAILOVER_SECONDS}s on :$ENTRY, kill -9 member :$VICTIM (PID $victim_pid) at +${KILL_AT}s"
  WRK_TALLY=1 wrk -t"$THREADS" -c"$CONNS" -d"${FAILOVER_SECONDS}s" --timeout 5s -s "$LUA" "http://$HOST:$ENTRY/" \
    -- random /cache/k/ "$KEYS" >"$OUT/failover.wrk" 2>"$OUT/failover.wrk.err" &
  CHILD_PID=$!
  sleep "$KILL_AT"
  kill -9 "$victim_pid"
  t_kill=$(date +%s%N)
  log "[failover] kill -9 PID $victim_pid (member :$VICTIM)"
  wait "$victim_pid" 2>/dev/null || true
  unset "MEMBER_PID[$VICTIM]"
  for ((i = 0; i < 4 * (FAILOVER_SECONDS + 30); i++)); do
    if ! ring_members "$ENTRY" | grep -qx "$HOST:$victim_hz"; then
      t_gone=$(date +%s%N)
      break
    fi
    sleep 0.25
  done
  for ((i = 0; i < (FAILOVER_SECONDS + 30) * 10; i++)); do
    kill -0 "$CHILD_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$CHILD_PID" 2>/dev/null && { stop_pid "$CHILD_PID" 5; die "[failover] wrk did not finish"; }
  wait "$CHILD_PID" || die "[failover] wrk failed: $(cat "$OUT/failover.wrk.err")"
  CHILD_PID=""
  line=$(grep '^wrk ' "$OUT/failover.wrk") || die "[failover] no result line from wrk"
  local req dur socket non2xx ring_s
  req=$(kv requests "$line"); dur=$(kv duration_us "$line")
  non2xx=$(kv non2xx "$line")
  socket=$(($(kv connect_errors "$line") + $(kv read_errors "$line") + $(kv write_errors "$line") + $(kv timeouts "$line")))
  ring_s=$([[ -n $t_gone ]] && calc "printf \"%.1f\", ($t_gone - $t_kill) / 1e9" || echo "not within $((FAILOVER_SECONDS + 30))s")
  FAILOVER_LINE=$(printf 'failover: %s requests in %ss (%s req/s) entering on :%s, kill -9 of :%s at +%ss; failed: %s non-2xx + %s socket errors/timeouts; answers with X-Ketama-Failover: %s, X-Ketama-Cache BYPASS: %s, MISS: %s; the entry member'"'"'s ring dropped the dead member %ss after the kill' \
    "$req" "$(calc "printf \"%.1f\", $dur / 1e6")" "$(calc "printf \"%.0f\", $req / ($dur / 1e6)")" "$ENTRY" "$VICTIM" "$KILL_AT" \
    "$non2xx" "$socket" "$(kv tally_failover "$line")" "$(kv tally_bypass "$line")" "$(kv tally_miss "$line")" "$ring_s")
  log "[$FAILOVER_LINE]"
}

save_metrics() { # save_metrics <label>: every member's /q/metrics (timeouts, breakers, bulkheads, 503s say what happened)
  local i p
  for i in 0 1 2; do
    p=${HTTP_PORTS[$i]}
    [[ -n ${MEMBER_PID[$p]:-} ]] || continue
    # metrics live on the management interface; a build without one serves them on the HTTP port
    curl -fsS --max-time 5 "http://$HOST:${MGMT_PORTS[$i]}/q/metrics" -o "$OUT/metrics-after-$1-$p.txt" 2>/dev/null \
      || curl -fsS --max-time 5 "http://$HOST:$p/q/metrics" -o "$OUT/metrics-after-$1-$p.txt" 2>/dev/null || true
  done
}

# issue 39 point 4: the direct client's rings against the members' after each of 20 changes, alternately a
# migration step (split 10 %, 20 %, ... 100 % by PUT /q/ketama/migration on member 0) and a membership change
# (the last member stopped gracefully, then started again); each compared once ClientFollower.BOUND has passed
step_direct_agreement() {
  local hz="" p line i share label port=${HTTP_PORTS[2]}
  for p in "${HZ_PORTS[@]}"; do hz+="${hz:+,}$HOST:$p"; done
  coproc AGREE { java -Xms256m -Xmx512m -XX:+UseSerialGC -jar "$DIRECT_JAR" --mode=agree --hz="$hz" --cluster="$CLUSTER" \
    --member="$HOST:$ENTRY" --keys=10000 2>"$OUT/agreement.err"; }
  read -r -t 120 line <&"${AGREE[0]}" || die "[agreement] the checker did not start: $(tail -20 "$OUT/agreement.err")"
  log "[agreement] $line"
  agree_check() {
    echo "check $1" >&"${AGREE[1]}"
    read -r -t 300 line <&"${AGREE[0]}" || die "[agreement] no answer for '$1': $(tail -20 "$OUT/agreement.err")"
    AGREEMENT_LINES+="$line"$'\n'
    log "[agreement] $line"
  }
  agree_check "at-rest"
  for ((i = 1; i <= 20; i++)); do
    if ((i % 2 == 1)); then
      share=$(((i + 1) / 2 * 10))
      curl -fsS --max-time 30 -o /dev/null -X PUT -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
        -d "{\"mode\":\"split\",\"v2SharePercent\":$share}" "http://$HOST:${MGMT_PORTS[0]}/q/ketama/migration" \
        || die "[agreement] the migration step to $share % was refused"
      label="change-$i:split-$share%"
    elif [[ -n ${MEMBER_PID[$port]:-} ]] && kill -0 "${MEMBER_PID[$port]}" 2>/dev/null; then
      stop_pid "${MEMBER_PID[$port]}" 60
      unset "MEMBER_PID[$port]"
      wait_ring_size "$ENTRY" 2 60 || die "[agreement] member :$port still on the rings after its stop"
      label="change-$i:member-:$port-stopped"
    else
      start_member 2
      wait_ready "$port" 240
      wait_ring_size "$ENTRY" 3 60 || die "[agreement] member :$port not on the rings after its start"
      label="change-$i:member-:$port-started"
    fi
    agree_check "$label"
  done
  exec {AGREE[1]}>&-
  wait "$AGREE_PID" 2>/dev/null || true
}

step_overload() {
  local targets="" p pids
  if [[ $OVERLOAD_ENTRY == all ]]; then
    for p in "${HTTP_PORTS[@]}"; do targets+="${targets:+,}$HOST:$p"; done
  else
    targets="$HOST:$ENTRY"
  fi
  pids=$(member_pids | paste -sd, -)
  log "[overload] open-loop generator on $targets: warm 10s, peak 2 x 10s (closed loops, $CONNS and 256 in flight), then 0.5x and 2x the peak rate, ${OVERLOAD_SECONDS}s each"
  run_child $((OVERLOAD_SECONDS * 2 + 30 + 120)) "$OUT/overload.out" "${GENERATOR_PIN[@]}" java -Xms256m -Xmx1g -XX:+UseSerialGC \
    -cp "$WORK/classes" io.ketama.load.throughput.Overload --targets="$targets" --prefix=/cache/k/ --keys="$KEYS" \
    --connections="$OVERLOAD_CONNECTIONS" --concurrency="$CONNS" --warm=10 --peak=10 \
    --half="$OVERLOAD_SECONDS" --double="$OVERLOAD_SECONDS" --double-rate="$OVERLOAD_RATE" --pids="$pids" --clk-tck="$CLK_TCK" \
    || die "[overload] the generator failed: $(cat "$OUT/overload.out" "$OUT/overload.out.err")"
  OVERLOAD_LINES=$(cat "$OUT/overload.out")
  save_metrics overload
  log "[overload] $(grep '^overload ' "$OUT/overload.out")"
}

step_overload_nginx() {
  local port label
  for port in "$ROUTER_PORT" "$SHED_ROUTER_PORT"; do
    label="nginx router :$port"
    [[ $port == "$SHED_ROUTER_PORT" ]] && label="nginx router with a bulkhead of $NGINX_INFLIGHT (limit_conn, 503) :$port"
    log "[overload-nginx] $label: the overload generator's phases"
    run_child $((OVERLOAD_SECONDS * 2 + 30 + 120)) "$OUT/overload-nginx-$port.out" "${GENERATOR_PIN[@]}" java -Xms256m -Xmx1g -XX:+UseSerialGC \
      -cp "$WORK/classes" io.ketama.load.throughput.Overload --targets="$HOST:$port" --prefix=/k/ --keys="$KEYS" \
      --connections="$OVERLOAD_CONNECTIONS" --concurrency="$CONNS" --warm=10 --peak=10 \
      --half="$OVERLOAD_SECONDS" --double="$OVERLOAD_SECONDS" --double-rate="$OVERLOAD_RATE" --pids="$(nginx_pids | tr ' ' ,)" --clk-tck="$CLK_TCK" \
      || die "[overload-nginx] the generator failed: $(cat "$OUT/overload-nginx-$port.out" "$OUT/overload-nginx-$port.out.err")"
    OVERLOAD_NGINX_LINES+="$label:"$'\n'"$(sed 's/^/  /' "$OUT/overload-nginx-$port.out")"$'\n'
    log "[overload-nginx] $(grep '^overload ' "$OUT/overload-nginx-$port.out")"
  done
}

step_profile() {
  local pid=${MEMBER_PID[$ENTRY]} jfr="$OUT/entry-member.jfr"
  log "[profile] JFR of the entry member (PID $pid) for ${PROFILE_SECONDS}s under wrk on /cache (forwarded load)"
  run_wrk 5 "$WORK/profile-warm.out" "http://$HOST:$ENTRY/" random /cache/k/ "$KEYS" || true
  wrk -t"$THREADS" -c"$CONNS" -d"$((PROFILE_SECONDS + 3))s" --timeout 5s -s "$LUA" "http://$HOST:$ENTRY/" \
    -- random /cache/k/ "$KEYS" >"$OUT/profile.wrk" 2>&1 &
  CHILD_PID=$!
  sleep 1
  local c0 c1
  c0=$(proc_ticks "$pid")
  jcmd "$pid" JFR.start name=throughput settings=profile duration="${PROFILE_SECONDS}s" filename="$jfr" >"$WORK/jcmd.out" 2>&1 \
    || die "[profile] jcmd JFR.start failed: $(cat "$WORK/jcmd.out")"
  local i
  for ((i = 0; i < (PROFILE_SECONDS + 30) * 10; i++)); do
    kill -0 "$CHILD_PID" 2>/dev/null || break
    sleep 0.1
  done
  c1=$(proc_ticks "$pid")
  wait "$CHILD_PID" || true
  CHILD_PID=""
  for ((i = 0; i < 300; i++)); do [[ -s $jfr ]] && break; sleep 0.1; done
  [[ -s $jfr ]] || die "[profile] no recording at $jfr"
  sleep 1
  {
    echo "# JFR of the entry member under forwarded load; recording $jfr"
    grep '^wrk ' "$OUT/profile.wrk" || true
    echo "entry member CPU over the wrk run: $(calc "printf \"%.2f\", ($c1 - $c0) / $CLK_TCK / ($PROFILE_SECONDS + 2)") cores"
    echo; jfr summary "$jfr" | grep -E 'Start|Duration|jdk.ThreadStart |jdk.ExecutionSample |jdk.JavaMonitorWait |jdk.ThreadPark ' || true
    echo; jfr view --width 160 cpu-load "$jfr" 2>/dev/null | tail -n +1 | head -30 || true
    echo; jfr view --width 160 thread-count "$jfr" 2>/dev/null | head -30 || true
    echo; jfr view --width 200 hot-methods "$jfr" 2>/dev/null | head -40 || true
    echo; echo "## started threads by name (first 20 names)"
    jfr print --events jdk.ThreadStart "$jfr" 2>/dev/null | grep -oE 'thread = "[^"]*"' | sed -E 's/[0-9]+/N/g' | sort | uniq -c | sort -rn | head -20 || true
  } >"$OUT/profile.txt" 2>&1
  PROFILE_DONE=1
  log "[profile] summary in $OUT/profile.txt"
}

declare -A TRANSPORT_NOTE=()
step_transports() {
  local t round
  stop_members
  for t in "${TRANSPORTS[@]}"; do
    [[ $t =~ ^[a-z0-9-]+$ ]] || die "THROUGHPUT_TRANSPORTS: '$t' is not a transport name"
    log "[transports] $TRANSPORT_KEY=$t: a fresh cluster"
    SOFT_START=1
    if ! start_members "-D$TRANSPORT_KEY=$t"; then
      SOFT_START=0
      TRANSPORT_NOTE[$t]="did not start: $(grep -h -oE 'Caused by: .*' "$WORK"/member-*.log | tail -1 | cut -c1-300)"
      log "[transports] $t ${TRANSPORT_NOTE[$t]}"
      stop_members
      continue
    fi
    SOFT_START=0
    warm_caches
    for ((round = 1; round <= ROUNDS; round++)); do
      measure "nginx-$t" "$round" "http://$HOST:$ROUTER_PORT/" "$(nginx_pids)" random /k/ "$KEYS"
      measure "service-$t" "$round" "http://$HOST:$ENTRY/" "$(member_pids | paste -sd' ' -) $(nginx_pids)" random /cache/k/ "$KEYS"
    done
    stop_members
  done
  TRANSPORTS_DONE=1
}

# --- main ------------------------------------------------------------------------------------------
mkdir -p "$OUT"
# held from the build to the end: a build or a member's start-up disturbs another run's timing as much as a load does
take_quiet_lock
if [[ $SKIP_BUILD != 1 ]] && wants_jar; then
  log "building the app (./mvnw -q -pl app -am package -DskipTests)"
  ./mvnw -q -pl app -am package -DskipTests
fi
if wants_jar; then
  [[ -f $JAR ]] || die "$JAR is missing: build the app first (./mvnw -q -pl app -am package -DskipTests)"
fi
DIRECT_JAR=$ROOT/load-tests/direct/target/ketama-direct-load.jar
if wants direct && { [[ $SKIP_BUILD != 1 ]] || [[ ! -f $DIRECT_JAR ]]; }; then
  log "building the direct-client generator (./mvnw -q -pl load-tests/direct -am package -DskipTests)"
  ./mvnw -q -pl load-tests/direct -am package -DskipTests
fi
mkdir -p "$WORK/classes"
javac -d "$WORK/classes" "$ROOT"/load-tests/src/main/java/io/ketama/load/throughput/*.java \
  || die "could not compile the load generator in load-tests/src/main/java"

LOAD_BEFORE=$(loadavg)
UPTIME_BEFORE=$(uptime)
log "java: $(java -version 2>&1 | head -1); $(nproc) cores; load average $LOAD_BEFORE; results in $OUT"
require_free_ports "$ROUTER_PORT" "$SHED_ROUTER_PORT" "${OWNER_PORTS[@]}" "$ORIGIN_PORT"
start_nginx
if wants_members; then
  start_members
  warm_caches
fi

LOAD_TIMED=$(loadavg)
FAILOVER_LINE=""
OVERLOAD_LINES=""
OVERLOAD_NGINX_LINES=""
PROFILE_DONE=0
HAS_BARE=0
if wants bare; then
  if curl -fsS --max-time 2 "http://$HOST:$ENTRY$BARE_PATH" -o /dev/null 2>/dev/null; then
    HAS_BARE=1
  else
    log "[bare] GET $BARE_PATH does not answer 2xx on :$ENTRY: this build has no bare endpoint; skipped"
  fi
fi
ORIGIN_BEFORE=$(origin_fetches)
for ((round = 1; round <= ROUNDS; round++)); do
  if wants nginx; then
    measure nginx "$round" "http://$HOST:$ROUTER_PORT/" "$(nginx_pids)" random /k/ "$KEYS"
  fi
  if wants service; then
    measure service "$round" "http://$HOST:$ENTRY/" "$(member_pids | paste -sd' ' -) $(nginx_pids)" random /cache/k/ "$KEYS"
  fi
  if wants purging; then
    # one curl, serial transfers at a fixed rate, for as long as the warm-up and the measured run take
    # (it ends by itself: killed, it would lose the status codes it has not flushed)
    purge_warm=$WARMUP
    ((round == 1 || purge_warm <= 3)) || purge_warm=3
    purges=$(((purge_warm + SECS) * PURGE_RATE))
    curl -s -o /dev/null --max-time $((WARMUP + SECS + 20)) --rate "$PURGE_RATE/s" -X PURGE \
      -H "Authorization: Bearer $ADMIN_TOKEN" -w '%{http_code}\n' "http://$HOST:$ENTRY/cache/k/[1-$purges]" \
      >"$WORK/purges-$round.codes" 2>"$WORK/purges-$round.err" &
    PURGER_PID=$!
    measure purging "$round" "http://$HOST:$ENTRY/" "$(member_pids | paste -sd' ' -) $(nginx_pids)" random /cache/k/ "$KEYS"
    wait "$PURGER_PID" || log "[purging/$round] the purging curl ended with status $?: $(head -c 300 "$WORK/purges-$round.err")"
    PURGER_PID=""
    PURGES_SENT[$round]=$(grep -c . "$WORK/purges-$round.codes" || true)
    PURGES_OK[$round]=$(grep -c '^200$' "$WORK/purges-$round.codes" || true)
    log "[purging/$round] purges answered: ${PURGES_SENT[$round]}, of them 200 (every member confirmed): ${PURGES_OK[$round]}"
  fi
  if ((HAS_BARE)); then
    measure bare "$round" "http://$HOST:$ENTRY/" "$(member_pids | paste -sd' ' -)" random "$BARE_PATH?k=" "$KEYS"
  fi
  if wants local; then
    measure local "$round" "http://$HOST:$ENTRY/" "$(member_pids | paste -sd' ' -)" list /cache/ "$WORK/keys-$ENTRY.txt"
  fi
  if wants direct; then
    serving="$(member_pids | paste -sd' ' -) $(nginx_pids)"
    measure_wrk3 wrk-all "$round" "$serving" "http://$HOST:${HTTP_PORTS[0]}/@random /cache/k/ $KEYS" \
      "http://$HOST:${HTTP_PORTS[1]}/@random /cache/k/ $KEYS" "http://$HOST:${HTTP_PORTS[2]}/@random /cache/k/ $KEYS"
    measure_wrk3 wrk-owners "$round" "$serving" "http://$HOST:${HTTP_PORTS[0]}/@list /cache/ $WORK/keys-${HTTP_PORTS[0]}.txt" \
      "http://$HOST:${HTTP_PORTS[1]}/@list /cache/ $WORK/keys-${HTTP_PORTS[1]}.txt" "http://$HOST:${HTTP_PORTS[2]}/@list /cache/ $WORK/keys-${HTTP_PORTS[2]}.txt"
    measure_wrk3 wrk-nginx "$round" "$(nginx_pids)" "http://$HOST:$ROUTER_PORT/@random /k/ $KEYS" \
      "http://$HOST:$ROUTER_PORT/@random /k/ $KEYS" "http://$HOST:$ROUTER_PORT/@random /k/ $KEYS"
    all_members=$(for p in "${HTTP_PORTS[@]}"; do printf '%s,' "$HOST:$p"; done)
    hz=$(for p in "${HZ_PORTS[@]}"; do printf '%s,' "$HOST:$p"; done)
    measure_java java-all "$round" "$(member_pids | paste -sd, -),$(nginx_pids | tr ' ' ,)" --mode=members --targets="${all_members%,}" --prefix=/cache/
    measure_java java-direct "$round" "$(member_pids | paste -sd, -),$(nginx_pids | tr ' ' ,)" --mode=direct --hz="${hz%,}" --cluster="$CLUSTER"
    measure_java java-nginx "$round" "$(nginx_pids | tr ' ' ,)" --mode=url --prefix="http://$HOST:$ROUTER_PORT/"
  fi
done
ORIGIN_FETCHES=$(($(origin_fetches) - ORIGIN_BEFORE))
AGREEMENT_LINES=""
if wants direct; then step_direct_agreement; fi
if wants overload; then step_overload; fi
if wants overload-nginx; then step_overload_nginx; fi
if wants profile; then step_profile; fi
if wants failover; then step_failover; fi
TRANSPORTS_DONE=0
if wants transports; then step_transports; fi
LOAD_AFTER=$(loadavg)
if ((LOCK_MADE)); then rm -f "$QUIET_LOCK"; LOCK_MADE=0; fi

# --- report ------------------------------------------------------------------------------------------
ratio() { # ratio <numerator> <denominator>
  [[ -n ${1:-} && -n ${2:-} ]] && calc "printf \"%.2f\", ($2 == 0 ? 0 : $1 / $2)" || echo "n/a"
}
median() { # median of numbers
  printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
field_median() { # field_median <array name> <printf format> <keys...>
  local -n values=$1
  local format=$2
  shift 2
  local k out=()
  for k in "$@"; do out+=("${values[$k]}"); done
  # shellcheck disable=SC2059 # the format is the caller's
  printf "$format" "$(median "${out[@]}")"
}
pair_median() { # pair_median <array name> <numerator setup> <denominator setup>: median over rounds of the per-round ratio
  local -n values=$1
  local r per=()
  for ((r = 1; r <= ROUNDS; r++)); do
    [[ -n ${values[$2/$r]:-} && -n ${values[$3/$r]:-} ]] && per+=("$(ratio "${values[$2/$r]}" "${values[$3/$r]}")")
  done
  ((${#per[@]} > 0)) && median "${per[@]}" || echo "n/a"
}
verdict() { # verdict <value> <op> <target> -> met / MISSED by ...
  [[ $1 == n/a ]] && { echo "not measured"; return; }
  calc "v = $1; t = $3; if ((\"$2\" == \">=\" && v >= t) || (\"$2\" == \"<=\" && v <= t) || (\"$2\" == \"<\" && v < t)) print \"met\"; else if (\"$2\" == \">=\") printf \"MISSED (%.0f%% of the target)\", 100 * v / t; else printf \"MISSED (%.1fx the target)\", v / t"
}
{
  echo "# ketama-router throughput beside nginx${LABEL:+ ($LABEL)}"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; $(java -version 2>&1 | head -1); $(nginx -v 2>&1); $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"
  echo "commit: $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "service jar: $JAR ($(date -u -r "$JAR" '+built %Y-%m-%d %H:%M UTC' 2>/dev/null || echo 'not found'))"
  echo "member JVM: ${MEMBER_JVM_FLAGS[*]} $(member_opts '{i}')"
  [[ -n $MEMBER_CPUS || -n $GENERATOR_CPUS ]] && echo "CPUs: members and nginx ${MEMBER_CPUS:-any}, overload generator ${GENERATOR_CPUS:-any} (taskset -c)"
  echo "load average: before $LOAD_BEFORE, as timing began $LOAD_TIMED, after $LOAD_AFTER"
  echo "command: ${THROUGHPUT_JAR:+THROUGHPUT_JAR=$THROUGHPUT_JAR }${THROUGHPUT_MEMBER_OPTS:+THROUGHPUT_MEMBER_OPTS='$THROUGHPUT_MEMBER_OPTS' }$( ((ROUNDS > 1)) && echo "THROUGHPUT_ROUNDS=$ROUNDS ")load-tests/throughput.sh ${STEPS[*]}"
  echo "wrk -t$THREADS -c$CONNS, ${WARMUP}s warm-up + ${SECS}s measured per setup, $ROUNDS round(s), keys uniform out of $KEYS"
  echo
  echo "| setup | round | req/s | p50 ms | p99 ms | errors | CPU µs/req (setup) | wrk cores | other cores |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  declare -A WHAT=([nginx]="nginx, \`hash \$request_uri consistent\` hop to 3 owners" [service]="service, 3 members, entering on one (2/3 forwarded)"
    [purging]="the same service while PURGE arrives at $PURGE_RATE/s"
    [bare]="bare endpoint of the app ($BARE_PATH)" [local]="local hit on the owner (keys it owns)")
  for setup in nginx service purging bare local; do
    rows=()
    for r in "${ROWS[@]}"; do [[ ${r%/*} == "$setup" ]] && rows+=("$r"); done
    ((${#rows[@]} > 0)) || continue
    for r in "${rows[@]}"; do
      echo "| ${WHAT[$setup]} | ${r#*/} | ${RPS[$r]} | ${P50[$r]} | ${P99[$r]} | ${ERRORS[$r]} | ${CPU_US[$r]} | ${GEN_CORES[$r]} | ${OTHER_CORES[$r]} |"
    done
    if ((${#rows[@]} > 1)); then
      echo "| ${WHAT[$setup]} | **median** | $(field_median RPS %.0f "${rows[@]}") | $(field_median P50 %.2f "${rows[@]}") | $(field_median P99 %.2f "${rows[@]}") | $(field_median ERRORS %.0f "${rows[@]}") | $(field_median CPU_US %.1f "${rows[@]}") | | |"
    fi
  done
  echo
  wants service && echo "service: origin fetches during all service, bare and local runs: $ORIGIN_FETCHES (0 = every key was served from a warm cache)"
  # the ratios of issue 9 point 6, per round (each round's setups ran back to back), then their median
  print_ratio() { # print_ratio <label> <field> <numerator setup> <denominator setup> <op> <target>
    local label=$1 field=$2 num=$3 den=$4 op=$5 target=$6 r per=() m
    local -n values=$field
    for ((r = 1; r <= ROUNDS; r++)); do
      [[ -n ${values[$num/$r]:-} && -n ${values[$den/$r]:-} ]] && per+=("$(ratio "${values[$num/$r]}" "${values[$den/$r]}")")
    done
    ((${#per[@]} > 0)) || return 0
    m=$(median "${per[@]}")
    if [[ -n $op ]]; then
      echo "$label: $m$( ((${#per[@]} > 1)) && echo " (median of rounds: ${per[*]})") (target $op $target: $(verdict "$m" "$op" "$target"))"
    else
      echo "$label: $m$( ((${#per[@]} > 1)) && echo " (median of rounds: ${per[*]})")"
    fi
  }
  print_ratio "service ÷ nginx req/s" RPS service nginx '>=' 0.5
  print_ratio "service p99 ÷ nginx p99" P99 service nginx '<=' 2
  print_ratio "service ÷ nginx CPU per request" CPU_US service nginx '' ''
  print_ratio "local hit ÷ bare endpoint req/s" RPS local bare '>=' 0.8
  print_ratio "service ÷ bare endpoint req/s" RPS service bare '' ''
  print_ratio "purging ÷ service p99 (the request path under purges)" P99 purging service '' ''
  print_ratio "purging ÷ service p50" P50 purging service '' ''
  print_ratio "purging ÷ service req/s" RPS purging service '' ''
  print_ratio "purging ÷ service CPU per request" CPU_US purging service '' ''
  if wants purging; then
    for ((r = 1; r <= ROUNDS; r++)); do
      echo "purging round $r: ${PURGES_SENT[$r]:-0} purges answered, ${PURGES_OK[$r]:-0} of them 200 (confirmed by every member)"
    done
  fi
  setup_rows() { # setup_rows <setup> <label> <1: with the generator's CPU an answer>: a table row per round, then their median
    local setup=$1 what=$2 gen=$3 r
    local -a rows=()
    for r in "${ROWS[@]}"; do [[ ${r%/*} == "$setup" ]] && rows+=("$r"); done
    for r in "${rows[@]}"; do
      echo "| $what | ${r#*/} | ${RPS[$r]} | ${P50[$r]} | ${P99[$r]} | ${ERRORS[$r]} | ${CPU_US[$r]} |$( ((gen)) && echo " ${GEN_US[$r]} |") ${GEN_CORES[$r]} | ${OTHER_CORES[$r]} |"
    done
    if ((${#rows[@]} > 1)); then
      echo "| $what | **median** | $(field_median RPS %.0f "${rows[@]}") | $(field_median P50 %.2f "${rows[@]}") | $(field_median P99 %.2f "${rows[@]}") | $(field_median ERRORS %.0f "${rows[@]}") | $(field_median CPU_US %.1f "${rows[@]}") |$( ((gen)) && echo " $(field_median GEN_US %.1f "${rows[@]}") |") | |"
    fi
  }
  if wants direct; then
    echo
    echo "issue 39 point 4, one Java generator (load-tests/direct, $DIRECT_THREADS threads, closed loop, keys uniform out of $KEYS), each round (a), (b), (c) back to back;"
    echo "CPU per answer of the serving processes (members and the origin nginx for (a) and (b); nginx router and owners for (c)), the generator's beside it:"
    echo
    echo "| setup | round | req/s | p50 ms | p99 ms | errors | CPU µs/answer (serving) | CPU µs/answer (generator) | generator cores | other cores |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    setup_rows java-all "(a) entering on every member alike" 1
    setup_rows java-direct "(b) the direct client, each key to its owner" 1
    setup_rows java-nginx "(c) nginx router to 3 nginx owners" 1
    echo
    print_ratio "(b) ÷ (a) CPU per answer, serving processes" CPU_US java-direct java-all '<=' 0.6
    print_ratio "(b) ÷ (c) CPU per answer, serving processes" CPU_US java-direct java-nginx '<' 1
    print_ratio "(b) ÷ (a) req/s" RPS java-direct java-all '' ''
    print_ratio "(b) ÷ (c) req/s" RPS java-direct java-nginx '' ''
    print_ratio "(b) ÷ (a) p99" P99 java-direct java-all '' ''
    print_ratio "(b) ÷ (a) CPU per answer, generator (the direct client's routing included)" GEN_US java-direct java-all '' ''
    echo
    echo "the same three on the wire, loaded by wrk (three at once, -t1 -c$((CONNS / 3)) each; p99 the highest of the three): (a) each wrk to one"
    echo "member with keys uniform out of $KEYS, (b) each wrk to one member with the keys it owns (what the direct client sends), (c) to the nginx router:"
    echo
    echo "| setup | round | req/s | p50 ms | p99 ms | errors | CPU µs/answer (serving) | wrk cores | other cores |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    setup_rows wrk-all "(a) entering on every member alike" 0
    setup_rows wrk-owners "(b) each key to its owner" 0
    setup_rows wrk-nginx "(c) nginx router to 3 nginx owners" 0
    echo
    print_ratio "wrk (b) ÷ (a) CPU per answer, serving processes" CPU_US wrk-owners wrk-all '<=' 0.6
    print_ratio "wrk (b) ÷ (c) CPU per answer, serving processes" CPU_US wrk-owners wrk-nginx '<' 1
    print_ratio "wrk (b) ÷ (a) req/s" RPS wrk-owners wrk-all '' ''
    print_ratio "wrk (b) ÷ (c) req/s" RPS wrk-owners wrk-nginx '' ''
    print_ratio "wrk (b) ÷ (a) p99" P99 wrk-owners wrk-all '' ''
    echo
    echo "the direct client's rings beside member 0's GET /route for keys k/1 to k/10000 (ring version and owner), at rest and after each of 20 changes, each once ClientFollower.BOUND had passed:"
    echo
    sed 's/^/    /' <<<"${AGREEMENT_LINES%$'\n'}"
  fi
  if ((TRANSPORTS_DONE)); then
    echo
    echo "forward transports ($TRANSPORT_KEY), each on a fresh warmed cluster, rounds interleaved with nginx; ratios are medians of per-round ratios:"
    echo
    echo "| transport | service req/s | p50 ms | p99 ms | errors | CPU µs/req | nginx req/s (same rounds) | service ÷ nginx | p99 ÷ nginx p99 | CPU ÷ nginx CPU |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for t in "${TRANSPORTS[@]}"; do
      if [[ -n ${TRANSPORT_NOTE[$t]:-} ]]; then
        echo "| $t | ${TRANSPORT_NOTE[$t]} | | | | | | | | |"
        continue
      fi
      rows=(); nrows=()
      for ((round = 1; round <= ROUNDS; round++)); do rows+=("service-$t/$round"); nrows+=("nginx-$t/$round"); done
      echo "| $t | $(field_median RPS %.0f "${rows[@]}") | $(field_median P50 %.2f "${rows[@]}") | $(field_median P99 %.2f "${rows[@]}") | $(field_median ERRORS %.0f "${rows[@]}") | $(field_median CPU_US %.1f "${rows[@]}") | $(field_median RPS %.0f "${nrows[@]}") | $(pair_median RPS "service-$t" "nginx-$t") | $(pair_median P99 "service-$t" "nginx-$t") | $(pair_median CPU_US "service-$t" "nginx-$t") |"
    done
    echo
    echo "every round:"
    for r in "${ROWS[@]}"; do
      [[ $r == nginx-* || $r == service-* ]] || continue
      echo "  $r: ${RPS[$r]} req/s, p50 ${P50[$r]} ms, p99 ${P99[$r]} ms, errors ${ERRORS[$r]}, ${CPU_US[$r]} µs CPU/req, other cores ${OTHER_CORES[$r]}"
    done
  fi
  if [[ -n $OVERLOAD_LINES ]]; then
    echo
    echo "overload (open loop, entry: $OVERLOAD_ENTRY; latencies from the intended send time):"
    sed 's/^/  /' <<<"$OVERLOAD_LINES"
  fi
  if [[ -n $OVERLOAD_NGINX_LINES ]]; then
    echo
    echo "overload of nginx doing the routing job (the same generator, phases and targets of point 3):"
    sed 's/^/  /' <<<"${OVERLOAD_NGINX_LINES%$'\n'}"
  fi
  [[ -n $FAILOVER_LINE ]] && { echo; echo "$FAILOVER_LINE"; }
  ((PROFILE_DONE)) && { echo; echo "profile: $OUT/profile.txt"; }
  echo
  echo "uptime before: $UPTIME_BEFORE"
  echo "uptime after:  $(uptime)"
} | tee "$OUT/summary.md"
log "done; results in $OUT"
