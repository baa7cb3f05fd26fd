#!/usr/bin/env bash
# Fault harness of ketama-router: N members of the packaged service, each in a network namespace
# of its own, under paced client load, and faults injected on a schedule; the checker
# (io.ketama.load.faults.FaultChecker, this directory's Maven module) measures what each fault
# did and writes the figures. See README.md beside this script.
#
#   load-tests/faults/faults.sh [options]         (as root; -h for the options)
#
# The network, all of it made here and removed at the end (also on Ctrl-C or a failure):
#   <p>-hub   a namespace holding two bridges: brc (the cluster network, 10.77.0.0/24) and brl
#             (the client network, 10.78.0.0/24); nothing else lives there
#   <p>-m<i>  member i: c0 = 10.77.0.(10+i) on brc (Hazelcast and the binary forward channel are
#             bound to it) and l0 = 10.78.0.(10+i) on brl (HTTP and management, for clients)
#   <p>-cl    the client: l0 = 10.78.0.2 on brl; load, polls and admin calls come from here; with
#             --direct-client 1 also c0 = 10.77.0.2 on brc, where its Hazelcast client and the direct
#             client reach the members (their HTTP port listens on every address of theirs)
# A fault on the cluster network (nft drop rules in the members' namespaces) leaves every member
# reachable by the client, so a member cut off from the others still takes requests. The root
# namespace's network is not touched: no link, address or route is added to it.
#
# The checker runs in the client's namespace and asks this script to inject each fault through a
# pair of FIFOs (one command a line, one answer a line): every OS action (nft, signals, cgroups,
# starting a member) is done here, by the one process that also cleans up.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

