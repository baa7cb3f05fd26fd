#!/usr/bin/env bash
# Rolling upgrade under load, and back: members of the previous release (built from git) and of this
# one in one cluster on 127.0.0.1, replaced one at a time (SIGTERM: a graceful stop with its drain)
# while clients that follow readiness, as a load balancer does, send GET /cache/<key> to every member
# in service. Counts client failures (any answer but a 200, any request without an answer).
#
#   load-tests/upgrade/rolling-upgrade.sh            # previous release -> HEAD -> previous release
#
# Settings (environment, defaults in brackets):
#   UPGRADE_OLD_REF  [4d2ad1abe1045856c082ce298ed3f2c1ad4d1bc4] the previous release (main before issue 25)
#   UPGRADE_NEW_REF  [HEAD] the new release; "worktree" builds the working tree as it is
#   UPGRADE_MEMBERS  [4]  members (3 to 5)
#   UPGRADE_CLIENTS  [16] client threads;  UPGRADE_KEYS [2000] distinct keys
#   UPGRADE_HOLD     [10] seconds of load between two replacements (a mixed cluster)
#   UPGRADE_PORT_BASE [21000]: member i listens on HTTP base+100+i, management base+200+i,
#                     Hazelcast base+700+i, binary channel base+800+i
#   UPGRADE_TRANSPORT [binary] the forward transport of every member (binary, http, hazelcast)
#   UPGRADE_SECRET   [unset] a forward secret every member shares (KETAMA_ROUTER_FORWARD_SECRET)
#   UPGRADE_SETTLE   [300] seconds a cluster may take to settle after a start (a loaded machine is slow)
#   UPGRADE_SKIP_BUILD=1 reuse the new release's build of the last run in UPGRADE_WORK (the previous
#                    release's is reused whenever it was built from the same commit)
#   UPGRADE_WORK     [/tmp/ketama-upgrade] builds, member logs, the load's counts, summary.txt
# It starts only processes of its own, records their PIDs and stops exactly those on any exit; every
# wait is bounded; every address is 127.0.0.1; a port already taken stops it before anything starts.
set -euo pipefail

