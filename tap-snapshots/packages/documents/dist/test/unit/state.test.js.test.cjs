/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`packages/documents/dist/test/unit/state.test.js > TAP > a payment that creates an account gives an object and an activation > account change with activation 1`] = `
Object {
  "activation": Object {
    "_initial_balance": 1000,
    "inception": "2013-06-11T20:01:20.000Z",
    "initial_balance": "1000",
    "ledger_index": 1021029,
    "parent": "rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj",
    "tx_hash": "E011E6D20BE1FAC7C37F2FA0D36F0811C404B118D936963051600796FF2C0CBC",
  },
  "doc": Object {
    "_updated_ledger_index": 1021029,
    "Account": "rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z",
    "Balance": Object {
      "_currency": "XRP",
      "_drops": "1000000000",
      "_value": 1000,
      "currency": "XRP",
      "native": true,
      "value": "1000",
    },
    "deleted": false,
    "Flags": 0,
    "index": "8E1BC9E76DC163DDA0BC36F550166C1E7FBFF390B1DCB5EA4E11C3AF7AE4AA52",
    "LedgerEntryType": "AccountRoot",
    "OwnerCount": 0,
    "PreviousTxnID": "E011E6D20BE1FAC7C37F2FA0D36F0811C404B118D936963051600796FF2C0CBC",
    "PreviousTxnLgrSeq": 1021029,
    "Sequence": 1,
  },
  "id": "rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z",
  "tx": Object {
    "Account": "rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj",
    "Amount": "1000000000",
    "Destination": "rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z",
    "Fee": "10",
    "Flags": 0,
    "hash": "E011E6D20BE1FAC7C37F2FA0D36F0811C404B118D936963051600796FF2C0CBC",
    "metaData": Object {
      "AffectedNodes": Array [
        Object {
          "ModifiedNode": Object {
            "FinalFields": Object {
              "Account": "rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj",
              "Balance": "1325359954520",
              "Flags": 0,
              "OwnerCount": 0,
              "Sequence": 4549,
            },
            "LedgerEntryType": "AccountRoot",
            "LedgerIndex": "2A4549B1677594D698D2634002106753A938EAF9F8CB96B8C8185BF016EE5608",
            "PreviousFields": Object {
              "Balance": "1326359954530",
              "Sequence": 4548,
            },
            "PreviousTxnID": "1AE742ADA15D6EBC289A38F565EBBF9A9D27396F961B432929A1139AB0514522",
            "PreviousTxnLgrSeq": 1021028,
          },
        },
        Object {
          "CreatedNode": Object {
            "LedgerEntryType": "AccountRoot",
            "LedgerIndex": "8E1BC9E76DC163DDA0BC36F550166C1E7FBFF390B1DCB5EA4E11C3AF7AE4AA52",
            "NewFields": Object {
              "Account": "rHTaDFHJng6YVtThvv522LmJfkocBVkK6Z",
              "Balance": "1000000000",
              "Sequence": 1,
            },
          },
        },
      ],
      "TransactionIndex": 0,
      "TransactionResult": "tesSUCCESS",
    },
    "Sequence": 4548,
    "SigningPubKey": "02FCD113E3991A0E9702533A7F849981C1AEE8079884D4FFAD8E066D85AC94AE1B",
    "TransactionType": "Payment",
    "TxnSignature": "304502201D7B37886D825B98E9BC15809224903E591637F7FB783134A870D3BAFBB8188D0221008BC14674FF937F87B7A55D7B8C81AC8286202A67AF498EB202DAE8D63BCE0114",
  },
  "version": 66914156544,
}
`

exports[`packages/documents/dist/test/unit/state.test.js > TAP > a payment that creates an account gives an object and an activation > ledger object change 1`] = `
Object {
  "doc": Object {
    "_accounts": Array [
      "rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj",
    ],
    "Account": "rJR7gjNe3DpJ7kpB4CHBxjDKfwVMpTKPpj",
    "Balance": Object {
      "_currency": "XRP",
      "_drops": "1325359954520",
      "_value": 1325359.95452,
      "currency": "XRP",
      "native": true,
      "value": "1325359.95452",
    },
    "deleted": false,
    "Flags": 0,
    "index": "2A4549B1677594D698D2634002106753A938EAF9F8CB96B8C8185BF016EE5608",
    "ledger_index": 1021029,
    "LedgerEntryType": "AccountRoot",
    "OwnerCount": 0,
    "PreviousTxnID": "E011E6D20BE1FAC7C37F2FA0D36F0811C404B118D936963051600796FF2C0CBC",
    "PreviousTxnLgrSeq": 1021029,
    "Sequence": 4549,
  },
  "id": "2A4549B1677594D698D2634002106753A938EAF9F8CB96B8C8185BF016EE5608",
  "version": 66914156544,
}
`
