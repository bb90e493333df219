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
    "hash": "29af7a20e521cba9",
    "name": "xrpl-mainnet-accounts",
  },
  Object {
    "hash": "d5591e106fc9da7f",
    "name": "xrpl-mainnet-activations",
  },
  Object {
    "hash": "557b7bd42fc91c06",
    "name": "xrpl-mainnet-activity",
  },
  Object {
    "hash": "d4c71c95a81c41ab",
    "name": "xrpl-mainnet-amendments",
  },
  Object {
    "hash": "165e520327af1693",
    "name": "xrpl-mainnet-api-keys",
  },
  Object {
    "hash": "23ce6aada860cd7f",
    "name": "xrpl-mainnet-balance-changes",
  },
  Object {
    "hash": "39f74b55bc88f5d6",
    "name": "xrpl-mainnet-balances",
  },
  Object {
    "hash": "4f6cf4c52ab9dd8a",
    "name": "xrpl-mainnet-dead-letters",
  },
  Object {
    "hash": "e1b17fed410ee8f6",
    "name": "xrpl-mainnet-deletions",
  },
  Object {
    "hash": "008504896e465eee",
    "name": "xrpl-mainnet-facts",
  },
  Object {
    "hash": "2be60dcb0c8019b2",
    "name": "xrpl-mainnet-ingest-state",
  },
  Object {
    "hash": "d2661b2d5accf37e",
    "name": "xrpl-mainnet-kyc",
  },
  Object {
    "hash": "688b684314929eb3",
    "name": "xrpl-mainnet-ledgers",
  },
  Object {
    "hash": "d1617b17e3d45515",
    "name": "xrpl-mainnet-locators",
  },
  Object {
    "hash": "df857941f11dad01",
    "name": "xrpl-mainnet-manifests",
  },
  Object {
    "hash": "516580016ad093e4",
    "name": "xrpl-mainnet-metrics",
  },
  Object {
    "hash": "1f8eb216ac6b08c6",
    "name": "xrpl-mainnet-names",
  },
  Object {
    "hash": "d973f8c2362d9c3c",
    "name": "xrpl-mainnet-network",
  },
  Object {
    "hash": "a6a6ba5ce91b6b15",
    "name": "xrpl-mainnet-nfts",
  },
  Object {
    "hash": "14adaa3319c7dd87",
    "name": "xrpl-mainnet-nodes",
  },
  Object {
    "hash": "32716d7a7f920547",
    "name": "xrpl-mainnet-objects",
  },
  Object {
    "hash": "b641863c7a1482ba",
    "name": "xrpl-mainnet-payg-channels",
  },
  Object {
    "hash": "93512e9234e4967d",
    "name": "xrpl-mainnet-sql-cursors",
  },
  Object {
    "hash": "77f872d053b422d7",
    "name": "xrpl-mainnet-threads",
  },
  Object {
    "hash": "ed075f756ac4f876",
    "name": "xrpl-mainnet-tokens",
  },
  Object {
    "hash": "7a414f018d6eb4e9",
    "name": "xrpl-mainnet-transactions",
  },
  Object {
    "hash": "c3efb35c74ffbf4d",
    "name": "xrpl-mainnet-usage",
  },
  Object {
    "hash": "f1e622ce43deb32a",
    "name": "xrpl-mainnet-validations",
  },
  Object {
    "hash": "8c9de8ff94010d01",
    "name": "xrpl-mainnet-validators",
  },
]
`
