#!/usr/bin/env bash
# Re-records core/src/test/resources/hashring/hashring-3.2.0.vectors.gz from the real hashring npm
# module. Needs node and npm (the tests that read the vectors need only a JDK). Run from anywhere:
#   core/src/test/node/record-hashring.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../resources/hashring/hashring-3.2.0.vectors.gz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/record-hashring.js" "$work/"
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent hashring@3.2.0 >/dev/null)
node "$work/record-hashring.js" | gzip -9n > "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