ROOT=${UPGRADE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
OLD_REF=${UPGRADE_OLD_REF:-4d2ad1abe1045856c082ce298ed3f2c1ad4d1bc4}
NEW_REF=${UPGRADE_NEW_REF:-HEAD}
MEMBERS=${UPGRADE_MEMBERS:-4}
CLIENTS=${UPGRADE_CLIENTS:-16}
KEYS=${UPGRADE_KEYS:-2000}
HOLD=${UPGRADE_HOLD:-10}
BASE=${UPGRADE_PORT_BASE:-21000}
TRANSPORT=${UPGRADE_TRANSPORT:-binary}
WORK=${UPGRADE_WORK:-/tmp/ketama-upgrade}
CLUSTER="ketama-upgrade-$$-$RANDOM"

if (( MEMBERS < 3 || MEMBERS > 5 )); then echo "UPGRADE_MEMBERS must be 3 to 5, was $MEMBERS" >&2; exit 2; fi
# shellcheck disable=SC1091
[[ -f "$ROOT/.ci/jdk.sh" ]] && source "$ROOT/.ci/jdk.sh"
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java

mkdir -p "$WORK"
LOGS="$WORK/logs-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$LOGS"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]:-}"; do
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]:-}"; do
    [[ -n "$pid" ]] && for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    [[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

say() { echo "[$(date +%T)] $*" | tee -a "$LOGS/timeline.txt"; }

# --- builds -------------------------------------------------------------------------------------
build() { # build <ref> <dir>: the app of <ref> into <dir>/app (a fast-jar)
  local ref=$1 dir=$2
  local src="$WORK/src-$(basename "$dir")"
  local commit
  rm -rf "$src" "$dir" && mkdir -p "$src"
  if [[ "$ref" == worktree ]]; then
    commit="$(git -C "$ROOT" rev-parse --short HEAD)+worktree"
    (cd "$ROOT" && tar --exclude='./*/target' --exclude=./.git -cf - .) | tar -xf - -C "$src"
  else
    commit=$(git -C "$ROOT" rev-parse --short "$ref^{commit}") # resolved now: the ref may move during the build
    git -C "$ROOT" archive "$commit" | tar -xf - -C "$src"
  fi
  say "building $ref in $src"
  (cd "$src" && ./mvnw -q -B -pl app -am package -DskipTests) > "$LOGS/build-$(basename "$dir").log" 2>&1 \
    || { echo "build of $ref failed: $LOGS/build-$(basename "$dir").log" >&2; exit 1; }
  mkdir -p "$dir" && cp -r "$src/app/target/quarkus-app" "$dir/app"
  echo "$commit" > "$dir/commit"
  rm -rf "$src"
}
# the previous release's build is kept between runs (it does not change); the new one is built each run
if [[ ! -d "$WORK/old/app" || "$(cat "$WORK/old/commit" 2>/dev/null)" != "$(git -C "$ROOT" rev-parse --short "$OLD_REF")" ]]; then
  build "$OLD_REF" "$WORK/old"
fi
if [[ "${UPGRADE_SKIP_BUILD:-0}" != 1 || ! -d "$WORK/new/app" ]]; then
  build "$NEW_REF" "$WORK/new"
fi
say "previous release: $(cat "$WORK/old/commit"), new release: $(cat "$WORK/new/commit"), $MEMBERS members, transport $TRANSPORT"

# --- members ------------------------------------------------------------------------------------
http_port() { echo $((BASE + 100 + $1)); }
mgmt_port() { echo $((BASE + 200 + $1)); }
hz_port() { echo $((BASE + 700 + $1)); }
bin_port() { echo $((BASE + 800 + $1)); }
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for i in $(seq 1 "$MEMBERS"); do
  for p in "$(http_port "$i")" "$(mgmt_port "$i")" "$(hz_port "$i")" "$(bin_port "$i")"; do
    port_free "$p" || { echo "port $p on 127.0.0.1 is taken: set UPGRADE_PORT_BASE" >&2; exit 2; }
  done
done
HZ_MEMBERS=$(for i in $(seq 1 "$MEMBERS"); do printf '127.0.0.1:%s,' "$(hz_port "$i")"; done); HZ_MEMBERS=${HZ_MEMBERS%,}

declare -A MEMBER_PID MEMBER_RELEASE
start_member() { # start_member <i> <old|new>
  local i=$1 release=$2
  local log="$LOGS/member-$1-$2-$(date +%H%M%S).log"
  local env_secret=()
  [[ -n "${UPGRADE_SECRET:-}" ]] && env_secret=(env KETAMA_ROUTER_FORWARD_SECRET="$UPGRADE_SECRET")
  "${env_secret[@]}" "$JAVA" -Xmx256m -XX:+UseSerialGC \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$(http_port "$i")" \
    -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$(mgmt_port "$i")" \
    -Dquarkus.ketama.hazelcast.cluster-name="$CLUSTER" \
    -Dquarkus.ketama.hazelcast.port="$(hz_port "$i")" -Dquarkus.ketama.hazelcast.port-auto-increment=false \
    -Dquarkus.ketama.hazelcast.interface=127.0.0.1 -Dquarkus.ketama.hazelcast.members="$HZ_MEMBERS" \
    -Dquarkus.ketama.hazelcast.member-allowlist=127.0.0.1 \
    -Dquarkus.ketama.member.node-id="member-$i" \
    -Dketama.router.forward.binary.port="$(bin_port "$i")" -Dketama.router.forward.transport="$TRANSPORT" \
    -Dketama.router.origin.demo-delay=5ms -Dhazelcast.phone.home.enabled=false \
    -Dquarkus.log.category.\"com.hazelcast\".level=WARN \
    -jar "$WORK/$release/app/quarkus-run.jar" > "$log" 2>&1 &
  MEMBER_PID[$i]=$!
  MEMBER_RELEASE[$i]=$release
  PIDS+=("$!")
  say "member $i ($release release) started, pid $!, log $log"
}
ready() { curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$(http_port "$1")/q/health/ready" 2>/dev/null | grep -q 200; }
ring_size() { curl -s --max-time 2 "http://127.0.0.1:$(http_port "$1")/q/health/ready" 2>/dev/null | sed -n 's/.*"members" *: *\([0-9]*\).*/\1/p'; }
await_cluster() { # every member ready and on every member's rings
  local i
  local deadline=$((SECONDS + ${UPGRADE_SETTLE:-300}))
  while (( SECONDS < deadline )); do
    local all=1
    for i in $(seq 1 "$MEMBERS"); do
      kill -0 "${MEMBER_PID[$i]}" 2>/dev/null || { echo "member $i exited; see $LOGS" >&2; exit 1; }
      if ! ready "$i" || [[ "$(ring_size "$i")" != "$MEMBERS" ]]; then all=0; break; fi
    done
    (( all )) && return 0
    sleep 0.5
  done
  echo "the cluster did not settle within ${UPGRADE_SETTLE:-300} s; see $LOGS" >&2; exit 1
}
stop_member() { # SIGTERM, then wait for the drain and the exit
  local i=$1
  local pid=${MEMBER_PID[$1]}
  say "member $i (${MEMBER_RELEASE[$i]} release) stopping (SIGTERM)"
  kill -TERM "$pid"
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then echo "member $i did not stop within 60 s" >&2; exit 1; fi
  say "member $i stopped"
}
replace_all() { # replace_all <to-release>
  local i j
  for i in $(seq 1 "$MEMBERS"); do
    stop_member "$i"
    start_member "$i" "$1"
    await_cluster
    say "member $i is back as the $1 release; the cluster: $(for j in $(seq 1 "$MEMBERS"); do printf '%s ' "${MEMBER_RELEASE[$j]}"; done)"
    sleep "$HOLD"
  done
}

for i in $(seq 1 "$MEMBERS"); do start_member "$i" old; done
await_cluster
say "cluster of $MEMBERS previous-release members ready"

# --- load ---------------------------------------------------------------------------------------
for i in $(seq 1 "$MEMBERS"); do http_port "$i"; done > "$LOGS/members.txt"
rm -f "$LOGS/stop"
"$JAVA" "$ROOT/load-tests/upgrade/RollingLoad.java" "$LOGS/members.txt" "$LOGS/stop" "$LOGS/load-counts.txt" "$CLIENTS" "$KEYS" \
  > "$LOGS/load.log" 2>&1 &
LOAD_PID=$!
PIDS+=("$LOAD_PID")
# the load's JVM compiles its source first: nothing is replaced until it has run 10 s with every member in service
for _ in $(seq 1 300); do
  (( $(grep -c 'requests (' "$LOGS/load.log" 2>/dev/null || true) >= 2 )) && break
  kill -0 "$LOAD_PID" 2>/dev/null || { echo "the load stopped; see $LOGS/load.log" >&2; exit 1; }
  sleep 1
done
say "load running: $(tail -1 "$LOGS/load.log")"

say "upgrade: previous -> new, one member at a time"
replace_all new
say "every member on the new release: $(tail -1 "$LOGS/load.log")"
sleep "$HOLD"
say "rollback: new -> previous, one member at a time"
replace_all old
sleep "$HOLD"
touch "$LOGS/stop"
wait "$LOAD_PID" || true
say "load stopped"

# --- summary ------------------------------------------------------------------------------------
count() { grep -h "$1" "$LOGS"/member-*.log 2>/dev/null | wc -l; }
{
  echo "rolling upgrade $(cat "$WORK/old/commit") -> $(cat "$WORK/new/commit") -> $(cat "$WORK/old/commit"), $MEMBERS members, transport $TRANSPORT, $CLIENTS clients, $KEYS keys, hold ${HOLD}s"
  cat "$LOGS/load-counts.txt"
  echo "member_log_errors=$(count ' ERROR ')"
  echo "member_log_protocol_refusals=$(count 'refused from\|closing the binary forward connection\|refusing the binary forward connection')"
  echo "member_log_unreadable_board=$(count 'cannot read\|not a format-')"
  echo "logs=$LOGS"
} | tee "$LOGS/summary.txt"
cp "$LOGS/summary.txt" "$WORK/summary.txt"
failed=$(sed -n 's/^failed=//p' "$LOGS/load-counts.txt")
[[ "$failed" == 0 ]] || { echo "FAILED: $failed client requests failed" >&2; exit 1; }
echo "0 failed requests"
