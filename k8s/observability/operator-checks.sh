#!/usr/bin/env bash
# Installs the operator-side tools from Debian's packages (promtool from `prometheus`, headless
# `chromium`) and runs the checks that need them, which ./mvnw verify skips with a message where
# they are absent:
#   - promtool check rules / promtool test rules on k8s/observability (PromtoolRulesTest)
#   - the Dev UI card of a dev-mode app in a real headless browser, checked against /route
#     (devui-check.sh; OUT_DIR=docs/pictures keeps its screenshots for the docs)
# Usage: k8s/observability/operator-checks.sh [--no-install]   (installing needs root)
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" != "--no-install" ]; then
  if ! command -v promtool >/dev/null || ! command -v chromium >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
      echo "operator-checks: promtool or chromium is missing and installing them needs root (apt-get)" >&2
      exit 2
    fi
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus chromium fonts-dejavu-core
  fi
fi

echo "== promtool $(promtool --version 2>&1 | head -1)"
(cd k8s/observability && promtool check rules ketama-rules.yaml && promtool test rules promtool-tests.yaml)

source .ci/jdk.sh
echo "== ./mvnw verify of PromtoolRulesTest"
./mvnw -B -q -pl app -am -Dtest=PromtoolRulesTest -Dsurefire.failIfNoSpecifiedTests=false -DskipITs verify

echo "== the Dev UI card in headless chromium, against /route"
k8s/observability/devui-check.sh "${OUT_DIR:-$(mktemp -d)}"
echo "operator-checks: passed"
