#!/usr/bin/env bash
# The HTTP caching test suite (github.com/http-tests/cache-tests, the suite behind cache-tests.fyi)
# against one member of the service as it runs in production, or against no cache at all.
#
#   CACHE_TESTS_DIR=/path/to/cache-tests load-tests/http-cache-tests/run.sh [service|direct]
#
# Modes (argument, else CACHE_TESTS_MODE, else service):
#   service  the suite's server is the ORIGIN; one member of SERVICE_JAR with production defaults fetches
#            from it; the suite's client talks to the member (--base=http://127.0.0.1:<port><SERVICE_BASE_PATH>)
#   direct   the suite's client talks to the suite's server itself: no cache, the baseline
# Results: results.json (the client's raw output), outcomes.json and outcomes.csv (per-test outcomes,
# for `summarize.mjs --diff`), summary.md (printed at the end), the processes' logs.
#
# Settings (environment, defaults in brackets):
#   CACHE_TESTS_DIR    required: a clone of the suite (git clone https://github.com/http-tests/cache-tests);
#                      `npm install` is run there when node_modules is missing
#   SERVICE_JAR        [app/target/quarkus-app/quarkus-run.jar] the service to judge; when set, no build
#   SKIP_BUILD         [0] 1 = use app/target/quarkus-app as built (else ./mvnw -q -pl app -am package -DskipTests)
#   SERVICE_BASE_PATH  [] path prefix under which the member serves the origin's paths ('' = its root;
#                      /cache for builds whose service answers only GET/HEAD /cache/<key>)
#   SERVICE_OPTS       [] extra JVM options of the member (word-split), e.g. -Dketama.router.cache.max-bytes=16M
#   MEMBER_HEAP        [512m] the member's heap (as load-tests/throughput.sh)
#   PORT_BASE          [25000] ports: +0 the suite's server (origin), +1 the member's HTTP, +2 its management,
#                      +3 its Hazelcast; all on 127.0.0.1
#   CACHE_TESTS_ID     [] run this one test only, verbosely (the client's --id): the client's and the
#                      origin's dumps of every request and response, no summary
#   CLIENT_TIMEOUT     [1200] seconds the whole client run may take   READY_TIMEOUT [180] seconds for the member
#   OUT_DIR            [load-tests/results/http-cache-tests/<time>-<mode>]
#   LABEL              [] the run's column title in the summary (default: the mode and commit)
#
# Network: every process listens on and talks to 127.0.0.1 only. The suite's server listens on every
# interface by default; listen-loopback.cjs (node -r) makes it listen on 127.0.0.1. The member gets
# -Dquarkus.http.host, -Dquarkus.management.host and -Dquarkus.ketama.hazelcast.interface = 127.0.0.1.
# Only processes this script started are signalled (their PIDs are recorded; an EXIT trap stops them);
# every wait is bounded.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HOST=127.0.0.1

