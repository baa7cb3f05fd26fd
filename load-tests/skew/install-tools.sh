#!/usr/bin/env bash
# Installs the operating-system tools the skew benchmark (skew.sh) uses, from Debian packages,
# where they are missing:
#   nginx   (nginx-light)  the origin, the owner servers and the yardstick router (hash $request_uri consistent)
#   haproxy (haproxy)      the second yardstick router (hash-type consistent, hash-balance-factor)
#   curl    (curl)         readiness and ring polls
#   ss      (iproute2)     a port already taken stops the run instead of touching its holder
#   wrk     (wrk)          load-tests/throughput.sh, re-measured beside this benchmark
# Needs root and apt-get (Debian, Ubuntu); elsewhere it says what to install and stops.
set -euo pipefail

declare -A PACKAGE=([nginx]=nginx-light [haproxy]=haproxy [curl]=curl [ss]=iproute2 [wrk]=wrk)
found() { command -v "$1" >/dev/null 2>&1 || [[ -x /usr/sbin/$1 ]]; }
missing=()
for tool in nginx haproxy curl ss wrk; do
  found "$tool" || missing+=("${PACKAGE[$tool]}")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing: ${missing[*]} (Debian package names); install them as root, e.g. apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]} from Debian packages" >&2
# An index older than a day may name package versions the mirror no longer has.
if [[ -z $(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1) ]]; then
  apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
  || { echo "apt-get could not install ${missing[*]}; install them by hand" >&2; exit 1; }
