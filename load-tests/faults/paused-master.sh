#!/usr/bin/env bash
# The paused master with plain Hazelcast, no extension (issue 40, point 3): starts N (3) members of
# io.ketama.load.faults.PausedMasterRepro on 127.0.0.1, waits for one cluster of N, pauses the
# master (or a member that is not the master) with kill -STOP for --pause s, resumes it, and
# measures from the members' status files when each survivor dropped it, whether the survivors
# stayed one cluster, and when the cluster was whole again. No root, loopback only.
#
#   load-tests/faults/paused-master.sh --runs 3 --target master
#   load-tests/faults/paused-master.sh --runs 3 --target member --label phi \
#       --props "-Dhazelcast.heartbeat.failuredetector.type=phi-accrual"
#
# The members get the Hazelcast properties the extension sets by default (HazelcastConfigs:
# failure timeout 10 s, heartbeat 1 s, mastership claim timeout 30 s or the failure timeout when
# longer, merge first/next run delay 10 s); --props adds or overrides (a later -D wins; main before
# issue 40 point 3 had a claim timeout of 10 s: --props -Dhazelcast.mastership.claim.timeout.seconds=10).
# One line per run is appended to <out>/summary.tsv; each run's status files and member logs are in
# <out>/<label>-<target>-<n>/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=3
target=master
pause=20
label=baseline
props=""
n=3
base_port=15701
out="$here/results/paused-master"
failure_timeout=10
jar="$here/target/ketama-fault-checker.jar"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"

usage() {
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    cat <<EOF
options: --runs N (3)  --target master|member (master)  --pause S (20)  --label NAME (baseline)
         --props "-Dk=v ..." (none)  --failure-timeout S (10: also judges the target)  --members N (3)
         --base-port P (15701)  --out DIR ($out)  --jar JAR ($jar; build: ./mvnw -o -q -pl load-tests/faults package -DskipTests)
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --target) target=$2; shift 2 ;;
        --pause) pause=$2; shift 2 ;;
        --label) label=$2; shift 2 ;;
        --props) props=$2; shift 2 ;;
        --failure-timeout) failure_timeout=$2; shift 2 ;;
        --members) n=$2; shift 2 ;;
        --base-port) base_port=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --jar) jar=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done
case "$target" in master|member) ;; *) echo "--target is master or member" >&2; exit 2 ;; esac
[ -f "$jar" ] || { echo "no $jar: build it first (./mvnw -o -q -pl load-tests/faults package -DskipTests)" >&2; exit 2; }
mkdir -p "$out"

# The extension's defaults (runtime HazelcastConfigs.faultTiming), then what is under test.
claim=$(( failure_timeout > 30 ? failure_timeout : 30 ))
defaults="-Dhazelcast.max.no.heartbeat.seconds=$failure_timeout -Dhazelcast.heartbeat.interval.seconds=1
 -Dhazelcast.mastership.claim.timeout.seconds=$claim
 -Dhazelcast.merge.first.run.delay.seconds=10 -Dhazelcast.merge.next.run.delay.seconds=10"
# One line a log record, with the time to the millisecond (no spaces: the flags are split on them).
jvm_flags="-Djava.util.logging.SimpleFormatter.format=%1\$tT.%1\$tL|%4\$s|%5\$s%6\$s%n -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 --add-modules java.se
 --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
 --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED
 --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED"

pids=()
cleanup() {
    for pid in "${pids[@]:-}"; do
        [ -n "$pid" ] || continue
        kill -CONT "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]:-}"; do
        [ -n "$pid" ] || continue
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    pids=()
}
trap cleanup EXIT INT TERM

now_ms() { date +%s%3N; }

# The latest member list of every member, one line each ("" when it wrote none yet).
views() {
    local dir=$1 i
    for i in $(seq 0 $((n - 1))); do
        { tail -n 1 "$dir/status-$((base_port + i)).txt" 2>/dev/null || true; } | awk '{print $3} END {if (NR == 0) print ""}'
    done
}

