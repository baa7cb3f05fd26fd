#!/usr/bin/env bash
# Records what twemproxy itself answers (Debian's nutcracker package, 0.5.0) into
# core/src/test/resources/ketama-family/twemproxy.vectors.gz, which TwemproxyVectorsTest
# replays. Installs nutcracker from the OS packages (root, apt-get), starts fake memcached
# servers on 127.0.0.x (loopback only) that answer each get with their own address, routes
# every key of keys.py through each pool of one nutcracker process, and, in pools with
# auto_eject_hosts, makes servers fail one by one and routes every key again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../resources/ketama-family"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! command -v nutcracker >/dev/null && [ ! -x /usr/sbin/nutcracker ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nutcracker python3
fi
nutcracker="$(command -v nutcracker || echo /usr/sbin/nutcracker)"
python3 "$here/keys.py" > "$work/keys.txt"
mkdir -p "$out"
cd "$here" && python3 record-twemproxy.py "$nutcracker" "$work/keys.txt" "$out/twemproxy.vectors.gz" "$work"
echo "recorded $(zcat "$out/twemproxy.vectors.gz" | grep -c '^config') pools into $out/twemproxy.vectors.gz"
