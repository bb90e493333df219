#!/usr/bin/env bash
# Quick start: install everything, start the local Elasticsearch node, apply the index templates,
# load the real sample ledgers and serve the API on port 3000. Ctrl-C stops the API; the engine keeps running until
# `pnpm engine stop`. With ES_URL set, that cluster is used instead and no local node starts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install.sh

pnpm -s engine start
pnpm -s templates apply
# The demo data set: every real mainnet ledger of the shared fixtures (idempotent on re-runs).
# One xrpl4j test ledger there (87704323) does not hash to its header's transaction_hash although
# every transaction's fields verify: the metadata of some transaction is not the ledger's. It is
# indexed anyway, on purpose (still reported), as the demo has always shown it.
pnpm -s ingest file "${XRPL_FIXTURES_DIR:-../shared/xrpl-fixtures}/ledgers" --accept-refused 87704323
# Labels of well-known accounts: the real historical gateways list.
pnpm -s names import "${XRPL_FIXTURES_DIR:-../shared/xrpl-fixtures}/tokens/gateways.rippled-historical-database.json" --source gateways
# Derived data sets from the indexed ledgers: amendments, facts, daily metrics, rich list, tokens.
# Issuers' xrp-ledger.toml files are read from the fixtures' folder (no HTTPS is reachable offline).
TOML_DIR="${TOML_DIR:-${XRPL_FIXTURES_DIR:-../shared/xrpl-fixtures}/tokens/toml}" pnpm -s ingest jobs
# Validators: UNL membership from the real signed validator list of the fixtures (an old one, so
# its expiry is waived; no validations stream is reachable here).
pnpm -s ingest validators --list "${XRPL_FIXTURES_DIR:-../shared/xrpl-fixtures}/validators/xrpl-dev-portal/vl.json" \
  --unl-name vl.ripple.com --allow-expired
# Network fee, server_info and the peer crawl: recorded mainnet answers, replayed locally to the
# ingester's own network and nodes commands (no XRPL network is reachable offline).
node scripts/dist/src/demo-network.js
echo "== serving the API on http://${API_HOST:-127.0.0.1}:${API_PORT:-3000}/api/v1/ping"
exec node packages/site/dist/src/server.js
