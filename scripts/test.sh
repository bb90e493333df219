#!/usr/bin/env bash
# All tests: installs what is missing, then typecheck, lint, format and every test tier against a
# real Elasticsearch node that the test run starts and stops itself. Arguments go to the runner
# (e.g. `--tier unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install.sh
exec node scripts/dist/src/test.js "$@"
