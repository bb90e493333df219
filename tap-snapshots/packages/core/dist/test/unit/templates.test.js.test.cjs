/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`packages/core/dist/test/unit/templates.test.js > TAP > composed names, patterns and components for a prefix and network > template hashes change only when content does 1`] = `
Array [
  Object {
    "hash": "141dd1ac77acf5bd",
    "name": "xrpl-mainnet-accounts",
  },
  Object {
    "hash": "8c8ebabff8a35024",
    "name": "xrpl-mainnet-amendments",
  },
  Object {
    "hash": "7089f3864590e1f9",
    "name": "xrpl-mainnet-api-keys",
  },
  Object {
    "hash": "bf32e82e6c3c7ac6",
    "name": "xrpl-mainnet-balances",
  },
  Object {
    "hash": "4530e2e11406eb03",
    "name": "xrpl-mainnet-dead-letters",
  },
  Object {
    "hash": "b42b610cdfef86e5",
    "name": "xrpl-mainnet-facts",
  },
  Object {
    "hash": "8675799b9d08e450",
    "name": "xrpl-mainnet-ingest-state",
  },
  Object {
    "hash": "ad1786b653f7de86",
    "name": "xrpl-mainnet-kyc",
  },
  Object {
    "hash": "13fb17ece410e6db",
    "name": "xrpl-mainnet-ledgers",
  },
  Object {
    "hash": "67fea11a7df8b863",
    "name": "xrpl-mainnet-manifests",
  },
  Object {
    "hash": "5f98cef8a8b40841",
    "name": "xrpl-mainnet-metrics",
  },
  Object {
    "hash": "3c3926fd9db95ec0",
    "name": "xrpl-mainnet-names",
  },
  Object {
    "hash": "61e40cbb9e5af0f1",
    "name": "xrpl-mainnet-network",
  },
  Object {
    "hash": "f8075af964281479",
    "name": "xrpl-mainnet-nodes",
  },
  Object {
    "hash": "29a23f48ad4709ba",
    "name": "xrpl-mainnet-objects",
  },
  Object {
    "hash": "31c2739fa956e858",
    "name": "xrpl-mainnet-payg-channels",
  },
  Object {
    "hash": "4cbce708ac7f32d9",
    "name": "xrpl-mainnet-tokens",
  },
  Object {
    "hash": "7fb2e5f3bd3b51f8",
    "name": "xrpl-mainnet-transactions",
  },
  Object {
    "hash": "aac8fd281e88ae64",
    "name": "xrpl-mainnet-usage",
  },
  Object {
    "hash": "1ab77f5c39c803df",
    "name": "xrpl-mainnet-validations",
  },
  Object {
    "hash": "c9dd65b79f288e39",
    "name": "xrpl-mainnet-validators",
  },
]
`
