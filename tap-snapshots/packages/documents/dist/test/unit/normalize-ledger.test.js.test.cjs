/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`packages/documents/dist/test/unit/normalize-ledger.test.js > TAP > the ledger document > ledger document 1`] = `
Object {
  "_total_coins": 99988344659927000,
  "account_hash": "E08CF5C141F662249E3DA1571D4D4FF3B59A15A2402E672F8EB294B53DCA2DF7",
  "close_flags": 0,
  "close_time": 750776741,
  "close_time_human": "2023-10-16T13:05:41.000Z",
  "close_time_resolution": 10,
  "destroyed_coins": 36014,
  "ledger_hash": "5AD1661D05272FC53AB2056DBEF57ECB69C223BDF4D1574E39B96D3F5977DF2D",
  "ledger_index": 83258110,
  "parent_close_time": 750776740,
  "parent_hash": "317665E0E2C53D06B8BD5FE256E134DC46DB7F64FDB58DB3AF9FF866BC0C9088",
  "total_coins": "99988344659927009",
  "transaction_hash": "D7055B919C446DF06686A709CBCFCE9168E532DDA04352064AB579B664B22453",
  "tx_count": 40,
  "validated": true,
}
`
