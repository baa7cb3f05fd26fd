#!/usr/bin/env bash
# Records what libmemcached itself answers (Debian's libmemcached-dev, 1.1.4 on Debian 12) into
# core/src/test/resources/ketama-family/libmemcached.vectors.gz, which LibmemcachedVectorsTest
# replays. Installs the library from the OS packages (root, apt-get), compiles a small C program
# against it (pkg-config), and asks memcached_generate_hash for the owner of every key of
# keys.py in each configuration: no server is contacted. For the eject-* configurations (loopback
# addresses where nothing listens) a second program records the failover order by real
# auto-ejection: each refused connection ejects the owner. Run it again only to re-record.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../resources/ketama-family"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! pkg-config --exists libmemcached; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libmemcached-dev pkg-config gcc python3
fi
gcc -O2 -o "$work/route" "$here/libmemcached-route.c" $(pkg-config --cflags --libs libmemcached)
gcc -O2 -o "$work/eject" "$here/libmemcached-eject.c" $(pkg-config --cflags --libs libmemcached)
python3 "$here/keys.py" > "$work/keys.txt"
mkdir -p "$out"
gzip -9n < "$work/keys.txt" > "$out/keys.txt.gz"
cd "$here" && python3 record-libmemcached.py "$work/route" "$work/eject" "$work/keys.txt" "$out/libmemcached.vectors.gz"
echo "recorded $(zcat "$out/libmemcached.vectors.gz" | grep -c '^config') configurations into $out/libmemcached.vectors.gz"
