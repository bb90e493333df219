/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`packages/api/dist/test/unit/builders.test.js > TAP > account transactions query > default: newest first, pinned range 1`] = `
Object {
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "_accounts": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
          },
        },
        Object {
          "range": Object {
            "ledger_index": Object {
              "lte": 94084608,
            },
          },
        },
      ],
    },
  },
  "size": 21,
  "sort": Array [
    Object {
      "ledger_index": Object {
        "order": "desc",
      },
    },
    Object {
      "meta.TransactionIndex": Object {
        "order": "desc",
      },
    },
  ],
  "track_total_hits": false,
}
`

exports[`packages/api/dist/test/unit/builders.test.js > TAP > account transactions query > every filter, oldest first 1`] = `
Object {
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "_accounts": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
          },
        },
        Object {
          "range": Object {
            "ledger_index": Object {
              "lte": 100,
            },
          },
        },
        Object {
          "term": Object {
            "TransactionType": "Payment",
          },
        },
        Object {
          "term": Object {
            "meta.TransactionResult": "tesSUCCESS",
          },
        },
        Object {
          "range": Object {
            "_date": Object {
              "gte": "2020-01-01T00:00:00Z",
            },
          },
        },
        Object {
          "term": Object {
            "DestinationTag": 7,
          },
        },
        Object {
          "bool": Object {
            "minimum_should_match": 1,
            "should": Array [
              Object {
                "term": Object {
                  "Amount.currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "Amount._currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "SendMax.currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "SendMax._currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "TakerGets.currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "TakerGets._currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "TakerPays.currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "TakerPays._currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "LimitAmount.currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "LimitAmount._currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "meta.delivered_amount.currency": "USD",
                },
              },
              Object {
                "term": Object {
                  "meta.delivered_amount._currency": "USD",
                },
              },
            ],
          },
        },
        Object {
          "term": Object {
            "Destination": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
          },
        },
      ],
    },
  },
  "size": 6,
  "sort": Array [
    Object {
      "ledger_index": Object {
        "order": "asc",
      },
    },
    Object {
      "meta.TransactionIndex": Object {
        "order": "asc",
      },
    },
  ],
  "track_total_hits": false,
}
`

exports[`packages/api/dist/test/unit/builders.test.js > TAP > lookups by hash, ctid and ledger > a ledger in transaction order 1`] = `
Object {
  "query": Object {
    "term": Object {
      "ledger_index": 83258110,
    },
  },
  "size": 10000,
  "sort": Array [
    Object {
      "meta.TransactionIndex": Object {
        "order": "asc",
      },
    },
  ],
}
`

exports[`packages/api/dist/test/unit/builders.test.js > TAP > lookups by hash, ctid and ledger > ctid lookup checks the ctid and its parts 1`] = `
Object {
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "ctid": "C4F66AFE00000000",
          },
        },
        Object {
          "term": Object {
            "ledger_index": 83258110,
          },
        },
        Object {
          "term": Object {
            "meta.TransactionIndex": 0,
          },
        },
      ],
    },
  },
  "size": 1,
}
`
