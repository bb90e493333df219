#!/usr/bin/env bash
# All tests: installs what is missing, then typecheck, lint, format and every test tier against a
# real Elasticsearch node that the test run starts and stops itself. Arguments go to the runner
# (e.g. `--tier unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install.sh
# The metrics test reads /metrics with Prometheus's own parser (Go: github.com/prometheus/common/expfmt).
need go "Go 1.22 or newer builds the Prometheus text parser of the metrics test: https://go.dev/dl"
echo "== building the Prometheus text parser"
go -C test/prometheus-parser build -o "$PWD/.data/tools/prometheus-parse" .
exec node scripts/dist/src/test.js "$@"