usage() {
  cat <<EOF
Usage: load-tests/faults/faults.sh [options]   (needs root: network namespaces, nft, cgroups)

  -n, --members N          members [${FAULTS_MEMBERS:-5}], 3 to 50 (a majority/minority split needs 5 or more)
  -f, --faults LIST        faults in schedule order [${FAULTS_LIST:-isolate,split,partial,pause,slow,kill,blip}]
                           isolate  one member cut off from every other member (cluster network)
                           split    a majority/minority split (3|2 of five)
                           partial  member A cannot reach B, both reach every other member
                           pause    SIGSTOP of one member for --pause seconds, then SIGCONT
                           slow     one member's cgroup held to --slow-percent of one CPU
                           kill     kill -9 of one member, restarted after --hold seconds
                           blip     one member cut off for --blip seconds (shorter than the failure timeout)
  -r, --rounds R           times the whole schedule runs [${FAULTS_ROUNDS:-1}]
      --rate R             client requests a second, all members together, paced [${FAULTS_RATE:-200}]
      --keys K             distinct keys of the load [${FAULTS_KEYS:-1000}]
      --hold S             seconds a partition, slowness or a dead member lasts [${FAULTS_HOLD:-30}]
      --pause S            seconds of SIGSTOP [${FAULTS_PAUSE:-20}]
      --blip S             seconds of a blip [${FAULTS_BLIP:-3}]
      --slow-percent P     CPU of a slow member, per cent of one CPU [${FAULTS_SLOW_PERCENT:-5}]
      --observe S          most seconds watched after a heal [${FAULTS_OBSERVE:-120}]
      --quiet S            seconds of unbroken agreement that count as settled [${FAULTS_QUIET:-15}]
      --failure-timeout D  quarkus.ketama.hazelcast.failure-timeout [${FAULTS_FAILURE_TIMEOUT:-10s}]
      --merge-interval D   quarkus.ketama.hazelcast.merge-interval [${FAULTS_MERGE_INTERVAL:-10s}]
      --min-members M      pass quarkus.ketama.migration.min-members=M to every member [${FAULTS_MIN_MEMBERS:-not passed:
                           the product's default, the learned quorum, a majority of the members the cluster expects}]
      --hazelcast-props 0|1  also pass the Hazelcast system properties these keys set
                           (hazelcast.max.no.heartbeat.seconds, heartbeat.interval 1 s, merge
                           first/next run delay), for builds without the keys (main before 2cfc9c4) [${FAULTS_HAZELCAST_PROPS:-0}]
      --thread-dumps LIST  seconds into each pause (e.g. 13,17) at which every running member prints a thread
                           dump (SIGQUIT), saved as logs/threads-pause<n>-m<k>-<s>s-m<j>.txt [${FAULTS_THREAD_DUMPS:-none}]
      --direct-client 0|1  the load goes through the direct client (ketama-client): a Hazelcast client of the
                           members' cluster addresses for the rings, each request to its key's owner [${FAULTS_DIRECT_CLIENT:-0}]
      --member-heap H      -Xmx of a member [${FAULTS_MEMBER_HEAP:-256m}]
      --member-opts "..."  more JVM options for every member (-Dkey=value overrides the above)
      --jar PATH           the service's quarkus-run.jar [app/target/quarkus-app/quarkus-run.jar]
      --skip-build         use the builds in target/ as they are
      --out DIR            results [load-tests/faults/results/<UTC time>]
      --start-timeout S    the most seconds one member may take to start [${FAULTS_START_TIMEOUT:-300}]
  -h, --help

Every option can also be given as the environment variable in brackets' name (FAULTS_RATE=300 ...).
EOF
}

MEMBERS=${FAULTS_MEMBERS:-5}
FAULT_LIST=${FAULTS_LIST:-isolate,split,partial,pause,slow,kill,blip}
ROUNDS=${FAULTS_ROUNDS:-1}
RATE=${FAULTS_RATE:-200}
KEYS=${FAULTS_KEYS:-1000}
HOLD=${FAULTS_HOLD:-30}
PAUSE=${FAULTS_PAUSE:-20}
BLIP=${FAULTS_BLIP:-3}
SLOW_PERCENT=${FAULTS_SLOW_PERCENT:-5}
OBSERVE=${FAULTS_OBSERVE:-120}
QUIET=${FAULTS_QUIET:-15}
FAILURE_TIMEOUT=${FAULTS_FAILURE_TIMEOUT:-10s}
MERGE_INTERVAL=${FAULTS_MERGE_INTERVAL:-10s}
MIN_MEMBERS=${FAULTS_MIN_MEMBERS:-}
HAZELCAST_PROPS=${FAULTS_HAZELCAST_PROPS:-0}
THREAD_DUMPS=${FAULTS_THREAD_DUMPS:-}
DIRECT_CLIENT=${FAULTS_DIRECT_CLIENT:-0}
MEMBER_HEAP=${FAULTS_MEMBER_HEAP:-256m}
MEMBER_OPTS=${FAULTS_MEMBER_OPTS:-}
JAR=${FAULTS_JAR:-$ROOT/app/target/quarkus-app/quarkus-run.jar}
SKIP_BUILD=${FAULTS_SKIP_BUILD:-0}
OUT=${FAULTS_OUT:-$HERE/results/$(date -u +%Y%m%dT%H%M%SZ)}
START_TIMEOUT=${FAULTS_START_TIMEOUT:-300}
CLUSTER_NET=${FAULTS_CLUSTER_NET:-10.77.0}
CLIENT_NET=${FAULTS_CLIENT_NET:-10.78.0}

while (($#)); do
  case $1 in
    -n | --members) MEMBERS=$2; shift ;;
    -f | --faults) FAULT_LIST=$2; shift ;;
    -r | --rounds) ROUNDS=$2; shift ;;
    --rate) RATE=$2; shift ;;
    --keys) KEYS=$2; shift ;;
    --hold) HOLD=$2; shift ;;
    --pause) PAUSE=$2; shift ;;
    --blip) BLIP=$2; shift ;;
    --slow-percent) SLOW_PERCENT=$2; shift ;;
    --observe) OBSERVE=$2; shift ;;
    --quiet) QUIET=$2; shift ;;
    --failure-timeout) FAILURE_TIMEOUT=$2; shift ;;
    --merge-interval) MERGE_INTERVAL=$2; shift ;;
    --min-members) MIN_MEMBERS=$2; shift ;;
    --hazelcast-props) HAZELCAST_PROPS=$2; shift ;;
    --thread-dumps) THREAD_DUMPS=$2; shift ;;
    --direct-client) DIRECT_CLIENT=$2; shift ;;
    --member-heap) MEMBER_HEAP=$2; shift ;;
    --member-opts) MEMBER_OPTS=$2; shift ;;
    --jar) JAR=$2; SKIP_BUILD=1; shift ;;
    --skip-build) SKIP_BUILD=1 ;;
    --out) OUT=$2; shift ;;
    --start-timeout) START_TIMEOUT=$2; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option '$1' (-h lists them)" >&2; exit 2 ;;
  esac
  shift
