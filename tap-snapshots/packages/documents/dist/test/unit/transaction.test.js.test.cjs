/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`packages/documents/dist/test/unit/transaction.test.js > TAP > an issued-currency payment from mainnet ledger 83258110 > transaction document 1`] = `
Object {
  "_accounts": Array [
    "rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht",
    "rM9QPDbQ5W479NmML3wx2eMouCE2ojBReN",
    "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
  ],
  "_date": "2023-10-16T13:05:41.000Z",
  "_Fee": 0.000012,
  "_tokens": Array [
    "785354494B000000000000000000000000000000.rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht",
  ],
  "Account": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
  "Amount": Object {
    "_currency": "xSTIK",
    "_value": 12136,
    "currency": "785354494B000000000000000000000000000000",
    "issuer": "rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht",
    "native": false,
    "value": "12136",
  },
  "ctid": "C4F66AFE00000000",
  "date": 750776741,
  "DeliverMax": Object {
    "_currency": "xSTIK",
    "_value": 12136,
    "currency": "785354494B000000000000000000000000000000",
    "issuer": "rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht",
    "native": false,
    "value": "12136",
  },
  "Destination": "rM9QPDbQ5W479NmML3wx2eMouCE2ojBReN",
  "Fee": "12",
  "Flags": 2147483648,
  "hash": "B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E",
  "LastLedgerSequence": 83258152,
  "ledger_index": 83258110,
  "meta": Object {
    "_objects": Array [
      "04D4F24AF23A8878F3272FB942D874738C16E0F92A6B6579D57391B1A38ED756",
      "2472265D3AA028E5A8430AFEC3616D53F8E1BCC74E243FFA58B5D6DE89AF81CE",
      "98C1D76387EBF2190BDBDA4C270BB21560C739BA1D3351E3E27A25AE792E2585",
    ],
    "_types": Array [
      "AccountRoot",
      "RippleState",
    ],
    "AffectedNodes": Array [
      Object {
        "ModifiedNode": Object {
          "FinalFields": Object {
            "Account": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
            "Balance": "12677660",
            "Flags": 0,
            "MessageKey": "02000000000000000000000000DDAD2FED5391924DA906E4E78594FEAD193AC2C2",
            "OwnerCount": 1,
            "Sequence": 3945,
          },
          "LedgerEntryType": "AccountRoot",
          "LedgerIndex": "04D4F24AF23A8878F3272FB942D874738C16E0F92A6B6579D57391B1A38ED756",
          "PreviousFields": Object {
            "Balance": "12677672",
            "Sequence": 3944,
          },
          "PreviousTxnID": "721CB3D0AE68F44C799D79C524D8B49232104024B6711BFF5238B85E0E479325",
          "PreviousTxnLgrSeq": 83258102,
        },
      },
      Object {
        "ModifiedNode": Object {
          "FinalFields": Object {
            "Balance": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rrrrrrrrrrrrrrrrrrrrBZbvji",
              "value": "-294309",
            },
            "Flags": 2228224,
            "HighLimit": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rM9QPDbQ5W479NmML3wx2eMouCE2ojBReN",
              "value": "760728958",
            },
            "HighNode": "0000000000000000",
            "LowLimit": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht",
              "value": "0",
            },
            "LowNode": "0000000000000D9A",
          },
          "LedgerEntryType": "RippleState",
          "LedgerIndex": "2472265D3AA028E5A8430AFEC3616D53F8E1BCC74E243FFA58B5D6DE89AF81CE",
          "PreviousFields": Object {
            "Balance": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rrrrrrrrrrrrrrrrrrrrBZbvji",
              "value": "-282173",
            },
          },
          "PreviousTxnID": "BD11496DF02CB12AF7A29FA1EADF62874B9845F25B632AE2036824C1FC2E96E9",
          "PreviousTxnLgrSeq": 83255630,
        },
      },
      Object {
        "ModifiedNode": Object {
          "FinalFields": Object {
            "Balance": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rrrrrrrrrrrrrrrrrrrrBZbvji",
              "value": "133496",
            },
            "Flags": 1114112,
            "HighLimit": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht",
              "value": "0",
            },
            "HighNode": "0000000000000D41",
            "LowLimit": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
              "value": "720767479",
            },
            "LowNode": "0000000000000000",
          },
          "LedgerEntryType": "RippleState",
          "LedgerIndex": "98C1D76387EBF2190BDBDA4C270BB21560C739BA1D3351E3E27A25AE792E2585",
          "PreviousFields": Object {
            "Balance": Object {
              "currency": "785354494B000000000000000000000000000000",
              "issuer": "rrrrrrrrrrrrrrrrrrrrBZbvji",
              "value": "145632",
            },
          },
          "PreviousTxnID": "721CB3D0AE68F44C799D79C524D8B49232104024B6711BFF5238B85E0E479325",
          "PreviousTxnLgrSeq": 83258102,
        },
      },
    ],
    "delivered_amount": Object {
      "_currency": "xSTIK",
      "_value": 12136,
      "currency": "785354494B000000000000000000000000000000",
      "issuer": "rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht",
      "native": false,
      "value": "12136",
    },
    "TransactionIndex": 0,
    "TransactionResult": "tesSUCCESS",
  },
  "Sequence": 3944,
  "SigningPubKey": "0337AB9FC391BC0879043178C87BA01E42DD32D42CAB7C6189520A1EE684174F28",
  "TransactionType": "Payment",
  "TxnSignature": "3045022100D77FBBAE37996B2E01AE43092DFB4359E399C24ECD14DAC0A4D97597DD7CDC0402203CF6103010A6C34CD0F4B7F6C4486D2EFC09B609F0F02D8095155D5AAC4CA6DF",
  "validated": true,
}
`
