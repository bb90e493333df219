#!/usr/bin/env bash
# All tests: installs what is missing, then typecheck, lint, format and every test tier against a
# real Elasticsearch node that the test run starts and stops itself. Arguments go to the runner
# (e.g. `--tier unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install.sh
# The metrics test reads /metrics with Prometheus's own parser (Go: github.com/prometheus/common/expfmt).
need go "Go 1.22 or newer builds the Prometheus text parser of the metrics test: https://go.dev/dl"
# The browser tier drives Debian's Chromium with playwright-core; a browser is never downloaded.
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then
  need apt-get "the browser tests need Debian's chromium package (or CHROMIUM_PATH naming a Chromium)"
  echo "== installing Debian's chromium for the browser tests"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  # Package lists may be missing on a fresh machine: refresh them only then.
  $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 ||
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null; }
fi
echo "== building the Prometheus text parser"
go -C test/prometheus-parser build -o "$PWD/.data/tools/prometheus-parse" .
exec node scripts/dist/src/test.js "$@"
