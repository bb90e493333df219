/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`packages/search/dist/test/unit/translate.test.js > TAP > aliases > SELECT hash AS h, "Amount._value" AS amount FROM transactions 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "h",
      "type": "keyword",
    },
    Object {
      "name": "amount",
      "type": "double",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
    Object {
      "col": "Amount._value",
      "type": "double",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > and or not > SELECT hash FROM transactions WHERE (TransactionType = 'Payment' OR TransactionType = 'OfferCreate') AND NOT "meta.TransactionResult" = 'tesSUCCESS' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "bool": Object {
            "minimum_should_match": 1,
            "should": Array [
              Object {
                "term": Object {
                  "TransactionType": Object {
                    "value": "Payment",
                  },
                },
              },
              Object {
                "term": Object {
                  "TransactionType": Object {
                    "value": "OfferCreate",
                  },
                },
              },
            ],
          },
        },
        Object {
          "bool": Object {
            "filter": Array [
              Object {
                "exists": Object {
                  "field": "meta.TransactionResult",
                },
              },
            ],
            "must_not": Array [
              Object {
                "term": Object {
                  "meta.TransactionResult": Object {
                    "value": "tesSUCCESS",
                  },
                },
              },
            ],
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > between > SELECT hash FROM transactions WHERE "Amount._value" BETWEEN 1 AND 1000 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "Amount._value": Object {
              "gte": 1,
              "lte": 1000,
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > boolean literal > SELECT hash FROM transactions WHERE validated = TRUE 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "validated": Object {
              "value": true,
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > column list > SELECT hash, Account, ledger_index FROM transactions 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
    Object {
      "name": "Account",
      "type": "keyword",
    },
    Object {
      "name": "ledger_index",
      "type": "long",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
    Object {
      "col": "Account",
      "type": "keyword",
    },
    Object {
      "col": "ledger_index",
      "type": "long",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > count column and distinct > SELECT TransactionType, COUNT(Destination), COUNT(DISTINCT Account) FROM transactions GROUP BY TransactionType 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "TransactionType",
      "type": "keyword",
    },
    Object {
      "name": "COUNT(Destination)",
      "type": "long",
    },
    Object {
      "name": "COUNT(DISTINCT Account)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {
    "m0": Object {
      "value_count": Object {
        "field": "Destination",
      },
    },
    "m1": Object {
      "cardinality": Object {
        "field": "Account",
      },
    },
  },
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "metric": "m0",
    },
    Object {
      "metric": "m1",
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "TransactionType",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > date comparison > SELECT hash FROM transactions WHERE _date >= '2023-10-16T00:00:00Z' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "_date": Object {
              "gte": "2023-10-16T00:00:00.000Z",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > date_trunc day > SELECT DATE_TRUNC('day', _date) AS d, SUM(_Fee) FROM transactions GROUP BY d ORDER BY d DESC 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "d",
      "type": "datetime",
    },
    Object {
      "name": "SUM(_Fee)",
      "type": "double",
    },
  ],
  "kind": "groups",
  "metrics": Object {
    "m0": Object {
      "stats": Object {
        "field": "_Fee",
      },
    },
  },
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "metric": "m0",
      "part": "sum",
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "date_histogram": Object {
          "calendar_interval": "1d",
          "field": "_date",
          "missing_bucket": true,
          "order": "desc",
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > date_trunc hour > SELECT DATE_TRUNC('hour', _date) AS h, COUNT(*) FROM transactions GROUP BY h 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "h",
      "type": "datetime",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "date_histogram": Object {
          "calendar_interval": "1h",
          "field": "_date",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > date_trunc month repeated in group by > SELECT DATE_TRUNC('month', _date), COUNT(*) FROM transactions GROUP BY DATE_TRUNC('month', _date) 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "DATE_TRUNC('month', _date)",
      "type": "datetime",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "date_histogram": Object {
          "calendar_interval": "1M",
          "field": "_date",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > equality on keyword > SELECT hash FROM transactions WHERE TransactionType = 'Payment' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "TransactionType": Object {
              "value": "Payment",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > escaped quote in a string > SELECT hash FROM transactions WHERE "Memos.Memo._MemoData" = 'it''s' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "Memos.Memo._MemoData.raw": Object {
              "value": "it's",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > expressions > SELECT Fee / 1000000 AS xrp, _Fee * 2, UPPER(hash), CASE WHEN Fee > 10 THEN 'high' ELSE 'low' END AS band, CAST(Sequence AS VARCHAR), COALESCE(DestinationTag, 0), YEAR(_date), EXTRACT(MONTH FROM _date), 'tx:' || hash FROM transactions 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "xrp",
      "type": "long",
    },
    Object {
      "name": "_Fee * 2",
      "type": "double",
    },
    Object {
      "name": "UPPER(hash)",
      "type": "keyword",
    },
    Object {
      "name": "band",
      "type": "keyword",
    },
    Object {
      "name": "CAST(Sequence AS VARCHAR)",
      "type": "keyword",
    },
    Object {
      "name": "COALESCE(DestinationTag, 0)",
      "type": "long",
    },
    Object {
      "name": "YEAR(_date)",
      "type": "long",
    },
    Object {
      "name": "EXTRACT(MONTH FROM _date)",
      "type": "long",
    },
    Object {
      "name": "'tx:' || hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "integral": true,
      "left": Object {
        "col": "Fee",
        "type": "long",
      },
      "op": "/",
      "right": Object {
        "lit": 1000000,
      },
    },
    Object {
      "left": Object {
        "col": "_Fee",
        "type": "double",
      },
      "op": "*",
      "right": Object {
        "lit": 2,
      },
    },
    Object {
      "args": Array [
        Object {
          "col": "hash",
          "type": "keyword",
        },
      ],
      "fn": "UPPER",
    },
    Object {
      "case": Array [
        Object {
          "then": Object {
            "lit": "high",
          },
          "when": Object {
            "cmp": ">",
            "left": Object {
              "col": "Fee",
              "type": "long",
            },
            "right": Object {
              "lit": 10,
            },
          },
        },
      ],
      "else": Object {
        "lit": "low",
      },
    },
    Object {
      "cast": Object {
        "col": "Sequence",
        "type": "long",
      },
      "to": "keyword",
    },
    Object {
      "args": Array [
        Object {
          "col": "DestinationTag",
          "type": "long",
        },
        Object {
          "lit": 0,
        },
      ],
      "fn": "COALESCE",
    },
    Object {
      "args": Array [
        Object {
          "col": "_date",
          "type": "date",
        },
      ],
      "fn": "YEAR",
    },
    Object {
      "args": Array [
        Object {
          "col": "_date",
          "type": "date",
        },
      ],
      "fn": "MONTH",
    },
    Object {
      "left": Object {
        "lit": "tx:",
      },
      "op": "||",
      "right": Object {
        "col": "hash",
        "type": "keyword",
      },
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > flipped range > SELECT hash FROM transactions WHERE 100 < "Amount._value" 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "Amount._value": Object {
              "gt": 100,
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > full text with filters > SELECT hash FROM transactions WHERE MATCH("Memos.Memo._MemoData", 'x') AND ledger_index > 1 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "ledger_index": Object {
              "gt": 1,
            },
          },
        },
      ],
      "must": Array [
        Object {
          "match": Object {
            "Memos.Memo._MemoData": Object {
              "query": "x",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > global aggregates > SELECT COUNT(*), SUM(_Fee), AVG("Amount._value") FROM transactions WHERE TransactionType = 'Payment' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
    Object {
      "name": "SUM(_Fee)",
      "type": "double",
    },
    Object {
      "name": "AVG(\\"Amount._value\\")",
      "type": "double",
    },
  ],
  "kind": "groups",
  "metrics": Object {
    "m0": Object {
      "stats": Object {
        "field": "_Fee",
      },
    },
    "m1": Object {
      "avg": Object {
        "field": "Amount._value",
      },
    },
  },
  "offset": 0,
  "outputs": Array [
    Object {
      "count": true,
    },
    Object {
      "metric": "m0",
      "part": "sum",
    },
    Object {
      "metric": "m1",
    },
  ],
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "TransactionType": Object {
              "value": "Payment",
            },
          },
        },
      ],
    },
  },
  "sources": Array [],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > group by alias > SELECT TransactionType AS type, COUNT(*) AS n FROM transactions GROUP BY type 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "type",
      "type": "keyword",
    },
    Object {
      "name": "n",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "TransactionType",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > group by count > SELECT TransactionType, COUNT(*) FROM transactions GROUP BY TransactionType 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "TransactionType",
      "type": "keyword",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "TransactionType",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > group by two keys > SELECT TransactionType, "meta.TransactionResult", COUNT(*) FROM transactions GROUP BY TransactionType, "meta.TransactionResult" 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "TransactionType",
      "type": "keyword",
    },
    Object {
      "name": "meta.TransactionResult",
      "type": "keyword",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "key": "g1",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "TransactionType",
          "missing_bucket": true,
        },
      },
    },
    Object {
      "g1": Object {
        "terms": Object {
          "field": "meta.TransactionResult",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > group with where and limit offset > SELECT Account, COUNT(*) FROM transactions WHERE TransactionType = 'Payment' GROUP BY Account LIMIT 5 OFFSET 5 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "Account",
      "type": "keyword",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "limit": 5,
  "metrics": Object {},
  "offset": 5,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "TransactionType": Object {
              "value": "Payment",
            },
          },
        },
      ],
    },
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "Account",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > having > SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account HAVING COUNT(*) > 10 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "Account",
      "type": "keyword",
    },
    Object {
      "name": "n",
      "type": "long",
    },
  ],
  "having": Object {
    "cmp": ">",
    "left": Object {
      "ref": Object {
        "count": true,
      },
    },
    "right": Object {
      "value": 10,
    },
  },
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "Account",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > having on alias > SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account HAVING n BETWEEN 2 AND 9 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "Account",
      "type": "keyword",
    },
    Object {
      "name": "n",
      "type": "long",
    },
  ],
  "having": Object {
    "and": Array [
      Object {
        "cmp": ">=",
        "left": Object {
          "ref": Object {
            "count": true,
          },
        },
        "right": Object {
          "value": 2,
        },
      },
      Object {
        "cmp": "<=",
        "left": Object {
          "ref": Object {
            "count": true,
          },
        },
        "right": Object {
          "value": 9,
        },
      },
    ],
  },
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "Account",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > having with an aggregate not selected > SELECT Account FROM transactions GROUP BY Account HAVING SUM(_Fee) >= 100 AND COUNT(*) < 5 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "Account",
      "type": "keyword",
    },
  ],
  "having": Object {
    "and": Array [
      Object {
        "cmp": ">=",
        "left": Object {
          "ref": Object {
            "metric": "m0",
            "part": "sum",
          },
        },
        "right": Object {
          "value": 100,
        },
      },
      Object {
        "cmp": "<",
        "left": Object {
          "ref": Object {
            "count": true,
          },
        },
        "right": Object {
          "value": 5,
        },
      },
    ],
  },
  "kind": "groups",
  "metrics": Object {
    "m0": Object {
      "stats": Object {
        "field": "_Fee",
      },
    },
  },
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "Account",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > histogram by 6 hours > SELECT HISTOGRAM(_date, INTERVAL 6 HOUR) AS h, COUNT(*) FROM transactions GROUP BY h 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "h",
      "type": "datetime",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "date_histogram": Object {
          "field": "_date",
          "fixed_interval": "21600000ms",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > histogram by day > SELECT HISTOGRAM(_date, INTERVAL 1 DAY) AS day, COUNT(*) FROM transactions GROUP BY day 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "day",
      "type": "datetime",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "date_histogram": Object {
          "calendar_interval": "1d",
          "field": "_date",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > histogram by month > SELECT HISTOGRAM(_date, INTERVAL 1 MONTH) AS m, COUNT(*) FROM transactions GROUP BY m 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "m",
      "type": "datetime",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "date_histogram": Object {
          "calendar_interval": "1M",
          "field": "_date",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > in > SELECT hash FROM transactions WHERE TransactionType IN ('Payment', 'OfferCreate') 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "terms": Object {
            "TransactionType": Array [
              "Payment",
              "OfferCreate",
            ],
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > is not null > SELECT hash FROM transactions WHERE DestinationTag IS NOT NULL 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "exists": Object {
            "field": "DestinationTag",
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > is null > SELECT hash FROM transactions WHERE DestinationTag IS NULL 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "must_not": Array [
        Object {
          "exists": Object {
            "field": "DestinationTag",
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > keywords in lower case > select hash from transactions where TransactionType = 'Payment' limit 1 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "limit": 1,
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "TransactionType": Object {
              "value": "Payment",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > ledgers table > SELECT ledger_index, tx_count FROM ledgers WHERE tx_count > 100 ORDER BY ledger_index DESC 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "ledger_index",
      "type": "long",
    },
    Object {
      "name": "tx_count",
      "type": "long",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "tx_count": Object {
              "gt": 100,
            },
          },
        },
      ],
    },
  },
  "sort": Array [
    Object {
      "ledger_index": Object {
        "order": "desc",
      },
    },
  ],
  "table": "ledgers",
  "values": Array [
    Object {
      "col": "ledger_index",
      "type": "long",
    },
    Object {
      "col": "tx_count",
      "type": "long",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > like > SELECT hash FROM transactions WHERE Account LIKE 'rKi%' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "wildcard": Object {
            "Account": Object {
              "value": "rKi*",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > like single char and escapes > SELECT hash FROM transactions WHERE Account LIKE 'r_x*?%' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "wildcard": Object {
            "Account": Object {
              "value": "r?x\\\\*\\\\?*",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > limit > SELECT hash FROM transactions LIMIT 5 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "limit": 5,
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > limit offset > SELECT hash FROM transactions LIMIT 5 OFFSET 10 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "limit": 5,
  "offset": 10,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > literal first > SELECT hash FROM transactions WHERE 'Payment' = TransactionType 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "TransactionType": Object {
              "value": "Payment",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > match on decoded memos > SELECT hash FROM transactions WHERE MATCH("Memos.Memo._MemoData", 'hello world') 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "must": Array [
        Object {
          "match": Object {
            "Memos.Memo._MemoData": Object {
              "query": "hello world",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > match on several fields > SELECT hash FROM transactions WHERE MATCH('Memos.Memo._MemoData^2,Memos.Memo._MemoType', 'invoice') 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "must": Array [
        Object {
          "multi_match": Object {
            "fields": Array [
              "Memos.Memo._MemoData^2",
              "Memos.Memo._MemoType",
            ],
            "query": "invoice",
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > match with options > SELECT hash FROM transactions WHERE MATCH("Memos.Memo._MemoData", 'hello world', 'operator=AND;fuzziness=AUTO') 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "must": Array [
        Object {
          "match": Object {
            "Memos.Memo._MemoData": Object {
              "fuzziness": "AUTO",
              "operator": "AND",
              "query": "hello world",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > min max of dates > SELECT MIN(_date), MAX(_date) FROM transactions 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "MIN(_date)",
      "type": "datetime",
    },
    Object {
      "name": "MAX(_date)",
      "type": "datetime",
    },
  ],
  "kind": "groups",
  "metrics": Object {
    "m0": Object {
      "min": Object {
        "field": "_date",
      },
    },
    "m1": Object {
      "max": Object {
        "field": "_date",
      },
    },
  },
  "offset": 0,
  "outputs": Array [
    Object {
      "metric": "m0",
    },
    Object {
      "metric": "m1",
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > negative and decimal numbers > SELECT hash FROM transactions WHERE "Amount._value" > -1.5 AND _Fee < 1.2e1 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "Amount._value": Object {
              "gt": -1.5,
            },
          },
        },
        Object {
          "range": Object {
            "_Fee": Object {
              "lt": 12,
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > not between > SELECT hash FROM transactions WHERE "Amount._value" NOT BETWEEN 1 AND 1000 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "exists": Object {
            "field": "Amount._value",
          },
        },
      ],
      "must_not": Array [
        Object {
          "range": Object {
            "Amount._value": Object {
              "gte": 1,
              "lte": 1000,
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > not equal > SELECT hash FROM transactions WHERE TransactionType <> 'Payment' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "exists": Object {
            "field": "TransactionType",
          },
        },
      ],
      "must_not": Array [
        Object {
          "term": Object {
            "TransactionType": Object {
              "value": "Payment",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > not equal bang > SELECT hash FROM transactions WHERE TransactionType != 'Payment' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "exists": Object {
            "field": "TransactionType",
          },
        },
      ],
      "must_not": Array [
        Object {
          "term": Object {
            "TransactionType": Object {
              "value": "Payment",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > not in > SELECT hash FROM transactions WHERE TransactionType NOT IN ('Payment', 'OfferCreate') 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "exists": Object {
            "field": "TransactionType",
          },
        },
      ],
      "must_not": Array [
        Object {
          "terms": Object {
            "TransactionType": Array [
              "Payment",
              "OfferCreate",
            ],
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > not like > SELECT hash FROM transactions WHERE Account NOT LIKE 'rKi%' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "exists": Object {
            "field": "Account",
          },
        },
      ],
      "must_not": Array [
        Object {
          "wildcard": Object {
            "Account": Object {
              "value": "rKi*",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > not of a group > SELECT hash FROM transactions WHERE NOT (ledger_index > 3 OR ledger_index < 1) 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "bool": Object {
            "filter": Array [
              Object {
                "exists": Object {
                  "field": "ledger_index",
                },
              },
            ],
            "must_not": Array [
              Object {
                "range": Object {
                  "ledger_index": Object {
                    "gt": 3,
                  },
                },
              },
            ],
          },
        },
        Object {
          "bool": Object {
            "filter": Array [
              Object {
                "exists": Object {
                  "field": "ledger_index",
                },
              },
            ],
            "must_not": Array [
              Object {
                "range": Object {
                  "ledger_index": Object {
                    "lt": 1,
                  },
                },
              },
            ],
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > numeric histogram > SELECT HISTOGRAM(ledger_index, 1000000) AS l, COUNT(*) FROM transactions GROUP BY l 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "l",
      "type": "long",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "histogram": Object {
          "field": "ledger_index",
          "interval": 1000000,
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > order by > SELECT hash, ledger_index FROM transactions ORDER BY ledger_index DESC, hash 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
    Object {
      "name": "ledger_index",
      "type": "long",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [
    Object {
      "ledger_index": Object {
        "order": "desc",
      },
    },
    Object {
      "hash": Object {
        "order": "asc",
      },
    },
  ],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
    Object {
      "col": "ledger_index",
      "type": "long",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > order by aggregate expression > SELECT Account, SUM(_Fee) FROM transactions GROUP BY Account ORDER BY SUM(_Fee) DESC LIMIT 3 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "Account",
      "type": "keyword",
    },
    Object {
      "name": "SUM(_Fee)",
      "type": "double",
    },
  ],
  "kind": "groups",
  "limit": 3,
  "metrics": Object {
    "m0": Object {
      "stats": Object {
        "field": "_Fee",
      },
    },
  },
  "offset": 0,
  "order": Array [
    Object {
      "desc": true,
      "ref": Object {
        "metric": "m0",
        "part": "sum",
      },
    },
  ],
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "metric": "m0",
      "part": "sum",
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "Account",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > order by aggregate with limit > SELECT Account, COUNT(*) AS n FROM transactions GROUP BY Account ORDER BY n DESC LIMIT 10 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "Account",
      "type": "keyword",
    },
    Object {
      "name": "n",
      "type": "long",
    },
  ],
  "kind": "groups",
  "limit": 10,
  "metrics": Object {},
  "offset": 0,
  "order": Array [
    Object {
      "desc": true,
      "ref": Object {
        "count": true,
      },
    },
  ],
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "Account",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > order by alias > SELECT "Amount._value" AS v FROM transactions ORDER BY v DESC 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "v",
      "type": "double",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [
    Object {
      "Amount._value": Object {
        "order": "desc",
      },
    },
  ],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "Amount._value",
      "type": "double",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > order by group key desc > SELECT TransactionType, COUNT(*) FROM transactions GROUP BY TransactionType ORDER BY TransactionType DESC 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "TransactionType",
      "type": "keyword",
    },
    Object {
      "name": "COUNT(*)",
      "type": "long",
    },
  ],
  "kind": "groups",
  "metrics": Object {},
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "count": true,
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "TransactionType",
          "missing_bucket": true,
          "order": "desc",
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > order by text uses its keyword > SELECT hash FROM transactions ORDER BY "Memos.Memo._MemoData" 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [
    Object {
      "Memos.Memo._MemoData.raw": Object {
        "order": "asc",
      },
    },
  ],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > query > SELECT hash FROM transactions WHERE QUERY('TransactionType:Payment AND Fee:12') 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "must": Array [
        Object {
          "query_string": Object {
            "query": "TransactionType:Payment AND Fee:12",
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > quoted dotted name > SELECT "meta.TransactionResult" FROM transactions 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "meta.TransactionResult",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "meta.TransactionResult",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > ranges > SELECT hash FROM transactions WHERE ledger_index >= 83258110 AND ledger_index < 94084608 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "ledger_index": Object {
              "gte": 83258110,
            },
          },
        },
        Object {
          "range": Object {
            "ledger_index": Object {
              "lt": 94084608,
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > relative dates > SELECT hash FROM transactions WHERE _date > NOW() - INTERVAL 7 DAY AND _date < CURRENT_DATE 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "range": Object {
            "_date": Object {
              "gt": "2026-11-20T10:00:00.000Z",
            },
          },
        },
        Object {
          "range": Object {
            "_date": Object {
              "lt": "2026-11-27T00:00:00.000Z",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > star > SELECT * FROM ledgers 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "_total_coins",
      "type": "double",
    },
    Object {
      "name": "account_hash",
      "type": "keyword",
    },
    Object {
      "name": "close_flags",
      "type": "long",
    },
    Object {
      "name": "close_time",
      "type": "long",
    },
    Object {
      "name": "close_time_human",
      "type": "datetime",
    },
    Object {
      "name": "close_time_resolution",
      "type": "long",
    },
    Object {
      "name": "destroyed_coins",
      "type": "long",
    },
    Object {
      "name": "ledger_hash",
      "type": "keyword",
    },
    Object {
      "name": "ledger_index",
      "type": "long",
    },
    Object {
      "name": "parent_close_time",
      "type": "long",
    },
    Object {
      "name": "parent_hash",
      "type": "keyword",
    },
    Object {
      "name": "total_coins",
      "type": "keyword",
    },
    Object {
      "name": "transaction_hash",
      "type": "keyword",
    },
    Object {
      "name": "tx_count",
      "type": "long",
    },
    Object {
      "name": "validated",
      "type": "boolean",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "ledgers",
  "values": Array [
    Object {
      "col": "_total_coins",
      "type": "double",
    },
    Object {
      "col": "account_hash",
      "type": "keyword",
    },
    Object {
      "col": "close_flags",
      "type": "long",
    },
    Object {
      "col": "close_time",
      "type": "long",
    },
    Object {
      "col": "close_time_human",
      "type": "date",
    },
    Object {
      "col": "close_time_resolution",
      "type": "long",
    },
    Object {
      "col": "destroyed_coins",
      "type": "long",
    },
    Object {
      "col": "ledger_hash",
      "type": "keyword",
    },
    Object {
      "col": "ledger_index",
      "type": "long",
    },
    Object {
      "col": "parent_close_time",
      "type": "long",
    },
    Object {
      "col": "parent_hash",
      "type": "keyword",
    },
    Object {
      "col": "total_coins",
      "type": "keyword",
    },
    Object {
      "col": "transaction_hash",
      "type": "keyword",
    },
    Object {
      "col": "tx_count",
      "type": "long",
    },
    Object {
      "col": "validated",
      "type": "boolean",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > sum avg min max > SELECT Account, SUM(_Fee), AVG(_Fee), MIN(_Fee), MAX(_Fee) FROM transactions GROUP BY Account 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "Account",
      "type": "keyword",
    },
    Object {
      "name": "SUM(_Fee)",
      "type": "double",
    },
    Object {
      "name": "AVG(_Fee)",
      "type": "double",
    },
    Object {
      "name": "MIN(_Fee)",
      "type": "double",
    },
    Object {
      "name": "MAX(_Fee)",
      "type": "double",
    },
  ],
  "kind": "groups",
  "metrics": Object {
    "m0": Object {
      "stats": Object {
        "field": "_Fee",
      },
    },
    "m1": Object {
      "avg": Object {
        "field": "_Fee",
      },
    },
    "m2": Object {
      "min": Object {
        "field": "_Fee",
      },
    },
    "m3": Object {
      "max": Object {
        "field": "_Fee",
      },
    },
  },
  "offset": 0,
  "outputs": Array [
    Object {
      "key": "g0",
    },
    Object {
      "metric": "m0",
      "part": "sum",
    },
    Object {
      "metric": "m1",
    },
    Object {
      "metric": "m2",
    },
    Object {
      "metric": "m3",
    },
  ],
  "query": Object {
    "match_all": Object {},
  },
  "sources": Array [
    Object {
      "g0": Object {
        "terms": Object {
          "field": "Account",
          "missing_bucket": true,
        },
      },
    },
  ],
  "table": "transactions",
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > table-qualified column > SELECT t.hash FROM transactions t WHERE t.Fee = '12' 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "hash",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "bool": Object {
      "filter": Array [
        Object {
          "term": Object {
            "Fee": Object {
              "value": "12",
            },
          },
        },
      ],
    },
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "hash",
      "type": "keyword",
    },
  ],
}
`

exports[`packages/search/dist/test/unit/translate.test.js > TAP > unquoted dotted name > SELECT meta.TransactionResult FROM transactions 1`] = `
Object {
  "columns": Array [
    Object {
      "name": "meta.TransactionResult",
      "type": "keyword",
    },
  ],
  "kind": "rows",
  "offset": 0,
  "query": Object {
    "match_all": Object {},
  },
  "sort": Array [],
  "table": "transactions",
  "values": Array [
    Object {
      "col": "meta.TransactionResult",
      "type": "keyword",
    },
  ],
}
`