log() { printf '%s [http-cache-tests] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

MODE=${1:-${CACHE_TESTS_MODE:-service}}
[[ $MODE == service || $MODE == direct ]] || die "unknown mode '$MODE'; allowed: service, direct"
(($# <= 1)) || die "one argument at most (service or direct); settings go in the environment (see the head of $0)"

SUITE=${CACHE_TESTS_DIR:-}
PORT_BASE=${PORT_BASE:-25000}
BASE_PATH=${SERVICE_BASE_PATH:-}
MEMBER_HEAP=${MEMBER_HEAP:-512m}
CLIENT_TIMEOUT=${CLIENT_TIMEOUT:-1200}
READY_TIMEOUT=${READY_TIMEOUT:-180}
TEST_ID=${CACHE_TESTS_ID:-}
SKIP_BUILD=${SKIP_BUILD:-0}
SKIP_BUILD_SET=""
[[ $SKIP_BUILD == 1 ]] && SKIP_BUILD_SET=1
JAR=${SERVICE_JAR:-$ROOT/app/target/quarkus-app/quarkus-run.jar}
[[ -n ${SERVICE_JAR:-} ]] && SKIP_BUILD=1
OUT=${OUT_DIR:-$ROOT/load-tests/results/http-cache-tests/$(date +%Y%m%d-%H%M%S)-$MODE}

for v in PORT_BASE CLIENT_TIMEOUT READY_TIMEOUT; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number, was '${!v}'"
done
((PORT_BASE >= 1024 && PORT_BASE + 3 <= 65535)) || die "PORT_BASE must be in [1024, 65532], was $PORT_BASE"
((CLIENT_TIMEOUT >= 10 && READY_TIMEOUT >= 5)) || die "need CLIENT_TIMEOUT >= 10 and READY_TIMEOUT >= 5"
[[ -z $BASE_PATH || $BASE_PATH =~ ^/[^[:space:]]*$ ]] || die "SERVICE_BASE_PATH must be empty or start with /, was '$BASE_PATH'"
BASE_PATH=${BASE_PATH%/}
[[ $MEMBER_HEAP =~ ^[0-9]+[kmgKMG]?$ ]] || die "MEMBER_HEAP must be a JVM size such as 512m, was '$MEMBER_HEAP'"
[[ -z $TEST_ID || $TEST_ID =~ ^[A-Za-z0-9_.-]+$ ]] || die "CACHE_TESTS_ID must be a test id (letters, digits, - _ .), was '$TEST_ID'"

ORIGIN_PORT=$PORT_BASE
HTTP_PORT=$((PORT_BASE + 1))
MGMT_PORT=$((PORT_BASE + 2))
HZ_PORT=$((PORT_BASE + 3))

# --- the suite and node ------------------------------------------------------------------------------
[[ -n $SUITE ]] || die "CACHE_TESTS_DIR is unset: point it at a clone of the suite (git clone https://github.com/http-tests/cache-tests)"
[[ -d $SUITE ]] || die "CACHE_TESTS_DIR=$SUITE does not exist: get the suite with git clone https://github.com/http-tests/cache-tests"
SUITE=$(cd "$SUITE" && pwd)
for f in package.json tests/index.mjs test-engine/cli.mjs test-engine/server/server.mjs test-engine/lib/results.mjs results/index.mjs; do
  [[ -f $SUITE/$f ]] || die "$SUITE has no $f: is it a clone of https://github.com/http-tests/cache-tests?"
done
command -v node >/dev/null || die "node is missing: install Node.js >= 14.8 with npm (the suite's client needs the global fetch of node 18+)"
NODE_VERSION=$(node --version)
node -e '
  const [maj, min] = process.versions.node.split(".").map(Number)
  if (maj < 14 || (maj === 14 && min < 8)) { console.error(`node ${process.version} is older than 14.8 (the suite asks for >= 14.8.0)`); process.exit(1) }
  if (typeof fetch !== "function") { console.error(`node ${process.version} has no global fetch, which the suite client calls: use node 18 or later`); process.exit(1) }
' || die "unsuitable node ($NODE_VERSION)"
if [[ ! -d $SUITE/node_modules ]]; then
  command -v npm >/dev/null || die "npm is missing and $SUITE/node_modules is not there: install npm, or run npm install in $SUITE"
  log "no node_modules in $SUITE: npm install"
  (cd "$SUITE" && npm install --no-audit --no-fund >&2) || die "npm install in $SUITE failed"
fi
command -v curl >/dev/null || die "curl is missing"

# --- processes ---------------------------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/http-cache-tests.XXXXXX")
ORIGIN_PID=""
MEMBER_PID=""
CLIENT_PID=""

stop_pid() { # stop_pid <pid> <grace s>: TERM, then KILL after the grace period
  local pid=$1 i
  [[ -n $pid ]] || return 0
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < $2 * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_pid "$CLIENT_PID" 3
  stop_pid "$MEMBER_PID" 20
  stop_pid "$ORIGIN_PID" 5
  if [[ -d $OUT ]]; then cp -f "$WORK"/*.log "$OUT"/ 2>/dev/null || true; fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

port_busy() {
  if command -v ss >/dev/null; then
    [[ $(ss -Hltn "sport = :$1" 2>/dev/null | wc -l) -gt 0 ]]
  else
    (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
  fi
}
require_free_ports() {
  local p
  for p in "$@"; do
    port_busy "$p" && die "port $p is already in use (another run?); choose other ports with PORT_BASE"
  done
  return 0
}

start_origin() {
  log "starting the suite's server (the origin) on $HOST:$ORIGIN_PORT"
  (cd "$SUITE" && exec env npm_config_protocol=http npm_config_port="$ORIGIN_PORT" npm_config_pidfile="$WORK/origin.pid" \
    node -r "$HERE/listen-loopback.cjs" test-engine/server/server.mjs) >"$WORK/origin.log" 2>&1 &
  ORIGIN_PID=$!
  local i line
  for ((i = 0; i < 300; i++)); do
    line=$(grep -m1 '^Listening on ' "$WORK/origin.log" 2>/dev/null || true)
    [[ -n $line ]] && break
    kill -0 "$ORIGIN_PID" 2>/dev/null || die "the suite's server exited: $(tail -20 "$WORK/origin.log")"
    sleep 0.1
  done
  [[ -n $line ]] || die "the suite's server did not listen within 30s: $(tail -20 "$WORK/origin.log")"
  [[ $line == "Listening on http://$HOST:$ORIGIN_PORT/" ]] || die "the suite's server listens elsewhere than $HOST:$ORIGIN_PORT: '$line'"
  log "origin: $line (PID $ORIGIN_PID)"
}

JVM_FLAGS=(--add-modules java.se
  --add-exports java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.management/sun.management=ALL-UNNAMED
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
  -Xms"$MEMBER_HEAP" -Xmx"$MEMBER_HEAP" -XX:+UseSerialGC)
SERVICE_PROPS=(-Dquarkus.http.host="$HOST" -Dquarkus.http.port="$HTTP_PORT"
  -Dquarkus.management.host="$HOST" -Dquarkus.management.port="$MGMT_PORT"
  -Dquarkus.ketama.hazelcast.interface="$HOST"
  -Dquarkus.ketama.hazelcast.port="$HZ_PORT" -Dquarkus.ketama.hazelcast.members="$HOST:$HZ_PORT"
  -Dketama.router.origin.base-url="http://$HOST:$ORIGIN_PORT")

start_member() {
  # the JVM flags of load-tests/throughput.sh's members
  if java -XX:+UseCompactObjectHeaders -version >/dev/null 2>&1; then JVM_FLAGS+=(-XX:+UseCompactObjectHeaders); fi
  if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then JVM_FLAGS+=(-XX:+UseTransparentHugePages); fi
  local -a extra=()
  # shellcheck disable=SC2206 # word splitting of the user's extra options is intended
  [[ -n ${SERVICE_OPTS:-} ]] && extra=(${SERVICE_OPTS})
  log "starting one member of $JAR on $HOST:$HTTP_PORT (management :$MGMT_PORT, Hazelcast :$HZ_PORT)"
  java "${JVM_FLAGS[@]}" "${SERVICE_PROPS[@]}" "${extra[@]}" -jar "$JAR" >"$WORK/member.log" 2>&1 &
  MEMBER_PID=$!
  local start=$SECONDS
  while ((SECONDS - start < READY_TIMEOUT)); do
    curl -fsS --max-time 2 "http://$HOST:$HTTP_PORT/q/health/ready" >/dev/null 2>&1 && {
      log "member ready after $((SECONDS - start))s (PID $MEMBER_PID)"
      return 0
    }
    kill -0 "$MEMBER_PID" 2>/dev/null || die "the member exited before it was ready: $(tail -30 "$WORK/member.log")"
    sleep 1
  done
  die "the member was not ready within ${READY_TIMEOUT}s (GET /q/health/ready on :$HTTP_PORT): $(tail -30 "$WORK/member.log")"
}

# run_client <output file> [test id]: the suite's client (what `npm run --silent cli --base=URL [--id=ID]`
# runs, started without npm so that its PID is the client's), bounded by CLIENT_TIMEOUT
run_client() {
  local outfile=$1 id=${2:-} i rc=0
  (cd "$SUITE" && exec env npm_config_base="$BASE_URL" npm_config_id="$id" npm_package_config_id="$id" \
    node --no-warnings test-engine/cli.mjs) >"$outfile" 2>"$WORK/client.log" &
  CLIENT_PID=$!
  for ((i = 0; i < CLIENT_TIMEOUT * 10; i++)); do
    kill -0 "$CLIENT_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$CLIENT_PID" 2>/dev/null; then
    stop_pid "$CLIENT_PID" 3
    CLIENT_PID=""
    die "the suite's client did not finish within ${CLIENT_TIMEOUT}s (CLIENT_TIMEOUT); its errors: $(tail -20 "$WORK/client.log")"
  fi
  wait "$CLIENT_PID" || rc=$?
  CLIENT_PID=""
  return "$rc"
}

# --- main --------------------------------------------------------------------------------------------
if [[ $MODE == service ]]; then
  # shellcheck source=/dev/null
  [[ -f $ROOT/.ci/jdk.sh ]] && source "$ROOT/.ci/jdk.sh"
  command -v java >/dev/null || die "java is missing: install a JDK 17+"
  if [[ $SKIP_BUILD != 1 ]]; then
    log "building the service (./mvnw -q -pl app -am package -DskipTests in $ROOT)"
    (cd "$ROOT" && ./mvnw -q -pl app -am package -DskipTests) || die "the build failed"
  fi
  [[ -f $JAR ]] || die "$JAR is missing: build the app first (./mvnw -q -pl app -am package -DskipTests) or set SERVICE_JAR"
  JAR=$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")
  require_free_ports "$ORIGIN_PORT" "$HTTP_PORT" "$MGMT_PORT" "$HZ_PORT"
  BASE_URL="http://$HOST:$HTTP_PORT$BASE_PATH"
else
  require_free_ports "$ORIGIN_PORT"
  BASE_URL="http://$HOST:$ORIGIN_PORT"
fi

mkdir -p "$OUT" || die "cannot make the output directory $OUT"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
log "node $NODE_VERSION; suite $SUITE; $(nproc) cores; load average $LOAD_BEFORE; results in $OUT"
start_origin
[[ $MODE == service ]] && start_member

# what the base URL answers to the client's setup requests (PUT <base>/config/<id>, GET <base>/state/<id>)
PROBE_ID="probe-$$-$(date +%s)"
PROBE_PUT=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 10 -X PUT -H 'Content-Type: application/json' \
  --data '[{"id":"probe"}]' "$BASE_URL/config/$PROBE_ID" 2>/dev/null || echo "no answer")
PROBE_STATE=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 10 "$BASE_URL/state/$PROBE_ID" 2>/dev/null || echo "no answer")
log "setup probe through $BASE_URL: PUT /config/<id> -> $PROBE_PUT (the suite needs 201), GET /state/<id> -> $PROBE_STATE (needs 200)"

if [[ -n $TEST_ID ]]; then
  log "running test $TEST_ID verbosely against $BASE_URL"
  rc=0
  run_client "$OUT/test-$TEST_ID.txt" "$TEST_ID" || rc=$?
  cat "$OUT/test-$TEST_ID.txt"
  echo
  echo "=== the client's errors (stderr; e.g. a failed PUT <base>/config/<id>)"
  cat "$WORK/client.log"
  echo
  echo "=== the origin's log (the suite's server; its dump of what reached it)"
  cat "$WORK/origin.log"
  ((rc == 0)) || die "the client exited with $rc: $(tail -20 "$WORK/client.log")"
  exit 0
fi

log "running the suite's client against $BASE_URL (25 tests at a time; a few minutes)"
STARTED=$SECONDS
rc=0
run_client "$OUT/results.json" || rc=$?
ELAPSED=$((SECONDS - STARTED))
((rc == 0)) || die "the suite's client exited with $rc after ${ELAPSED}s: $(tail -20 "$WORK/client.log")"
node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$OUT/results.json" 2>/dev/null \
  || die "the client's output is no JSON ($OUT/results.json): $(head -c 500 "$OUT/results.json")"
log "client done in ${ELAPSED}s"

COMMIT=$(git -C "$ROOT" log -1 --format='%h' 2>/dev/null || echo unknown)
if [[ $MODE == service ]]; then
  DEFAULT_LABEL="ketama-router $COMMIT${BASE_PATH:+ ($BASE_PATH)}"
else
  DEFAULT_LABEL="no cache (direct)"
fi
node "$HERE/summarize.mjs" --suite "$SUITE" --label "${LABEL:-$DEFAULT_LABEL}" \
  --outcomes "$OUT/outcomes.json" --csv "$OUT/outcomes.csv" "$OUT/results.json" >"$WORK/summary.md" \
  || die "summarize.mjs failed"
{
  cat "$WORK/summary.md"
  echo
  echo "## Run"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; load average before $LOAD_BEFORE, after $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
  echo "- mode: $MODE; client base URL: $BASE_URL; client run ${ELAPSED}s; node $NODE_VERSION"
  echo "- ketama-router: $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-120 || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  if [[ $MODE == service ]]; then
    echo "- service jar: $JAR ($(date -u -r "$JAR" '+built %Y-%m-%d %H:%M UTC' 2>/dev/null || echo 'no date')); $(java -version 2>&1 | head -1)"
    echo "- member: java ${JVM_FLAGS[*]} ${SERVICE_PROPS[*]}${SERVICE_OPTS:+ $SERVICE_OPTS} -jar <jar>"
  fi
  echo "- origin: the suite's server on $HOST:$ORIGIN_PORT (listen-loopback.cjs preload)"
  echo "- setup probe through the base URL: PUT /config/<id> -> $PROBE_PUT (needs 201), GET /state/<id> -> $PROBE_STATE (needs 200)"
  PUT_FAILS=$(grep -c 'Setup PUT config' "$WORK/client.log" 2>/dev/null || true)
  if ((${PUT_FAILS:-0} > 0)); then
    echo "- the client could not register ${PUT_FAILS} tests with the origin through the base URL (their requests then get the origin's 409 and fail at setup), e.g.: $(grep -m1 -o 'Setup PUT config.*' "$WORK/client.log" | cut -c1-200)"
  fi
  echo "- command: ${SKIP_BUILD_SET:+SKIP_BUILD=1 }${CACHE_TESTS_MODE:+CACHE_TESTS_MODE=$CACHE_TESTS_MODE }${SERVICE_BASE_PATH:+SERVICE_BASE_PATH=$SERVICE_BASE_PATH }${SERVICE_OPTS:+SERVICE_OPTS='$SERVICE_OPTS' }${SERVICE_JAR:+SERVICE_JAR=$SERVICE_JAR }CACHE_TESTS_DIR=$SUITE load-tests/http-cache-tests/run.sh $*"
  echo "- files: results.json (raw), outcomes.json / outcomes.csv (per test), origin.log${MEMBER_PID:+, member.log}, client.log"
} >"$OUT/summary.md"
cat "$OUT/summary.md"
log "done; results in $OUT"
