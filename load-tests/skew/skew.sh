#!/usr/bin/env bash
# Hot keys beside uniform keys, in one run on 127.0.0.1 (issue 26 items 5 and 7): N members of the
# packaged service, each in a cgroup v1 cpuacct group of its own, under paced open-loop load entering
# on every member alike, keys uniform then Zipf s = 0.9, 1.1, 1.3, 1 KiB and 64 KiB origin bodies,
# with bounded loads and the near cache off and on; nginx (hash $request_uri consistent) and HAProxy
# (hash-type consistent, hash-balance-factor 125) routing the same keys to owner servers as
# yardsticks; then kill -9 of a member others spill to, under Zipf load. See README.md beside it.
#
#   load-tests/skew/skew.sh [options]      (as root: cgroups; -h for the options)
#
# The load generator and the report are the Java module beside this script
# (io.ketama.load.skew.SkewBench). Only processes this script started are signalled (recorded PIDs,
# an EXIT trap), every wait is bounded, every address is 127.0.0.1, and the cgroups it made are
# removed at the end (also on Ctrl-C or a failure).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

usage() {
  cat <<EOF
Usage: load-tests/skew/skew.sh [options]   (needs root: cgroup v1 cpuacct groups per member)

  -n, --members N        members of the service [${SKEW_MEMBERS:-8}], 8 to 40 (fewer hide the effect: issue 26 item 5)
      --rate R           requests a second, all entries together, 1 KiB phases [${SKEW_RATE:-1000}]
      --rate-64k R       the same for 64 KiB phases [${SKEW_RATE_64K:-250}]
      --keys K           distinct keys of the 1 KiB phases [${SKEW_KEYS:-20000}]
      --keys-64k K       distinct keys of the 64 KiB phases [${SKEW_KEYS_64K:-2000}] (all must fit the members' caches)
      --mixes LIST       key mixes, in order [${SKEW_MIXES:-uniform,zipf-0.9,zipf-1.1,zipf-1.3}]
      --bodies LIST      origin body sizes [${SKEW_BODIES:-1k,64k}] (1k, 64k)
      --configs LIST     service configurations, in order [${SKEW_CONFIGS:-off,on}]
                         off: bounded loads and the near cache off (--off-opts); on: the service's defaults (--on-opts)
      --yardsticks LIST  [${SKEW_YARDSTICKS:-nginx,haproxy}] (empty: none)
      --warmup S         seconds of each phase's load before it is measured [${SKEW_WARMUP:-10}]
      --seconds S        measured seconds of each phase [${SKEW_SECONDS:-30}]
      --kill 0|1         kill -9 of a member under Zipf 1.1 load, with the last configuration [${SKEW_KILL:-1}]
      --kill-seconds S   measured seconds of the kill phase [${SKEW_KILL_SECONDS:-40}]
      --kill-at S        seconds into it the member is killed [${SKEW_KILL_AT:-10}]
      --jit-seconds S    seconds of load on other keys after the members start, before anything is measured [${SKEW_JIT_SECONDS:-60}]
      --factor F         the bounded-load factor the report judges peak ÷ mean against [${SKEW_FACTOR:-1.25}]
      --off-opts "..."   member JVM options of the off configuration
                         [${SKEW_OFF_OPTS:--Dquarkus.ketama.bounded-load.enabled=false -Dketama.router.near-cache.enabled=false}]
      --on-opts "..."    member JVM options of the on configuration [${SKEW_ON_OPTS:-} (none: the defaults)]
      --near VALUE       X-Ketama-Cache value (or part of it) of a near-cache hit [${SKEW_NEAR:-NEAR}]
      --meters LIST      meters summed from every member's /q/metrics per phase [${SKEW_METERS-ketama_router_spilled_total,ketama_router_spilled_answers_total}]
      --member-heap H    -Xmx of a member [${SKEW_MEMBER_HEAP:-256m}]
      --member-opts "..." more JVM options for every member
      --port-base P      ports: P+80 nginx router, P+85 HAProxy, P+90 origin, P+300.. owners, P+100.. members' HTTP,
                         P+200.. management, P+700.. Hazelcast [${SKEW_PORT_BASE:-21000}]
      --seed S           the key sequence's seed (every setup asks the same keys in the same order) [${SKEW_SEED:-42}]
      --jar PATH         the service's quarkus-run.jar to measure (another build, e.g. a branch packaged elsewhere;
                         its quarkus-app directory is copied) [app/target/quarkus-app/quarkus-run.jar]
      --skip-build       use the builds in target/ as they are
      --out DIR          results [load-tests/skew/results/<UTC time>]
  -h, --help

Every option can also be given as the environment variable in brackets' name (SKEW_RATE=500 ...).
EOF
}