one_cluster_of_n() {
    local dir=$1 v
    v=$(views "$dir")
    [ "$(echo "$v" | sort -u | wc -l)" -eq 1 ] && [ "$(echo "$v" | sed -n 1p | tr ',' '\n' | grep -c .)" -eq "$n" ]
}

run_once() {
    local k=$1 dir="$out/$label-$target-$k" i cluster="repro-$$-$k-$RANDOM"
    rm -rf "$dir"; mkdir -p "$dir"
    pids=()
    for i in $(seq 0 $((n - 1))); do
        # shellcheck disable=SC2086
        "$java_bin" $jvm_flags $defaults $props -cp "$jar" io.ketama.load.faults.PausedMasterRepro \
            member "$i" "$n" "$base_port" "$cluster" "$dir/status-$((base_port + i)).txt" \
            >"$dir/member-$((base_port + i)).log" 2>&1 &
        pids+=($!)
    done
    local deadline=$(( $(now_ms) + 90000 )) stable_since=0
    while :; do
        if one_cluster_of_n "$dir"; then
            [ "$stable_since" -gt 0 ] || stable_since=$(now_ms)
            [ $(( $(now_ms) - stable_since )) -ge 3000 ] && break
        else
            stable_since=0
        fi
        if [ "$(now_ms)" -gt "$deadline" ]; then
            echo "run $k: no cluster of $n within 90 s" >&2
            printf '%s\t%s\t%s\tno cluster of %s at start\n' "$label" "$target" "$k" "$n" >>"$out/summary.tsv"
            cleanup
            return
        fi
        sleep 0.2
    done
    local list master_port victim_port victim_pid
    list=$(views "$dir" | sed -n 1p)
    master_port=${list%%,*}; master_port=${master_port##*:}
    if [ "$target" = master ]; then
        victim_port=$master_port
    else
        victim_port=${list##*,}; victim_port=${victim_port##*:}
    fi
    victim_pid=${pids[$((victim_port - base_port))]}
    local load stop cont
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    stop=$(now_ms)
    kill -STOP "$victim_pid"
    echo "$stop STOP 127.0.0.1:$victim_port (pid $victim_pid, master 127.0.0.1:$master_port) loadavg $load" >>"$dir/commands.log"
    sleep "$pause"
    cont=$(now_ms)
    kill -CONT "$victim_pid"
    echo "$cont CONT 127.0.0.1:$victim_port loadavg $(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/commands.log"
    deadline=$(( cont + 60000 )); stable_since=0
    while [ "$(now_ms)" -lt "$deadline" ]; do
        if one_cluster_of_n "$dir"; then
            [ "$stable_since" -gt 0 ] || stable_since=$(now_ms)
            [ $(( $(now_ms) - stable_since )) -ge 2000 ] && break
        else
            stable_since=0
        fi
        sleep 0.2
    done
    cleanup
    local figures
    figures=$("$java_bin" -cp "$jar" io.ketama.load.faults.PausedMasterRepro analyze "$dir" "$n" "$base_port" \
        "$victim_port" "$stop" "$cont" "$failure_timeout")
    printf '%s\t%s\t%s\t%s\tloadavg=%s\n' "$label" "$target" "$k" "$figures" "$load" | tee -a "$out/summary.tsv"
    # The lines that say what Hazelcast did: suspicions, mastership claims, member lists, merges.
    grep -hE 'Suspecting|Mastership|mastership|is merging|explicit suspicion|Ignoring heartbeat|Members \{size|split' \
        "$dir"/member-*.log >"$dir/key-lines.txt" 2>/dev/null || true
}

echo "# $(date -u +%FT%TZ) label=$label target=$target runs=$runs pause=${pause}s props=[$props] commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo -)" >>"$out/summary.tsv"
for k in $(seq 1 "$runs"); do
    run_once "$k"
done
