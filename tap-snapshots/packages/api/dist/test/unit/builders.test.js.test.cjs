/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`packages/api/dist/test/unit/builders.test.js > TAP > account transactions query > a deep page: after the marker 1`] = `
Object {
  "_source": Array [
    "ledger_index",
    "hash",
  ],
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "key": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
          },
        },
        Object {
          "exists": Object {
            "field": "type",
          },
        },
        Object {
          "range": Object {
            "ledger_index": Object {
              "lte": 100,
            },
          },
        },
      ],
    },
  },
  "search_after": Array [
    99,
    3,
  ],
  "size": 3,
  "sort": Array [
    Object {
      "ledger_index": Object {
        "order": "desc",
      },
    },
    Object {
      "transaction_index": Object {
        "order": "desc",
      },
    },
  ],
  "track_total_hits": false,
}
`

exports[`packages/api/dist/test/unit/builders.test.js > TAP > account transactions query > an NFT's history, newest first 1`] = `
Object {
  "_source": Array [
    "ledger_index",
    "hash",
  ],
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "key": "0000000000000000000000000000000000000000000000000000000000000000",
          },
        },
      ],
    },
  },
  "size": 11,
  "sort": Array [
    Object {
      "ledger_index": Object {
        "order": "desc",
      },
    },
    Object {
      "transaction_index": Object {
        "order": "desc",
      },
    },
  ],
  "track_total_hits": false,
}
`

exports[`packages/api/dist/test/unit/builders.test.js > TAP > account transactions query > default: newest first, pinned range 1`] = `
Object {
  "_source": Array [
    "ledger_index",
    "hash",
  ],
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "key": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
          },
        },
        Object {
          "exists": Object {
            "field": "type",
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
      "transaction_index": Object {
        "order": "desc",
      },
    },
  ],
  "track_total_hits": false,
}
`

exports[`packages/api/dist/test/unit/builders.test.js > TAP > account transactions query > every filter, oldest first 1`] = `
Object {
  "_source": Array [
    "ledger_index",
    "hash",
  ],
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "key": "rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw",
          },
        },
        Object {
          "exists": Object {
            "field": "type",
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
            "type": Object {
              "case_insensitive": true,
              "value": "Payment",
            },
          },
        },
        Object {
          "term": Object {
            "result": "tesSUCCESS",
          },
        },
        Object {
          "range": Object {
            "date": Object {
              "gte": "2020-01-01T00:00:00Z",
            },
          },
        },
        Object {
          "term": Object {
            "destination_tag": 7,
          },
        },
        Object {
          "term": Object {
            "currencies": "USD",
          },
        },
        Object {
          "term": Object {
            "received": true,
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
      "transaction_index": Object {
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