MEMBERS=${SKEW_MEMBERS:-8}
RATE=${SKEW_RATE:-1000}
RATE_64K=${SKEW_RATE_64K:-250}
KEYS=${SKEW_KEYS:-20000}
KEYS_64K=${SKEW_KEYS_64K:-2000}
MIXES=${SKEW_MIXES:-uniform,zipf-0.9,zipf-1.1,zipf-1.3}
BODIES=${SKEW_BODIES:-1k,64k}
CONFIGS=${SKEW_CONFIGS:-off,on}
YARDSTICKS=${SKEW_YARDSTICKS-nginx,haproxy}
WARMUP=${SKEW_WARMUP:-10}
SECONDS_MEASURED=${SKEW_SECONDS:-30}
KILL=${SKEW_KILL:-1}
KILL_SECONDS=${SKEW_KILL_SECONDS:-40}
KILL_AT=${SKEW_KILL_AT:-10}
JIT_SECONDS=${SKEW_JIT_SECONDS:-60}
FACTOR=${SKEW_FACTOR:-1.25}
OFF_OPTS=${SKEW_OFF_OPTS-"-Dquarkus.ketama.bounded-load.enabled=false -Dketama.router.near-cache.enabled=false"}
ON_OPTS=${SKEW_ON_OPTS:-}
NEAR=${SKEW_NEAR:-NEAR}
METERS=${SKEW_METERS-ketama_router_spilled_total,ketama_router_spilled_answers_total}
MEMBER_HEAP=${SKEW_MEMBER_HEAP:-256m}
MEMBER_OPTS=${SKEW_MEMBER_OPTS:-}
BASE=${SKEW_PORT_BASE:-21000}
SEED=${SKEW_SEED:-42}
SKIP_BUILD=${SKEW_SKIP_BUILD:-0}
JAR_GIVEN=${SKEW_JAR:-}
OUT=${SKEW_OUT:-$HERE/results/$(date -u +%Y%m%dT%H%M%SZ)}
COMMAND_LINE="load-tests/skew/skew.sh $*"

while (($#)); do
  case $1 in
    -n | --members) MEMBERS=$2; shift ;;
    --rate) RATE=$2; shift ;;
    --rate-64k) RATE_64K=$2; shift ;;
    --keys) KEYS=$2; shift ;;
    --keys-64k) KEYS_64K=$2; shift ;;
    --mixes) MIXES=$2; shift ;;
    --bodies) BODIES=$2; shift ;;
    --configs) CONFIGS=$2; shift ;;
    --yardsticks) YARDSTICKS=$2; shift ;;
    --warmup) WARMUP=$2; shift ;;
    --seconds) SECONDS_MEASURED=$2; shift ;;
    --kill) KILL=$2; shift ;;
    --kill-seconds) KILL_SECONDS=$2; shift ;;
    --kill-at) KILL_AT=$2; shift ;;
    --jit-seconds) JIT_SECONDS=$2; shift ;;
    --factor) FACTOR=$2; shift ;;
    --off-opts) OFF_OPTS=$2; shift ;;
    --on-opts) ON_OPTS=$2; shift ;;
    --near) NEAR=$2; shift ;;
    --meters) METERS=$2; shift ;;
    --member-heap) MEMBER_HEAP=$2; shift ;;
    --member-opts) MEMBER_OPTS=$2; shift ;;
    --port-base) BASE=$2; shift ;;
    --seed) SEED=$2; shift ;;
    --jar) JAR_GIVEN=$2; shift ;;
    --skip-build) SKIP_BUILD=1 ;;
    --out) OUT=$2; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option '$1' (-h lists them)" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '%s [skew] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
