#!/usr/bin/env bash
# Installs what a fresh machine lacks: pnpm (pinned), the workspace's dependencies, the compiled
# packages, and the local engine's jars (unless ES_URL points at a cluster). Idempotent and quick
# when everything is already there. Sourced by start.sh and test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PNPM_VERSION="$(node -p "require('./package.json').packageManager.split('@')[1]")"

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "error: $1 is required ($2)" >&2; exit 1; }
}
need node "Node.js 20.19 or newer"
need npm "comes with Node.js"

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "== installing pnpm $PNPM_VERSION"
  if ! npm install -g --silent "pnpm@$PNPM_VERSION" >/dev/null 2>&1; then
    # No write access to the global prefix: keep pnpm inside the project instead.
    npm install --silent --prefix .data/tools "pnpm@$PNPM_VERSION" >/dev/null
    export PATH="$PWD/.data/tools/node_modules/.bin:$PATH"
  fi
fi

echo "== installing dependencies"
pnpm install --frozen-lockfile --reporter=silent
echo "== building"
pnpm -s build

if [ -z "${ES_URL:-}" ]; then
  need java "Java 17 or newer runs the local Elasticsearch node: apt-get install openjdk-17-jre-headless"
  need mvn "Maven fetches the Elasticsearch jars from Maven Central: apt-get install maven"
  pnpm -s engine fetch
fi
