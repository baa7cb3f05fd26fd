#!/usr/bin/env bash
# The Dev UI card in a real browser: starts a dev-mode app (./mvnw quarkus:dev) with two more
# members (java -jar) on loopback, opens its Dev UI card in headless Chromium (Debian's chromium),
# looks keys up there and checks what the page shows against the app's GET /route
# (checks/DevUiCheck.java, over Chromium's DevTools protocol); writes the card's screenshot and the
# ring picture (GET /ring as SVG, and as PNG) to docs/pictures/. Stops everything it started.
# Usage: k8s/observability/devui-check.sh [OUT_DIR]   (needs chromium: operator-checks.sh installs it)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-docs/pictures}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
command -v chromium >/dev/null || { echo "devui-check: chromium is not installed (apt-get install chromium)" >&2; exit 2; }
source .ci/jdk.sh

free_port() { # a port nothing on 127.0.0.1 listens on
  local p
  while :; do
    p=$((20000 + RANDOM % 20000))
    (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null || { echo "$p"; return; }
  done
}

pids=()
logs=$(mktemp -d)
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap stop EXIT

echo "== building the app jar (for the two plain members)"
./mvnw -q -B -pl app -am -DskipTests package

hz1=$(free_port); hz2=$(free_port); hz3=$(free_port)
http1=$(free_port); http2=$(free_port); http3=$(free_port)
mgmt1=$(free_port); mgmt2=$(free_port); mgmt3=$(free_port)
members="127.0.0.1:$hz1,127.0.0.1:$hz2,127.0.0.1:$hz3"
common=(-Dquarkus.http.host=127.0.0.1 -Dquarkus.management.host=127.0.0.1 -Dquarkus.ketama.hazelcast.interface=127.0.0.1
        -Dquarkus.ketama.hazelcast.port-auto-increment=false -Dquarkus.ketama.hazelcast.members=$members
        -Dquarkus.ketama.hazelcast.cluster-name=ketama-devui-check-$$ -Dketama.router.forward.binary.host=127.0.0.1)
opens=(--add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
       --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED
       --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED)

echo "== dev-mode app on 127.0.0.1:$http1, members on :$http2 and :$http3"
./mvnw -q -B -pl app -am quarkus:dev "${common[@]}" -Dquarkus.http.port=$http1 -Dquarkus.management.port=$mgmt1 -Dquarkus.ketama.hazelcast.port=$hz1 \
  -Dquarkus.console.enabled=false -Ddebug=false >"$logs/dev.log" 2>&1 &
pids+=($!)
for i in 2 3; do
  hz=hz$i; http=http$i; mgmt=mgmt$i
  java "${opens[@]}" "${common[@]}" -Dquarkus.http.port=${!http} -Dquarkus.management.port=${!mgmt} -Dquarkus.ketama.hazelcast.port=${!hz} \
    -jar app/target/quarkus-app/quarkus-run.jar >"$logs/member$i.log" 2>&1 &
  pids+=($!)
done

app="http://127.0.0.1:$http1"
for i in $(seq 1 240); do
  n=$(curl -s "$app/ring" 2>/dev/null | grep -o '"address"' | wc -l || true)
  [ "$n" -ge 3 ] && break
  sleep 1
done
[ "${n:-0}" -ge 3 ] || { echo "devui-check: the dev-mode app's rings never held 3 members" >&2; tail -20 "$logs/dev.log" >&2; exit 2; }
curl -s "$app/ring" | head -c 300; echo

curl -s -H 'Accept: image/svg+xml' "$app/ring" > "$out/ring.svg"
profile=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$profile" --window-size=1000,480 \
  --screenshot="$out/ring.png" "file://$out/ring.svg" 2>/dev/null
rm -rf "$profile"

echo "== the card in headless chromium"
java k8s/observability/checks/DevUiCheck.java "$app" "$out/devui-card.png" images/logo.png /api/v1/users/42 "index.html?lang=fr" hot-key-7