whole() { # name value low high
  if ! [[ $2 =~ ^[0-9]+$ ]] || (($2 < $3 || $2 > $4)); then
    echo "$1 must be a whole number from $3 to $4, was '$2'" >&2
    exit 2
  fi
}
whole --members "$MEMBERS" 8 40
whole --rate "$RATE" 1 20000
whole --rate-64k "$RATE_64K" 1 5000
whole --keys "$KEYS" 1 1000000
whole --keys-64k "$KEYS_64K" 1 100000
whole --warmup "$WARMUP" 0 600
whole --seconds "$SECONDS_MEASURED" 5 3600
whole --kill "$KILL" 0 1
whole --kill-seconds "$KILL_SECONDS" 10 3600
whole --kill-at "$KILL_AT" 1 $((KILL_SECONDS - 5))
whole --jit-seconds "$JIT_SECONDS" 1 3600
whole --port-base "$BASE" 1024 64000
[[ $SEED =~ ^-?[0-9]+$ ]] || { echo "--seed must be a whole number, was '$SEED'" >&2; exit 2; }
[[ $FACTOR =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk "BEGIN { exit !($FACTOR > 1 && $FACTOR <= 100) }" \
  || { echo "--factor must be a number above 1 and at most 100, was '$FACTOR'" >&2; exit 2; }
IFS=, read -r -a MIX_LIST <<<"$MIXES"
IFS=, read -r -a BODY_LIST <<<"$BODIES"
IFS=, read -r -a CONFIG_LIST <<<"$CONFIGS"
IFS=, read -r -a YARDSTICK_LIST <<<"$YARDSTICKS"
for m in "${MIX_LIST[@]}"; do
  [[ $m == uniform || $m =~ ^zipf-[0-9]+(\.[0-9]+)?$ ]] || { echo "--mixes: '$m' is not uniform or zipf-<s>" >&2; exit 2; }
done
for b in "${BODY_LIST[@]}"; do [[ $b == 1k || $b == 64k ]] || { echo "--bodies: '$b' is not 1k or 64k" >&2; exit 2; }; done
for c in "${CONFIG_LIST[@]}"; do [[ $c == off || $c == on ]] || { echo "--configs: '$c' is not off or on" >&2; exit 2; }; done
((${#CONFIG_LIST[@]} > 0)) || { echo "--configs names at least one configuration" >&2; exit 2; }
for y in "${YARDSTICK_LIST[@]}"; do [[ $y == nginx || $y == haproxy ]] || { echo "--yardsticks: '$y' is not nginx or haproxy" >&2; exit 2; }; done

# ---- what the run needs, or a message where it cannot ----------------------------------------------
[[ $(uname -s) == Linux ]] || { echo "skew.sh needs Linux cgroups; this is $(uname -s)" >&2; exit 1; }
if [[ $(id -u) -ne 0 ]]; then
  echo "skew.sh needs root: it counts each member's CPU in a cgroup v1 cpuacct group of its own, which it makes and removes; run it as root, e.g. sudo $0" >&2
  exit 1
fi
CG_ROOT=/sys/fs/cgroup/cpuacct
if [[ ! -w $CG_ROOT/cgroup.procs || ! -r $CG_ROOT/cpuacct.usage ]]; then
  echo "no writable cgroup v1 cpuacct hierarchy at $CG_ROOT (cpuacct.usage): the members' CPU cannot be counted apart." >&2
  echo "On a cgroup v2 host, boot with systemd.unified_cgroup_hierarchy=0 or mount one: mount -t cgroup -o cpuacct none $CG_ROOT" >&2
  exit 1
fi
"$HERE/install-tools.sh"
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)

cd "$ROOT"
# shellcheck source=/dev/null
source .ci/jdk.sh
JAR_DIR=$ROOT/app/target/quarkus-app
BENCH_JAR=$HERE/target/ketama-skew-bench.jar
if [[ -n $JAR_GIVEN ]]; then
  [[ -f $JAR_GIVEN ]] || { echo "--jar: no file at $JAR_GIVEN" >&2; exit 2; }
  JAR_DIR=$(cd "$(dirname "$JAR_GIVEN")" && pwd)
fi
if [[ $SKIP_BUILD != 1 ]]; then
  if [[ -n $JAR_GIVEN ]]; then
    log "building the load generator (./mvnw -q -B -pl load-tests/skew package -DskipTests); the service is $JAR_GIVEN"
    ./mvnw -q -B -pl load-tests/skew package -DskipTests
  else
    log "building the service and the load generator (./mvnw -q -B -pl app,load-tests/skew -am package -DskipTests)"
    ./mvnw -q -B -pl app,load-tests/skew -am package -DskipTests
  fi
fi
[[ -f $JAR_DIR/quarkus-run.jar ]] || die "no service jar at $JAR_DIR/quarkus-run.jar (./mvnw -pl app -am package -DskipTests)"
[[ -f $BENCH_JAR ]] || die "no load generator at $BENCH_JAR (./mvnw -pl load-tests/skew package)"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
P=skew$$ # prefix of this run's cgroups
STATE=$(mktemp -d "/tmp/$P.XXXX")
# Copies of both builds: someone's next build in the same tree must not change what a member loads.
cp -r "$JAR_DIR" "$STATE/service"
cp "$BENCH_JAR" "$STATE/bench.jar"
JAR=$STATE/service/quarkus-run.jar
HOST=127.0.0.1
ROUTER_PORT=$((BASE + 80))
HAPROXY_PORT=$((BASE + 85))
ORIGIN_PORT=$((BASE + 90))
HTTP_PORTS=() MGMT_PORTS=() HZ_PORTS=() OWNER_PORTS=() NAMES=() OWNER_NAMES=()
for ((i = 0; i < MEMBERS; i++)); do
  HTTP_PORTS+=($((BASE + 100 + i)))
  MGMT_PORTS+=($((BASE + 200 + i)))
  HZ_PORTS+=($((BASE + 700 + i)))
  OWNER_PORTS+=($((BASE + 300 + i)))
  NAMES+=("m$i")
  OWNER_NAMES+=("o$i")
done
declare -A PIDS=() # member index -> PID
NGINX_PID=
HAPROXY_PID=
CHILD_PID=

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  [[ -n $CHILD_PID ]] && kill -TERM "$CHILD_PID" 2>/dev/null
  declare -F stop_members >/dev/null && stop_members
  for pid in $HAPROXY_PID $NGINX_PID; do
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  [[ -n $CHILD_PID ]] && wait "$CHILD_PID" 2>/dev/null
  declare -F remove_cgroups >/dev/null && remove_cgroups
  cp -f "$STATE"/*.log "$OUT/" 2>/dev/null
  rm -rf "$STATE"
  log "removed cgroup $CG_ROOT/$P; results in $OUT"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_busy() { [[ $(ss -Hltn "sport = :$1" 2>/dev/null | wc -l) -gt 0 ]]; }
require_free_ports() {
  local p
  for p in "$@"; do
    port_busy "$p" && die "port $p on 127.0.0.1 is taken (another run?): stop it or choose --port-base"
  done
  return 0
}
require_free_ports "$ROUTER_PORT" "$HAPROXY_PORT" "$ORIGIN_PORT" "${OWNER_PORTS[@]}" "${HTTP_PORTS[@]}" "${MGMT_PORTS[@]}" "${HZ_PORTS[@]}"

# ---- the members' cgroups --------------------------------------------------------------------------
mkdir "$CG_ROOT/$P"
for ((i = 0; i < MEMBERS; i++)); do mkdir "$CG_ROOT/$P/m$i"; done
remove_cgroups() {
  local d pid
  [[ -d $CG_ROOT/$P ]] || return 0
  for d in "$CG_ROOT/$P"/m*/; do
    [[ -d $d ]] || continue
    # a task still listed (a member that did not stop) goes back to the root group first
    while read -r pid; do echo "$pid" >"$CG_ROOT/cgroup.procs" 2>/dev/null; done <"$d/cgroup.procs"
    rmdir "$d"
  done
  rmdir "$CG_ROOT/$P"
}
cpu_pairs() { local out="" i; for ((i = 0; i < MEMBERS; i++)); do out+="${out:+,}m$i=$CG_ROOT/$P/m$i/cpuacct.usage"; done; echo "$out"; }

# ---- nginx: origin, owners, router; HAProxy: router ------------------------------------------------
mkdir -p "$STATE/www" "$STATE/nginx-temp"
# nginx's workers run as an unprivileged user: they must be able to read the bodies
chmod 755 "$STATE" "$STATE/www"
head -c 1024 /dev/zero | tr '\0' 'k' >"$STATE/www/1k.txt"
head -c 65536 /dev/zero | tr '\0' 'K' >"$STATE/www/64k.txt"
{
  echo "# generated by load-tests/skew/skew.sh: loopback only"
  echo "worker_processes 2;"
  echo "pid $STATE/nginx.pid;"
  echo "error_log $STATE/nginx-error.log warn;"
  echo "events { worker_connections 4096; }"
  echo "http {"
  echo "  access_log off;"
  for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $STATE/nginx-temp/$t;"; done
  echo "  keepalive_requests 10000000; keepalive_timeout 300s; default_type text/plain; root $STATE/www;"
  echo "  # the origin: every fetch is a line of its access log"
  echo "  server { listen $HOST:$ORIGIN_PORT; access_log $STATE/origin-access.log;"
  echo "    location /o/s/ { try_files /1k.txt =404; } location /o/l/ { try_files /64k.txt =404; } location /o/w/ { try_files /1k.txt =404; } }"
  echo "  # the owner servers of the yardsticks: each says who it is"
  for ((i = 0; i < MEMBERS; i++)); do
    echo "  server { listen $HOST:${OWNER_PORTS[$i]}; add_header X-Ketama-Served-By o$i always;"
    echo "    location /k/s/ { try_files /1k.txt =404; } location /k/l/ { try_files /64k.txt =404; } }"
  done
  echo "  # the yardstick: nginx's consistent hash (ketama, 160 points per weight) over the owners"
  echo "  upstream owners { hash \$request_uri consistent;"
  for ((i = 0; i < MEMBERS; i++)); do echo "    server $HOST:${OWNER_PORTS[$i]};"; done
  echo "    keepalive 64; }"
  echo "  server { listen $HOST:$ROUTER_PORT;"
  echo "    location / { proxy_pass http://owners; proxy_http_version 1.1; proxy_set_header Connection \"\"; } }"
  echo "}"
} >"$STATE/nginx.conf"
"$NGINX" -t -q -p "$STATE" -c "$STATE/nginx.conf" -g 'daemon off;' 2>"$STATE/nginx-check.log" \
  || die "nginx refuses the generated configuration: $(cat "$STATE/nginx-check.log")"
"$NGINX" -p "$STATE" -c "$STATE/nginx.conf" -g 'daemon off;' >"$STATE/nginx-stdout.log" 2>&1 &
NGINX_PID=$!
{
  echo "# generated by load-tests/skew/skew.sh: loopback only"
  echo "global"
  echo "  nbthread 1"
  echo "  maxconn 4096"
  echo "defaults"
  echo "  mode http"
  echo "  timeout connect 2s"
  echo "  timeout client 30s"
  echo "  timeout server 30s"
  echo "  http-reuse always"
  echo "frontend yardstick"
  echo "  bind $HOST:$HAPROXY_PORT"
  echo "  default_backend owners"
  echo "backend owners"
  echo "  balance uri"
  echo "  hash-type consistent"
  echo "  hash-balance-factor 125"
  for ((i = 0; i < MEMBERS; i++)); do echo "  server o$i $HOST:${OWNER_PORTS[$i]}"; done
} >"$STATE/haproxy.cfg"
"$HAPROXY" -c -q -f "$STATE/haproxy.cfg" >"$STATE/haproxy-check.log" 2>&1 \
  || die "haproxy refuses the generated configuration: $(cat "$STATE/haproxy-check.log")"
"$HAPROXY" -db -f "$STATE/haproxy.cfg" >"$STATE/haproxy.log" 2>&1 &
HAPROXY_PID=$!
for ((i = 0; i < 100; i++)); do
  curl -fsS --max-time 1 -o /dev/null "http://$HOST:$ROUTER_PORT/k/s/1" 2>/dev/null \
    && curl -fsS --max-time 1 -o /dev/null "http://$HOST:$HAPROXY_PORT/k/s/1" 2>/dev/null && break
  kill -0 "$NGINX_PID" 2>/dev/null || die "nginx exited at start: $(cat "$STATE/nginx-error.log" "$STATE/nginx-stdout.log")"
  kill -0 "$HAPROXY_PID" 2>/dev/null || die "haproxy exited at start: $(cat "$STATE/haproxy.log")"
  sleep 0.1
  ((i < 99)) || die "nginx on :$ROUTER_PORT or HAProxy on :$HAPROXY_PORT does not answer GET /k/s/1: $(tail -5 "$STATE/nginx-error.log" "$STATE/haproxy.log")"
done
size=$(curl -fsS --max-time 2 "http://$HOST:$ORIGIN_PORT/o/l/1" | wc -c) || die "the origin on :$ORIGIN_PORT does not answer"
[[ $size -eq 65536 ]] || die "the origin answers $size bytes for a 64 KiB key"
curl -fsS --max-time 2 -D - -o /dev/null "http://$HOST:$HAPROXY_PORT/k/s/1" | grep -qi '^X-Ketama-Served-By: o' \
  || die "HAProxy's answer does not say which owner served it"
log "nginx (PID $NGINX_PID): router :$ROUTER_PORT, origin :$ORIGIN_PORT, owners :${OWNER_PORTS[0]}-${OWNER_PORTS[$((MEMBERS - 1))]}; HAProxy (PID $HAPROXY_PID) :$HAPROXY_PORT"

# ---- the members -----------------------------------------------------------------------------------
HZ_JVM_FLAGS=(--add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED)
MEMBER_JVM=(-Xms"$MEMBER_HEAP" -Xmx"$MEMBER_HEAP" -XX:+UseSerialGC)
java -XX:+UseCompactObjectHeaders -version >/dev/null 2>&1 && MEMBER_JVM+=(-XX:+UseCompactObjectHeaders)
SECRET=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
member_list() { local out="" p; for p in "${HZ_PORTS[@]}"; do out+="${out:+,}$HOST:$p"; done; echo "$out"; }

start_members() { # start_members <config label> <JVM options...>
  local label=$1 i cluster
  shift
  cluster="ketama-skew-$$-$label"
  for ((i = 0; i < MEMBERS; i++)); do
    # the shell puts itself into member i's group, then becomes the JVM: every thread is counted there
    # shellcheck disable=SC2086 # the user's extra options are split on purpose
    sh -c 'echo $$ > "$0" && exec "$@"' "$CG_ROOT/$P/m$i/cgroup.procs" \
      java "${HZ_JVM_FLAGS[@]}" "${MEMBER_JVM[@]}" \
      -Dquarkus.http.host=$HOST -Dquarkus.http.port="${HTTP_PORTS[$i]}" \
      -Dquarkus.management.host=$HOST -Dquarkus.management.port="${MGMT_PORTS[$i]}" \
      -Dquarkus.ketama.hazelcast.port="${HZ_PORTS[$i]}" -Dquarkus.ketama.hazelcast.port-auto-increment=false \
      -Dquarkus.ketama.hazelcast.members="$(member_list)" -Dquarkus.ketama.hazelcast.cluster-name="$cluster" \
      -Dhazelcast.phone.home.enabled=false '-Dquarkus.log.category."com.hazelcast".level=WARN' \
      -Dketama.router.origin.base-url="http://$HOST:$ORIGIN_PORT/o" -Dketama.router.forward.secret="$SECRET" \
      -Dketama.router.forward.binary.host=$HOST \
      $MEMBER_OPTS "$@" -jar "$JAR" >"$STATE/member-$label-m$i.log" 2>&1 &
    PIDS[$i]=$!
  done
  log "[$label] started $MEMBERS members (PIDs ${PIDS[*]}), options: ${*:-(defaults)}"
  local start=$SECONDS
  for ((i = 0; i < MEMBERS; i++)); do
    until curl -fsS --max-time 2 -o /dev/null "http://$HOST:${HTTP_PORTS[$i]}/q/health/ready" 2>/dev/null; do
      kill -0 "${PIDS[$i]}" 2>/dev/null || die "[$label] member m$i exited at start: $(tail -20 "$STATE/member-$label-m$i.log")"
      ((SECONDS - start < 600)) || die "[$label] member m$i not ready within 600 s"
      sleep 1
    done
  done
  for ((i = 0; i < MEMBERS; i++)); do
    until [[ $(ring_size "${HTTP_PORTS[$i]}") -eq $MEMBERS ]]; do
      ((SECONDS - start < 660)) || die "[$label] member m$i's ring does not list $MEMBERS members"
      sleep 0.5
    done
  done
  log "[$label] every member ready, every ring lists $MEMBERS members ($((SECONDS - start)) s)"
}
ring_size() { curl -fsS --max-time 2 "http://$HOST:$1/ring" 2>/dev/null | grep -oE '"address":"[^"]*"' | sort -u | wc -l; }

stop_members() {
  local i
  for i in "${!PIDS[@]}"; do kill -TERM "${PIDS[$i]}" 2>/dev/null || true; done
  for _ in $(seq 1 300); do
    local alive=0
    for i in "${!PIDS[@]}"; do kill -0 "${PIDS[$i]}" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for i in "${!PIDS[@]}"; do
    kill -KILL "${PIDS[$i]}" 2>/dev/null || true
    wait "${PIDS[$i]}" 2>/dev/null || true
    unset "PIDS[$i]"
  done
}

# ---- phases ------------------------------------------------------------------------------------------
PHASE_NO=0
bench() { # bench <timeout s> <args...>: the Java side, bounded, in the background so the traps stay live
  local limit=$1 rc=0 i
  shift
  java -Xmx512m -XX:+UseSerialGC -jar "$STATE/bench.jar" "$@" >>"$OUT/phases.log" 2>&1 &
  CHILD_PID=$!
  for ((i = 0; i < limit * 10; i++)); do kill -0 "$CHILD_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$CHILD_PID" 2>/dev/null; then
    kill -TERM "$CHILD_PID"
    die "the load generator did not finish within ${limit} s: $(tail -5 "$OUT/phases.log")"
  fi
  wait "$CHILD_PID" || rc=$?
  CHILD_PID=
  return "$rc"
}
body_keys() { [[ $1 == 1k ]] && echo "$KEYS" || echo "$KEYS_64K"; }
body_rate() { [[ $1 == 1k ]] && echo "$RATE" || echo "$RATE_64K"; }
body_path() { [[ $1 == 1k ]] && echo s || echo l; }
joined() { local IFS=,; echo "$*"; }
service_targets() { local out="" i; for i in "$@"; do out+="${out:+,}$HOST:${HTTP_PORTS[$i]}"; done; echo "$out"; }
names() { local out="" i; for ((i = 0; i < MEMBERS; i++)); do out+="${out:+,}$HOST:${HZ_PORTS[$i]}=m$i"; done; echo "$out"; }
metrics() { local out="" i; for ((i = 0; i < MEMBERS; i++)); do out+="${out:+,}m$i=http://$HOST:${MGMT_PORTS[$i]}/q/metrics"; done; echo "$out"; }

# service_phase <setup> <body> <mix> <warmup> <seconds> <rate> [extra bench options...]: entering on every member alike
service_phase() {
  local setup=$1 body=$2 mix=$3 warm=$4 secs=$5 rate=$6 file
  shift 6
  PHASE_NO=$((PHASE_NO + 1))
  file=$(printf '%s/%02d-%s-%s-%s.phase' "$OUT" "$PHASE_NO" "$setup" "$body" "$mix")
  local all=() i
  for ((i = 0; i < MEMBERS; i++)); do all+=("$i"); done
  log "[$setup] $body $mix: ${warm} s warm-up + ${secs} s at $rate req/s over $MEMBERS entries"
  bench $((warm + secs + 120)) run --setup="$setup" --body="$body" --mix="$mix" --keys="$(body_keys "$body")" \
    --prefix="/cache/$(body_path "$body")/" --targets="$(service_targets "${all[@]}")" --rate="$rate" --warmup="$warm" \
    --seconds="$secs" --seed="$SEED" --members="$(joined "${NAMES[@]}")" --names="$(names)" --cpu="$(cpu_pairs)" \
    --origin-log="$STATE/origin-access.log" --metrics="$(metrics)" --meters="$METERS" --out="$file" "$@" \
    || die "[$setup] $body $mix failed: $(tail -5 "$OUT/phases.log")"
  LAST_PHASE=$file
  log "$(tail -1 "$OUT/phases.log")"
}

# jit_warmup <setup>: load on keys no phase asks for (w/N, 1 KiB), so the members' JIT has compiled the
# request path before anything is measured (a cold member spends seconds of CPU compiling). It ramps
# up (1/8, 1/4, 1/2, then the whole 1 KiB rate, a quarter of the time each): cold members asked for
# the whole rate at once fall behind an open-loop schedule and never catch up.
jit_warmup() {
  local all=() i step rate
  for ((i = 0; i < MEMBERS; i++)); do all+=("$i"); done
  log "[$1] JIT warm-up: ${JIT_SECONDS} s of uniform load ramping up to $RATE req/s on 2000 keys no phase asks for"
  for step in 8 4 2 1; do
    rate=$((RATE / step + 1))
    bench $((JIT_SECONDS / 4 + 120)) run --setup="$1-jit" --body=1k --mix=uniform --keys=2000 --prefix=/cache/w/ \
      --targets="$(service_targets "${all[@]}")" --rate=$rate --warmup=0 --seconds=$((JIT_SECONDS / 4 + 1)) --seed="$SEED" \
      --members="$(joined "${NAMES[@]}")" --names="$(names)" --out="$STATE/$1-jit-$step.warm" \
      || die "[$1] the JIT warm-up failed: $(tail -5 "$OUT/phases.log")"
    log "$(tail -1 "$OUT/phases.log")"
  done
}

yardstick_phase() { # yardstick_phase <nginx|haproxy> <body> <mix>
  local setup=$1 body=$2 mix=$3 port file
  [[ $setup == nginx ]] && port=$ROUTER_PORT || port=$HAPROXY_PORT
  PHASE_NO=$((PHASE_NO + 1))
  file=$(printf '%s/%02d-%s-%s-%s.phase' "$OUT" "$PHASE_NO" "$setup" "$body" "$mix")
  local warm=$((WARMUP < 3 ? WARMUP : 3))
  log "[$setup] $body $mix: ${warm} s warm-up + $SECONDS_MEASURED s at $(body_rate "$body") req/s"
  bench $((warm + SECONDS_MEASURED + 120)) run --setup="$setup" --body="$body" --mix="$mix" --keys="$(body_keys "$body")" \
    --prefix="/k/$(body_path "$body")/" --targets="$HOST:$port" --rate="$(body_rate "$body")" --warmup="$warm" \
    --seconds="$SECONDS_MEASURED" --seed="$SEED" --members="$(joined "${OWNER_NAMES[@]}")" --out="$file" \
    || die "[$setup] $body $mix failed: $(tail -5 "$OUT/phases.log")"
  log "$(tail -1 "$OUT/phases.log")"
}

IDLE_PAIRS=""
idle_cpu() { # idle_cpu <label>: each member's CPU over 10 s without load; sets IDLE_PAIRS (m<i>=ns a second)
  local before=() after=() i line="" total=0 ns
  IDLE_PAIRS=""
  for ((i = 0; i < MEMBERS; i++)); do before[i]=$(cat "$CG_ROOT/$P/m$i/cpuacct.usage"); done
  sleep 10
  for ((i = 0; i < MEMBERS; i++)); do
    after[i]=$(cat "$CG_ROOT/$P/m$i/cpuacct.usage")
    ns=$(((after[i] - before[i]) / 10))
    IDLE_PAIRS+="${IDLE_PAIRS:+,}m$i=$ns"
    line+=" m$i $(awk "BEGIN { printf \"%.1f\", $ns / 1e7 }")"
    total=$((total + ns))
  done
  echo "$1: idle CPU of each member over 10 s (% of a core):$line; all together $(awk "BEGIN { printf \"%.1f\", $total / 1e7 }")" >>"$OUT/notes.txt"
}

VICTIM_NOTE=""
kill_phase() { # kill_phase <setup>: Zipf 1.1 load entering on every member but the victim, which is killed mid-phase
  local setup=$1 victim="" spill_file top
  spill_file=$(ls "$OUT"/*-"$setup"-1k-zipf-1.1.phase 2>/dev/null | tail -1 || true)
  if [[ -n $spill_file ]]; then
    # the member that served the most answers off their owner: the others spill to it
    top=$(grep '^off_owner\.' "$spill_file" | sed 's/^off_owner\.//' | sort -t= -k2 -n | tail -1 | cut -d= -f1 || true)
    [[ $top =~ ^m[0-9]+$ ]] && victim=${top#m}
  fi
  local why="it served the most answers off their owner (spills) in $setup's Zipf 1.1 phase"
  if [[ -z $victim ]]; then
    # no spills in this build: the owner of the hottest key, which every other member forwards to
    local owner
    owner=$(curl -fsS --max-time 2 "http://$HOST:${HTTP_PORTS[0]}/route/s/0" | grep -oE '"address":"[^"]*"' | head -1 | cut -d'"' -f4 || true)
    for ((i = 0; i < MEMBERS; i++)); do [[ $owner == "$HOST:${HZ_PORTS[$i]}" ]] && victim=$i; done
    why="no member served answers off their owner in $setup's Zipf 1.1 phase; it owns the hottest key (s/0)"
  fi
  [[ -n $victim ]] || die "[kill] could not choose a member to kill"
  local entries=() i
  for ((i = 0; i < MEMBERS; i++)); do ((i == victim)) || entries+=("$i"); done
  PHASE_NO=$((PHASE_NO + 1))
  local file mark=$STATE/kill-mark
  file=$(printf '%s/%02d-kill-%s-1k-zipf-1.1.phase' "$OUT" "$PHASE_NO" "$setup")
  rm -f "$mark"
  log "[kill] m$victim (PID ${PIDS[$victim]}) will get kill -9 ${KILL_AT} s into ${KILL_SECONDS} s of Zipf 1.1 at $RATE req/s entering on the other $((MEMBERS - 1)); $why"
  java -Xmx512m -XX:+UseSerialGC -jar "$STATE/bench.jar" run --setup="kill-$setup" --body=1k --mix=zipf-1.1 --keys="$KEYS" \
    --prefix=/cache/s/ --targets="$(service_targets "${entries[@]}")" --rate="$RATE" --warmup=5 --seconds="$KILL_SECONDS" \
    --seed="$SEED" --members="$(joined "${NAMES[@]}")" --names="$(names)" --origin-log="$STATE/origin-access.log" \
    --out="$file" --mark="$mark" >>"$OUT/phases.log" 2>&1 &
  CHILD_PID=$!
  for ((i = 0; i < 600; i++)); do [[ -f $mark ]] && break; kill -0 "$CHILD_PID" 2>/dev/null || break; sleep 0.1; done
  [[ -f $mark ]] || die "[kill] the load did not start: $(tail -5 "$OUT/phases.log")"
  sleep "$KILL_AT"
  kill -KILL "${PIDS[$victim]}"
  local killed_at
  killed_at=$(date -u +%H:%M:%S)
  wait "${PIDS[$victim]}" 2>/dev/null || true
  unset "PIDS[$victim]"
  log "[kill] kill -9 of m$victim at $killed_at"
  for ((i = 0; i < (KILL_SECONDS + 120) * 10; i++)); do kill -0 "$CHILD_PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$CHILD_PID" 2>/dev/null && { kill -TERM "$CHILD_PID"; die "[kill] the load did not end"; }
  wait "$CHILD_PID" || die "[kill] the load generator failed: $(tail -5 "$OUT/phases.log")"
  CHILD_PID=
  log "$(tail -1 "$OUT/phases.log")"
  VICTIM_NOTE="kill -9 of m$victim (${KILL_AT} s into the ${KILL_SECONDS} s measured interval, $killed_at UTC), load entering on the other $((MEMBERS - 1)) members: $why"
  echo "$VICTIM_NOTE" >>"$OUT/notes.txt"
}

# ---- the run -----------------------------------------------------------------------------------------
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
log "java: $(java -version 2>&1 | head -1); $(nproc) cores; load average $LOAD_BEFORE; results in $OUT"
: >"$OUT/notes.txt"
: >"$OUT/phases.log"
LOADS=()
last=${CONFIG_LIST[$((${#CONFIG_LIST[@]} - 1))]}
for config in "${CONFIG_LIST[@]}"; do
  setup=service-$config
  # shellcheck disable=SC2206 # the options are split on purpose
  [[ $config == off ]] && opts=($OFF_OPTS) || opts=($ON_OPTS)
  start_members "$setup" "${opts[@]}"
  jit_warmup "$setup"
  idle_cpu "$setup, before the phases (not used)"
  for body in "${BODY_LIST[@]}"; do
    keys=$(body_keys "$body")
    fill_rate=$(($(body_rate "$body") / 2 + 1))
    ((fill_rate <= 500)) || fill_rate=500 # misses cost an origin fetch each: no faster than 500 a second
    service_phase "$setup" "$body" sequential 0 $(((keys + fill_rate - 1) / fill_rate)) "$fill_rate"
    if grep -q '^failures\.' "$LAST_PHASE"; then
      log "[$setup] the fill of $body keys had failures ($(grep '^failures\.' "$LAST_PHASE" | tr '\n' ' ')): once more"
      service_phase "$setup" "$body" sequential 0 $(((keys + fill_rate - 1) / fill_rate)) "$fill_rate"
    fi
    for mix in "${MIX_LIST[@]}"; do
      service_phase "$setup" "$body" "$mix" "$WARMUP" "$SECONDS_MEASURED" "$(body_rate "$body")"
      LOADS+=("$setup $body $mix: $(cut -d' ' -f1-3 /proc/loadavg)")
    done
  done
  # idle once the phases are done: just after start-up the JIT is still compiling (idle 3-5 % of a core
  # a member then, 1-2 % after the phases), which would make the figures net of idle meaningless
  idle_cpu "$setup, after the phases (used for the figures net of idle)"
  echo "$IDLE_PAIRS" >"$OUT/idle-$setup.pairs"
  if [[ $KILL == 1 && $config == "$last" ]]; then
    kill_phase "$setup"
  fi
  stop_members
done
for y in "${YARDSTICK_LIST[@]}"; do
  for body in "${BODY_LIST[@]}"; do
    for mix in "${MIX_LIST[@]}"; do
      yardstick_phase "$y" "$body" "$mix"
      LOADS+=("$y $body $mix: $(cut -d' ' -f1-3 /proc/loadavg)")
    done
  done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the report ----------------------------------------------------------------------------------------
defaults_setup=service-$last
ENV_NOTE=""
for v in SKEW_ON_OPTS SKEW_OFF_OPTS SKEW_METERS SKEW_NEAR SKEW_MEMBER_OPTS; do
  [[ -n ${!v+x} ]] && ENV_NOTE+=" $v='${!v}'"
done
[[ -n $ENV_NOTE ]] && ENV_NOTE=" with$ENV_NOTE"
off_setup=service-off
{
  echo "## Skew run of $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- command: \`$COMMAND_LINE\`$ENV_NOTE"
  echo "- commit: $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-120)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)'); service measured: $JAR_DIR/quarkus-run.jar ($(date -u -r "$JAR_DIR/quarkus-run.jar" '+built %Y-%m-%d %H:%M UTC'))"
  echo "- machine: $(nproc) cores, $(java -version 2>&1 | head -1), $("$NGINX" -v 2>&1 | cut -d' ' -f3), $("$HAPROXY" -v | head -1 | cut -d' ' -f1-3)"
  echo "- $MEMBERS members (-Xmx$MEMBER_HEAP, SerialGC, one cpuacct cgroup each), clients entering on every member alike (request i on member i mod $MEMBERS), open loop at a fixed rate: 1 KiB at $RATE req/s over $KEYS keys, 64 KiB at $RATE_64K req/s over $KEYS_64K keys; ${WARMUP} s warm-up then ${SECONDS_MEASURED} s measured per phase; caches filled first (each key asked once)"
  echo "- configurations: off = \`${OFF_OPTS:-(none)}\`; on = \`${ON_OPTS:-(none: the defaults of the service)}\`; near-cache hits counted where X-Ketama-Cache contains '$NEAR'; spills = answers served off the key's owner (X-Ketama-Served-By ≠ X-Ketama-Owner) that were not near hits"
  echo "- load average: before $LOAD_BEFORE, after $LOAD_AFTER; per phase: $(printf '%s; ' "${LOADS[@]}")"
  sed 's/^/- /' "$OUT/notes.txt"
  echo
  java -jar "$STATE/bench.jar" report --dir="$OUT" --defaults="$defaults_setup" --off="$off_setup" --factor="$FACTOR" --near="$NEAR" \
    --yardsticks="$(joined "${YARDSTICK_LIST[@]}")"
} >"$OUT/summary.md" || die "the report failed"
cat "$OUT/summary.md"
log "done; summary in $OUT/summary.md"