done

whole() { # name value low high
  if ! [[ $2 =~ ^[0-9]+$ ]] || (($2 < $3 || $2 > $4)); then
    echo "$1 must be a whole number from $3 to $4, was '$2'" >&2
    exit 2
  fi
}
whole --members "$MEMBERS" 3 50
whole --rounds "$ROUNDS" 1 100
whole --rate "$RATE" 1 100000
whole --keys "$KEYS" 1 10000000
whole --hold "$HOLD" 1 3600
whole --pause "$PAUSE" 1 3600
whole --blip "$BLIP" 1 3600
whole --slow-percent "$SLOW_PERCENT" 1 100
whole --observe "$OBSERVE" 5 3600
whole --quiet "$QUIET" 1 3600
whole --start-timeout "$START_TIMEOUT" 10 3600
# No min-members unless asked for: the members then need the learned quorum (a majority of the
# members the cluster expects), the default a user deploys (issue 40).
[[ -z $MIN_MEMBERS ]] || whole --min-members "$MIN_MEMBERS" 1 "$MEMBERS"
DUMP_AT=()
if [[ -n $THREAD_DUMPS ]]; then
  IFS=, read -ra DUMP_AT <<<"$THREAD_DUMPS"
  last=0
  for s in "${DUMP_AT[@]}"; do
    whole --thread-dumps "$s" $((last + 1)) 3600 # ascending
    last=$s
  done
fi
[[ $HAZELCAST_PROPS == 0 || $HAZELCAST_PROPS == 1 ]] || { echo "--hazelcast-props is 0 or 1, was '$HAZELCAST_PROPS'" >&2; exit 2; }
[[ $DIRECT_CLIENT == 0 || $DIRECT_CLIENT == 1 ]] || { echo "--direct-client is 0 or 1, was '$DIRECT_CLIENT'" >&2; exit 2; }
seconds_of() { # a Quarkus duration of whole seconds (10s, 1m, PT10S) as seconds
  case $1 in
    *ms) echo "Hazelcast's own properties take whole seconds: $1" >&2; exit 2 ;;
    [0-9]*s) echo "${1%s}" ;;
    [0-9]*m) echo $((${1%m} * 60)) ;;
    [0-9]*) echo "$1" ;;
    PT*S) echo "${1#PT}" | tr -d S ;;
    *) echo "not a duration: $1 (e.g. 10s)" >&2; exit 2 ;;
  esac
}
FAILURE_SECONDS=$(seconds_of "$FAILURE_TIMEOUT")
MERGE_SECONDS=$(seconds_of "$MERGE_INTERVAL")

if [[ $(uname -s) != Linux ]]; then
  echo "faults.sh needs Linux network namespaces; this is $(uname -s)" >&2
  exit 1
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "faults.sh needs root (it makes network namespaces, nft rules and cgroups); run it as root, e.g. sudo $0" >&2
  exit 1
