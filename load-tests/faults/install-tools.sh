#!/usr/bin/env bash
# Installs the operating-system tools the fault harness (faults.sh) and the partition test
# (app: PartitionIT) use, from Debian packages, where they are missing:
#   ip      (iproute2)  network namespaces, veth pairs, bridges
#   nft     (nftables)  per-pair drop rules inside a member's namespace (partial partitions)
#   setsid, nsenter (util-linux) members run in a session of their own; nft runs in a member's network namespace
#   kill    (procps)    SIGSTOP / SIGCONT / SIGKILL of a member
# Needs root and apt-get (Debian, Ubuntu); elsewhere it says what to install and stops.
set -euo pipefail

declare -A PACKAGE=([ip]=iproute2 [nft]=nftables [setsid]=util-linux [nsenter]=util-linux [kill]=procps)
missing=()
for tool in ip nft setsid nsenter kill; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("${PACKAGE[$tool]}")
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
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