fi
"$HERE/install-tools.sh"
CPU_CGROUP=/sys/fs/cgroup/cpu
if [[ ! -w $CPU_CGROUP/cgroup.procs ]]; then
  echo "no writable cgroup v1 cpu controller at $CPU_CGROUP: the slow fault cannot run" >&2
  [[ ,$FAULT_LIST, == *,slow,* ]] && exit 1
  CPU_CGROUP=
fi

cd "$ROOT"
# shellcheck source=/dev/null
source .ci/jdk.sh
CHECKER_JAR=$HERE/target/ketama-fault-checker.jar
if [[ $SKIP_BUILD != 1 ]]; then
  echo "building the service and the checker" >&2
  ./mvnw -q -B -pl app,load-tests/faults -am package -DskipTests
fi
[[ -f $JAR ]] || { echo "no service jar at $JAR (./mvnw -pl app -am package -DskipTests)" >&2; exit 1; }
JAR_BUILT=$JAR
[[ -f $CHECKER_JAR ]] || { echo "no checker at $CHECKER_JAR (./mvnw -pl load-tests/faults -am package)" >&2; exit 1; }

mkdir -p "$OUT/logs"
OUT=$(cd "$OUT" && pwd)
P=kf$$ # prefix of every namespace and cgroup this run makes
HUB=$P-hub
CLIENT=$P-cl
STATE=$(mktemp -d "/tmp/$P.XXXX")
# The run uses copies of both builds: a build in the same tree meanwhile (the next step of someone's
# work) must not change the jar a restarted member or the running checker loads classes from.
cp -r "$(dirname "$JAR")" "$STATE/service"
JAR=$STATE/service/$(basename "$JAR")
cp "$CHECKER_JAR" "$STATE/checker.jar"
CHECKER_JAR=$STATE/checker.jar
declare -A PIDS=()
CHECKER_PID= # the checker's JVM
RUNNER_PID=  # the subshell that waits for it

member_ns() { echo "$P-m$1"; }
cluster_addr() { echo "$CLUSTER_NET.$((10 + $1))"; }
client_addr() { echo "$CLIENT_NET.$((10 + $1))"; }

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  [[ -z $CHECKER_PID && -s $STATE/checker.pid ]] && CHECKER_PID=$(cat "$STATE/checker.pid")
  [[ -n $CHECKER_PID ]] && kill "$CHECKER_PID" 2>/dev/null
  for pid in "${DUMP_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for i in "${!PIDS[@]}"; do
    kill -CONT "${PIDS[$i]}" 2>/dev/null # a paused member cannot act on SIGTERM
    kill -TERM "${PIDS[$i]}" 2>/dev/null
  done
  for _ in $(seq 1 100); do
    alive=0
    for i in "${!PIDS[@]}"; do kill -0 "${PIDS[$i]}" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for i in "${!PIDS[@]}"; do kill -KILL "${PIDS[$i]}" 2>/dev/null; done
  [[ -n $CHECKER_PID ]] && kill -KILL "$CHECKER_PID" 2>/dev/null
  [[ -n $RUNNER_PID ]] && kill -KILL "$RUNNER_PID" 2>/dev/null
  for pid in "${PIDS[@]}" $RUNNER_PID; do wait "$pid" 2>/dev/null; done
  for ns in $(ip netns list | awk '{print $1}' | grep "^$P-"); do ip netns del "$ns"; done
  if [[ -n $CPU_CGROUP && -d $CPU_CGROUP/$P ]]; then
    for d in "$CPU_CGROUP/$P"/*/; do rmdir "$d"; done
    rmdir "$CPU_CGROUP/$P"
  fi
  rm -rf "$STATE"
  echo "removed namespaces $P-*, cgroup $P; results in $OUT" >&2
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the network -------------------------------------------------------------------------------
ip netns add "$HUB"
ip -n "$HUB" link set lo up
for br in brc brl; do
  ip -n "$HUB" link add "$br" type bridge
  ip -n "$HUB" link set "$br" up
done
attach() { # namespace hub-side-name inside-name bridge address
  ip -n "$HUB" link add "$2" type veth peer name "$3" netns "$1"
  ip -n "$HUB" link set "$2" master "$4" up
  ip -n "$1" addr add "$5/24" dev "$3"
  ip -n "$1" link set "$3" up
}
ip netns add "$CLIENT"
ip -n "$CLIENT" link set lo up
attach "$CLIENT" cl l0 brl "$CLIENT_NET.2"
if [[ $DIRECT_CLIENT == 1 ]]; then
  # The direct client needs the members' Hazelcast port, which is on the cluster network only. No
  # member's cut set ever holds this address: a partition leaves every member reachable by the client.
  attach "$CLIENT" clc c0 brc "$CLUSTER_NET.2"
fi
for i in $(seq 1 "$MEMBERS"); do
  ns=$(member_ns "$i")
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  attach "$ns" "m${i}c" c0 brc "$(cluster_addr "$i")"
  attach "$ns" "m${i}l" l0 brl "$(client_addr "$i")"
  # Partitions: the addresses of the members this one cannot reach, dropped both ways on c0.
  nsenter --net=/var/run/netns/"$ns" nft -f - <<EOF
table inet ketama_faults {
  set cut { type ipv4_addr; }
  chain input { type filter hook input priority 0; iifname "c0" ip saddr @cut drop; }
  chain output { type filter hook output priority 0; oifname "c0" ip daddr @cut drop; }
}
EOF
  if [[ -n $CPU_CGROUP ]]; then
    mkdir -p "$CPU_CGROUP/$P/m$i"
  fi
done

# ---- the members -------------------------------------------------------------------------------
CLUSTER_NAME=ketama-faults-$P
TOKEN=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
MEMBER_LIST=$(for i in $(seq 1 "$MEMBERS"); do printf '%s:5701,' "$(cluster_addr "$i")"; done)
MEMBER_LIST=${MEMBER_LIST%,}
JVM=(-Xms"$MEMBER_HEAP" -Xmx"$MEMBER_HEAP" -XX:+UseSerialGC)
if java -XX:+UseCompactObjectHeaders -version >/dev/null 2>&1; then
  JVM+=(-XX:+UseCompactObjectHeaders)
fi
# Only the two timing keys: the quorum (unless --min-members) and the mastership claim timeout are the
# extension's defaults.
SETTINGS=(-Dquarkus.ketama.hazelcast.failure-timeout="$FAILURE_TIMEOUT"
  -Dquarkus.ketama.hazelcast.merge-interval="$MERGE_INTERVAL")
[[ -z $MIN_MEMBERS ]] || SETTINGS+=(-Dquarkus.ketama.migration.min-members="$MIN_MEMBERS")
if [[ $HAZELCAST_PROPS == 1 ]]; then
  SETTINGS+=(-Dhazelcast.max.no.heartbeat.seconds="$FAILURE_SECONDS" -Dhazelcast.heartbeat.interval.seconds=1
    -Dhazelcast.merge.first.run.delay.seconds="$MERGE_SECONDS" -Dhazelcast.merge.next.run.delay.seconds="$MERGE_SECONDS")
fi

start_member() { # index
  local i=$1 ns log
  ns=$(member_ns "$i")
  log=$OUT/logs/member-$i.log
  echo "=== $(date -u +%FT%T.%3NZ) faults.sh starts member $i" >>"$log"
  # shellcheck disable=SC2086 # the user's extra options are split on purpose
  setsid ip netns exec "$ns" env QUARKUS_KETAMA_ADMIN_TOKEN="$TOKEN" java "${JVM[@]}" \
    -Dquarkus.http.host=0.0.0.0 -Dquarkus.management.host=0.0.0.0 \
    -Dquarkus.http.port=8080 -Dquarkus.management.port=9000 \
    -Dketama.router.forward.binary.host="$(cluster_addr "$i")" \
    -Dquarkus.ketama.hazelcast.cluster-name="$CLUSTER_NAME" \
    -Dquarkus.ketama.hazelcast.interface="$(cluster_addr "$i")" \
    -Dquarkus.ketama.hazelcast.port=5701 -Dquarkus.ketama.hazelcast.port-auto-increment=false \
    -Dquarkus.ketama.hazelcast.members="$MEMBER_LIST" \
    -Dquarkus.ketama.hazelcast.member-allowlist="$CLUSTER_NET.*" \
    -Dquarkus.ketama.migration.mode=split -Dquarkus.ketama.migration.v2-share=0 \
    -Dhazelcast.phone.home.enabled=false \
    "${SETTINGS[@]}" $MEMBER_OPTS \
    -jar "$JAR" >>"$log" 2>&1 </dev/null &
  PIDS[$i]=$!
  if [[ -n $CPU_CGROUP ]]; then
    echo -1 >"$CPU_CGROUP/$P/m$i/cpu.cfs_quota_us"
    echo "${PIDS[$i]}" >"$CPU_CGROUP/$P/m$i/cgroup.procs"
  fi
}

# ---- faults, as the checker asks for them ------------------------------------------------------
# Members i and j of each pair i:j drop each other's packets on the cluster network; one nft call
# per member, so that a partition is whole within a few milliseconds.
cut_pairs() {
  local -A drop=()
  local pair a b
  for pair in "$@"; do
    a=${pair%%:*} b=${pair##*:}
    member_index "$a" >/dev/null && member_index "$b" >/dev/null || { echo "error no pair '$pair'"; return 1; }
    drop[$a]+="${drop[$a]:+, }$(cluster_addr "$b")"
    drop[$b]+="${drop[$b]:+, }$(cluster_addr "$a")"
  done
  for a in "${!drop[@]}"; do
    nsenter --net=/var/run/netns/"$(member_ns "$a")" nft add element inet ketama_faults cut "{ ${drop[$a]} }" || { echo "error nft refused a cut on member $a"; return 1; }
  done
}
member_index() { [[ $1 =~ ^[0-9]+$ ]] && (($1 >= 1 && $1 <= MEMBERS)) || { echo "error no member '$1'"; return 1; }; }

# --thread-dumps: SIGQUIT to every running member (not the paused one) at each of the given seconds
# after pause <k>; the JVM prints its thread dump to its stdout, the member's log, from which each
# dump's part (up to the next dump) is copied to a file of its own once the last is written. SIGQUIT
# costs no JVM start (jcmd would, on shared cores, during the take-over it is meant to show). Runs in
# the background; its PID is kept for the clean-up.
PAUSES=0
DUMP_PIDS=()
dump_threads_during_pause() { # paused-index pause-number
  local k=$1 n=$2 at=0 s j i start stop
  local -A from=()
  for s in "${DUMP_AT[@]}"; do
    sleep $((s - at))
    at=$s
    for j in "${!PIDS[@]}"; do
      [[ $j == "$k" ]] && continue
      kill -0 "${PIDS[$j]}" 2>/dev/null || continue
      from[$j:$s]=$(stat -c %s "$OUT/logs/member-$j.log")
      kill -QUIT "${PIDS[$j]}" 2>/dev/null || true
      echo "$(date -u +%T.%3N) thread dump of member $j (pid ${PIDS[$j]}) ${s} s into pause $n of member $k" >>"$OUT/commands.log"
    done
  done
  sleep 2 # a dump is written within milliseconds; more on a loaded machine
  for j in "${!PIDS[@]}"; do
    for i in "${!DUMP_AT[@]}"; do
      s=${DUMP_AT[$i]}
      [[ -n ${from[$j:$s]:-} ]] || continue
      start=${from[$j:$s]}
      stop=${from[$j:${DUMP_AT[$((i + 1))]:-none}]:-$(stat -c %s "$OUT/logs/member-$j.log")}
      dd if="$OUT/logs/member-$j.log" of="$OUT/logs/threads-pause$n-m$k-${s}s-m$j.txt" iflag=skip_bytes,count_bytes \
        skip="$start" count=$((stop - start)) status=none || true
    done
  done
}

# One command of the checker, run in this shell (start_member records the new PID): prints one
# line, "ok <detail>" or "error <why>".
run_command() {
  local verb=${1:-}
  shift || true
  case $verb in
    cut) # i:j ...
      cut_pairs "$@" && echo "ok cut $*" ;;
    mend)
      for i in $(seq 1 "$MEMBERS"); do
        nsenter --net=/var/run/netns/"$(member_ns "$i")" nft flush set inet ketama_faults cut || { echo "error nft refused mending member $i"; return 0; }
      done
      echo "ok mended" ;;
    pause | resume | kill)
      member_index "${1:-}" || return 0
      local signal=STOP
      [[ $verb == resume ]] && signal=CONT
      [[ $verb == kill ]] && signal=KILL
      kill -"$signal" "${PIDS[$1]}" || { echo "error kill -$signal ${PIDS[$1]} failed"; return 0; }
      if [[ $verb == pause && ${#DUMP_AT[@]} -gt 0 ]]; then
        PAUSES=$((PAUSES + 1))
        dump_threads_during_pause "$1" "$PAUSES" >/dev/null 2>&1 </dev/null &
        DUMP_PIDS+=($!)
      fi
      echo "ok $verb $1 pid ${PIDS[$1]}" ;;
    start)
      member_index "${1:-}" || return 0
      if kill -0 "${PIDS[$1]}" 2>/dev/null; then echo "error member $1 runs (pid ${PIDS[$1]})"; return 0; fi
      wait "${PIDS[$1]}" 2>/dev/null || true
      start_member "$1"
      echo "ok start $1 pid ${PIDS[$1]}" ;;
    slow | unslow) # i [percent of one CPU]
      member_index "${1:-}" || return 0
      [[ -n $CPU_CGROUP ]] || { echo "error no cpu cgroup"; return 0; }
      local dir=$CPU_CGROUP/$P/m$1 quota=-1
      if [[ $verb == slow ]]; then
        quota=$(($(cat "$dir/cpu.cfs_period_us") * ${2:-5} / 100))
      fi
      echo "$quota" >"$dir/cpu.cfs_quota_us" || { echo "error cannot write $dir/cpu.cfs_quota_us"; return 0; }
      echo "ok $verb $1 quota $quota of $(cat "$dir/cpu.cfs_period_us") us" ;;
    pid)
      member_index "${1:-}" || return 0
      echo "ok ${PIDS[$1]}" ;;
    *) echo "error unknown command '$verb'" ;;
  esac
}

# Waits until member i has started (Quarkus's "started in" line) or stops the run if it failed or
# exited. Members start one after another: five JVMs starting at once on two shared cores have
# taken over 30 s to write their first status to Hazelcast, and a member fails its start then.
await_started() {
  local i=$1 log=$OUT/logs/member-$1.log deadline=$((SECONDS + START_TIMEOUT))
  while ! tail -n 200 "$log" | grep -q "started in .*Listening on"; do
    if ! kill -0 "${PIDS[$i]}" 2>/dev/null || tail -n 200 "$log" | grep -q "Failed to start application"; then
      echo "member $i did not start; its log: $log" >&2
      tail -n 20 "$log" | cut -c1-300 >&2
      exit 1
    fi
    if ((SECONDS > deadline)); then
      echo "member $i has not started within ${START_TIMEOUT} s; its log: $log" >&2
      exit 1
    fi
    sleep 0.5
  done
}

echo "starting $MEMBERS members one after another (cluster $CLUSTER_NAME, namespaces $P-*, logs $OUT/logs)" >&2
for i in $(seq 1 "$MEMBERS"); do
  start_member "$i"
  await_started "$i"
  echo "member $i started: $(cluster_addr "$i") (cluster), $(client_addr "$i") (clients)" >&2
done

mkfifo "$STATE/commands" "$STATE/answers"
exec 7<>"$STATE/commands" 8<>"$STATE/answers" # read-write opens never block on a FIFO
MEMBER_ARGS=()
for i in $(seq 1 "$MEMBERS"); do MEMBER_ARGS+=(--member "$i,$(client_addr "$i"),$(cluster_addr "$i"):5701"); done
{
  echo "command: load-tests/faults/faults.sh --members $MEMBERS --faults $FAULT_LIST --rounds $ROUNDS --rate $RATE --keys $KEYS --hold $HOLD --pause $PAUSE --blip $BLIP --slow-percent $SLOW_PERCENT --observe $OBSERVE --quiet $QUIET --failure-timeout $FAILURE_TIMEOUT --merge-interval $MERGE_INTERVAL${MIN_MEMBERS:+ --min-members $MIN_MEMBERS} --hazelcast-props $HAZELCAST_PROPS${THREAD_DUMPS:+ --thread-dumps $THREAD_DUMPS} --direct-client $DIRECT_CLIENT --member-heap $MEMBER_HEAP${MEMBER_OPTS:+ --member-opts '$MEMBER_OPTS'}"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "jar: $JAR_BUILT (copied for the run), built $(date -u -r "$JAR_BUILT" +%FT%TZ)"
  echo "member JVM: ${JVM[*]} ${SETTINGS[*]} $MEMBER_OPTS"
  echo "machine: $(nproc) CPUs, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/run.txt"

export FAULTS_ADMIN_TOKEN=$TOKEN # the checker reads it (--token-env), never from its command line
DIRECT_ARGS=()
[[ $DIRECT_CLIENT == 1 ]] && DIRECT_ARGS=(--direct-cluster "$CLUSTER_NAME")
# The checker runs in a subshell that, once it has ended, puts "quit <status>" among the commands:
# the loop below blocks on its next command (a read with a timeout can lose the first bytes of a
# command that arrive as it times out) and still ends when the checker does.
(
  ip netns exec "$CLIENT" java -Xms512m -Xmx512m -XX:+UseSerialGC -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
    -jar "$CHECKER_JAR" "${DIRECT_ARGS[@]}" \
    "${MEMBER_ARGS[@]}" --faults "$FAULT_LIST" --rounds "$ROUNDS" --rate "$RATE" --keys "$KEYS" \
    --hold "$HOLD" --pause "$PAUSE" --blip "$BLIP" --slow-percent "$SLOW_PERCENT" --observe "$OBSERVE" \
    --quiet "$QUIET" --failure-timeout "$FAILURE_SECONDS" --merge-interval "$MERGE_SECONDS" \
    ${MIN_MEMBERS:+--min-members "$MIN_MEMBERS"} --token-env FAULTS_ADMIN_TOKEN --out "$OUT" \
    --commands "$STATE/commands" --answers "$STATE/answers" --logs "$OUT/logs" &
  echo $! >"$STATE/checker.pid"
  code=0
  wait $! || code=$? # not a bare wait: under set -e a checker that missed a target would end this subshell before it says so
  echo "quit $code" >"$STATE/commands"
) &
RUNNER_PID=$!

status=2
while read -r -u 7 line; do
  if [[ $line == quit* ]]; then
    status=${line#quit }
    break
  fi
  # shellcheck disable=SC2086 # a command is words
  run_command $line >"$STATE/answer" 2>&1 || echo "error $?" >>"$STATE/answer"
  answer=$(tr '\n' ' ' <"$STATE/answer")
  echo "$(date -u +%T.%3N) $line -> $answer" >>"$OUT/commands.log"
  printf '%s\n' "$answer" >&8
done
wait "$RUNNER_PID" 2>/dev/null
RUNNER_PID=
exit "$status"
