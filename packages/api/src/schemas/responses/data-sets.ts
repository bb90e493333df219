import Type from 'typebox';
import { AMM_TRANSACTION_TYPES, FACT_DESCRIPTIONS, LISTED_OBJECT_TYPES } from '@xle/documents';
import { Address, Hash, IsoDate, LabelObject, Nullable, OpenObject } from './common.js';

/**
 * Response schemas of the derived data sets (packages/api/src/routes/data-sets.ts): amendments,
 * facts, metrics, the rich list, network snapshots and crawled nodes. Written from the spec's
 * tables and from what the shapers and the ingester jobs that write these documents produce.
 */

/** A base58 node public key (`n...`): node keys (`n9...`) and validator master keys (`nH...`). */
export const NodePublicKey = Type.String({
  pattern: '^n[1-9A-HJ-NP-Za-km-z]{1,52}$',
  description: 'Base58 node public key, starts with n.',
});

/** A non-negative integer written as decimal text, as rippled writes its queue sizes and fee levels. */
const UintString = (description: string) => Type.String({ pattern: '^[0-9]+$', description });

/** A decimal number as text (facts keep their exact value this way). */
const Decimal = (description: string) => Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', description });

const Count = (description: string) => Type.Integer({ minimum: 0, description });

// ---------------------------------------------------------------------------------------------
// Amendments

/** The spec's Amendment. */
export const Amendment = OpenObject(
  {
    amendment_id: { ...Hash, description: 'Amendment id: 64 upper-case hex characters.' },
    name: Type.Optional(
      Type.String({
        description: 'Amendment name. Absent for an amendment seen on the ledger but unknown to the bundled list.',
      }),
    ),
    introduced: Type.Optional(
      Type.String({ description: 'The rippled version that introduced it (absent when the name is unknown).' }),
    ),
    enabled: Type.Boolean({ description: 'Enabled on the network.' }),
    majority: Nullable(IsoDate, 'Since when it holds a validator majority (ISO 8601); null when it holds none.'),
    supported: Type.Boolean({ description: 'A current rippled knows it (listed and not obsolete).' }),
    count: Type.Optional(Count('Trusted validators voting for it. Present while voting (not enabled).')),
    threshold: Type.Optional(
      Count('Votes needed for a majority (80 % of the trusted validators). Present while voting.'),
    ),
    validations: Type.Optional(Count('Trusted validators whose votes were counted. Present while voting.')),
    enabled_on: Type.Optional({ ...IsoDate, description: 'When it was enabled (ISO 8601); present when enabled.' }),
    tx_hash: Type.Optional({
      ...Hash,
      description: 'The EnableAmendment transaction that enabled it; present when enabled.',
    }),
    ledger_index: Type.Optional(
      Type.Integer({ description: 'The ledger that enabled it; present when enabled (not in the spec).' }),
    ),
    obsolete: Type.Boolean({ description: 'Marked obsolete by rippled (not in the spec).' }),
    retired: Type.Boolean({
      description: 'Retired: enabled so long ago that its code path is always on (not in the spec).',
    }),
    as_of: Type.Optional(
      OpenObject(
        {
          ledger_index: Type.Integer({ minimum: 0, description: 'The newest indexed ledger the status was read at.' }),
          date: IsoDate,
          behind: Type.Optional(
            Type.Boolean({
              description:
                'True while ledgers indexed since that read (newer, or older ones added below) are not read yet: an amendment enabled in one of them is not shown enabled until the next run.',
            }),
          ),
        },
        'The ledger this status is as of: an amendment enabled after it is not enabled here.',
      ),
    ),
  },
  'An amendment and its status as of the newest indexed ledger the amendments job read (`as_of`).',
);

/** GET /amendments. */
export const AmendmentList = Type.Array(Amendment, {
  description: 'Every amendment known to mainnet rippled or seen on the ledger, by name (unnamed ones last).',
});

// ---------------------------------------------------------------------------------------------
// Facts

const factProperties = (facts: Record<string, string>) =>
  Object.fromEntries(Object.entries(facts).map(([id, text]) => [id, Decimal(text)]));

/** The ObjectCount namespace: ledger entry type → count. */
export const ObjectCountFacts = Type.Object(
  Object.fromEntries(LISTED_OBJECT_TYPES.map((type) => [type, UintString(`${type} entries in the indexed state.`)])),
  {
    additionalProperties: UintString('Entries of another ledger entry type found in the indexed state.'),
    description:
      'ObjectCount: ledger entry type name to count (decimal text). The spec’s sixteen types are always listed ("0" when none); any other type found is listed too.',
  },
);

/** The XRP namespace: native-currency distribution. */
export const XrpFacts = Type.Object(factProperties(FACT_DESCRIPTIONS.XRP), {
  additionalProperties: Decimal('Another fact.'),
  description: 'XRP: native-currency distribution facts, each a decimal string (amounts in XRP).',
});

/** The AMM namespace. */
export const AmmFacts = Type.Object(factProperties(FACT_DESCRIPTIONS.AMM), {
  additionalProperties: Decimal('Another fact.'),
  description: 'AMM: facts about the AMM pools, each a decimal string.',
});

/** GET /fact/{NAMESPACE_ID}. */
export const Facts = Type.Union([ObjectCountFacts, XrpFacts, AmmFacts], {
  description: 'The facts of one namespace as of the newest indexed ledger: fact name to value (a decimal string).',
});

/** GET /fact/{NAMESPACE_ID}/{FACT_ID}. */
export const Fact = Type.Object(
  { value: Decimal('The fact’s value, a decimal string.') },
  { additionalProperties: false, description: 'One fact.' },
);

// ---------------------------------------------------------------------------------------------
// Metrics

const MetricDate = { ...IsoDate, description: 'The UTC day (midnight, ISO 8601).' };

export const AggregateMetric = OpenObject(
  {
    accounts_created: Count('Accounts created that day.'),
    ledger_count: Count('Indexed ledgers closed that day.'),
    ledger_interval: Type.Number({
      minimum: 0,
      description: 'Mean seconds between those ledgers’ closes (0 below two).',
    }),
    payments_count: Count('Payments closed that day.'),
    transaction_count: Count('Transactions closed that day.'),
    tx_per_ledger: Type.Number({ minimum: 0, description: 'Transactions per indexed ledger of that day.' }),
  },
  'Aggregate ledger metrics of one day.',
);

const CountsBy = (what: string) =>
  Type.Record(Type.String(), Count('Transactions.'), { description: `Transactions of that day per ${what}.` });

export const AmmMetric = OpenObject(
  {
    ...Object.fromEntries(AMM_TRANSACTION_TYPES.map((t) => [t, Count(`${t} transactions that day.`)])),
    total: Count('All AMM transactions that day.'),
  },
  'AMM transactions of one day per type, and their total.',
);

/** One daily record of any metric: `{date, <METRIC_ID>: {...}}`. */
export const MetricRecord = Type.Union(
  [
    OpenObject({ date: MetricDate, metric: AggregateMetric }, 'A day of `metric`.'),
    OpenObject({ date: MetricDate, type: CountsBy('TransactionType') }, 'A day of `type`.'),
    OpenObject({ date: MetricDate, result: CountsBy('TransactionResult') }, 'A day of `result`.'),
    OpenObject({ date: MetricDate, amm: AmmMetric }, 'A day of `amm`.'),
  ],
  { description: 'One daily record: `date` and a key named after the metric id.' },
);

/** GET /metrics/{METRIC_ID}. */
export const Metrics = Type.Array(MetricRecord, {
  description:
    'Daily records of the metric, oldest first, one per day with data. metric: accounts_created, ledger_count, ' +
    'ledger_interval (s), payments_count, transaction_count, tx_per_ledger; type: count per TransactionType; ' +
    'result: count per TransactionResult; amm: count per AMM transaction type and total.',
});

// ---------------------------------------------------------------------------------------------
// Balances

/** The label of a rich-list account, with the label record's fields. */
export const BalanceLabel = Type.Object(
  {
    ...LabelObject.properties,
    _id: Type.String({ description: 'The label record’s id (the account).' }),
    __v: Type.Integer({ description: 'The label record’s revision (always 0).' }),
  },
  { additionalProperties: true, description: 'A label of a well-known account, with its record id and revision.' },
);

/** The spec's Balance entry. */
export const BalanceEntry = OpenObject(
  {
    account: Address,
    balance: Type.Integer({ minimum: 0, description: 'XRP balance in drops (1 XRP = 1,000,000 drops).' }),
    name: Nullable(BalanceLabel, 'The account’s label, null when it has none.'),
  },
  'One account of the rich list.',
);

/** GET /balances. */
export const Balances = Type.Array(BalanceEntry, {
  description: 'The top accounts by XRP balance, largest first (a snapshot, not real time).',
});

// ---------------------------------------------------------------------------------------------
// Network snapshots (rippled answers, passed through)

/** GET /network/fee: rippled's `fee` answer as last snapshotted. */

/** Where a network answer comes from, and what this service has indexed beside it. */
const SnapshotOf = OpenObject(
  {
    ledger_index: Type.Integer({
      minimum: 0,
      description: 'The ledger the answer describes (its own, never relabelled).',
    }),
    ledger_time: Type.Union([IsoDate, Type.Null()], {
      description:
        'That ledger’s time: the answer’s own (server_info’s `time`), else the ledger’s close time when this service has indexed it; null when neither is known.',
    }),
    taken_at: IsoDate,
    server: Type.Optional(Type.String({ description: 'The server this service asked.' })),
  },
  'Which rippled answer the fields above are, and when this service took it: its ledger fields (`ledger_current_index`, `complete_ledgers`, `validated_ledger`) are that server’s at that ledger and time, not this service’s (see `indexed`).',
);
const IndexedSpan = OpenObject(
  {
    ledger_index_min: Type.Integer({
      minimum: 0,
      description: 'The oldest ledger this service has indexed (0 when none).',
    }),
    ledger_index_max: Type.Integer({
      minimum: 0,
      description: 'The newest ledger this service has indexed (0 when none).',
    }),
  },
  'What this service has indexed (its own ledgers; /status lists the gaps).',
);

export const NetworkFee = OpenObject(
  {
    current_ledger_size: UintString('Transactions in the open ledger.'),
    current_queue_size: UintString('Transactions in the queue.'),
    expected_ledger_size: UintString('Transactions the next ledger is expected to hold.'),
    max_queue_size: Type.Optional(
      UintString('The queue’s capacity. rippled leaves it out until its queue has a size limit.'),
    ),
    drops: OpenObject(
      {
        base_fee: UintString('Reference transaction cost, in drops.'),
        median_fee: UintString('Median fee of the last validated ledger’s transactions, in drops.'),
        minimum_fee: UintString('Minimum fee to enter the queue, in drops.'),
        open_ledger_fee: UintString('Fee to enter the open ledger now, in drops.'),
      },
      'Fees in drops of XRP.',
    ),
    levels: OpenObject(
      {
        median_level: UintString('Median fee level.'),
        minimum_level: UintString('Minimum fee level to enter the queue.'),
        open_ledger_level: UintString('Fee level to enter the open ledger.'),
        reference_level: UintString('Fee level of a reference transaction (256).'),
      },
      'Fee levels (unitless; 256 is the reference).',
    ),
    ledger_current_index: Type.Integer({ description: 'The open ledger of the rippled server the answer describes.' }),
    snapshot: SnapshotOf,
    indexed: IndexedSpan,
  },
  'Current network fees: the newest snapshot of rippled’s `fee` answer, with when it was taken (`snapshot`) and what this service has indexed (`indexed`). Other fields follow the fee command.',
);

/** GET /network/server_info. */
export const ServerInfo = OpenObject(
  {
    info: OpenObject(
      {
        build_version: Type.Optional(Type.String({ description: 'rippled version.' })),
        complete_ledgers: Type.Optional(
          Type.String({ description: 'Ledger ranges held, e.g. `32570-82521701`, or `empty`.' }),
        ),
        initial_sync_duration_us: Type.Optional(
          Type.String({ description: 'Microseconds the first sync took (text).' }),
        ),
        io_latency_ms: Type.Optional(Type.Number({ description: 'I/O latency, ms.' })),
        jq_trans_overflow: Type.Optional(Type.String({ description: 'Job queue overflows (text).' })),
        last_close: Type.Optional(
          OpenObject(
            {
              converge_time_s: Type.Optional(Type.Number({ description: 'Seconds the last consensus round took.' })),
              proposers: Type.Optional(Type.Integer({ description: 'Validators that proposed in it.' })),
            },
            'The last ledger close.',
          ),
        ),
        load_factor: Type.Optional(Type.Number({ description: 'Load multiplier of the transaction cost.' })),
        node_size: Type.Optional(Type.String({ description: 'Configured node size (admin answers only).' })),
        peer_disconnects: Type.Optional(Type.String({ description: 'Peer disconnections (text).' })),
        peer_disconnects_resources: Type.Optional(
          Type.String({ description: 'Disconnections for resource use (text).' }),
        ),
        peers: Type.Optional(Type.Integer({ description: 'Connected peers.' })),
        pubkey_node: Type.Optional(Type.String({ description: 'The server’s node public key.' })),
        pubkey_validator: Type.Optional(
          Type.String({ description: 'Its validator key, or `none` (admin answers only).' }),
        ),
        server_state: Type.Optional(Type.String({ description: 'e.g. `full`, `syncing`, `proposing`.' })),
        server_state_duration_us: Type.Optional(Type.String({ description: 'Microseconds in that state (text).' })),
        time: Type.Optional(Type.String({ description: 'Server clock, rippled’s text form (UTC).' })),
        uptime: Type.Optional(Type.Integer({ description: 'Seconds since start.' })),
        validated_ledger: Type.Optional(
          OpenObject(
            {
              age: Type.Optional(Type.Number({ description: 'Seconds since it closed.' })),
              base_fee_xrp: Type.Optional(Type.Number({ description: 'Reference cost, XRP.' })),
              hash: Type.Optional(Type.String({ description: 'Ledger hash.' })),
              reserve_base_xrp: Type.Optional(Type.Number({ description: 'Account reserve, XRP.' })),
              reserve_inc_xrp: Type.Optional(Type.Number({ description: 'Owner reserve per object, XRP.' })),
              seq: Type.Optional(Type.Integer({ description: 'Ledger index.' })),
            },
            'The newest validated ledger (absent while the server is not synced).',
          ),
        ),
        validation_quorum: Type.Optional(Type.Integer({ description: 'Validations needed to validate a ledger.' })),
        validator_list: Type.Optional(
          OpenObject(
            {
              count: Type.Optional(Type.Integer()),
              expiration: Type.Optional(Type.String()),
              status: Type.Optional(Type.String()),
            },
            'The validator list in use (admin answers only).',
          ),
        ),
      },
      'rippled’s `info` as answered. Every field is optional: rippled leaves some out (admin-only fields, ' +
        '`validated_ledger` while syncing) and older or Clio servers answer fewer. Other fields follow the server_info command.',
    ),
    snapshot: SnapshotOf,
    indexed: IndexedSpan,
  },
  'Server information: the `info` of the newest snapshot of rippled’s `server_info` answer, with when it was taken (`snapshot`) and what this service has indexed (`indexed`).',
);

/** GET /network/server_versions. */
export const ServerVersions = Type.Array(
  Type.String({ description: 'A rippled version, e.g. `2.3.0` or `2.4.0-rc1`.' }),
  {
    uniqueItems: true,
    description: 'rippled versions seen on the network (server snapshots, peer nodes, validators), newest first.',
  },
);

// ---------------------------------------------------------------------------------------------
// Nodes (peer crawl)

/** The spec's Node: one peer node as the crawl last saw it. */
export const Node = OpenObject(
  {
    public_key: { ...NodePublicKey, description: 'Node public key (base58, n...).' },
    asn: Type.Optional(
      Type.String({
        pattern: '^AS[1-9][0-9]*$',
        description:
          'The autonomous system its address is announced from, e.g. `AS24940`, from the operator’s IP-to-AS table (`NODES_ASN_FILE`, iptoasn.com’s format) at the crawl; absent without one, or when the table routes no range holding the address.',
      }),
    ),
    isp: Type.Optional(
      Type.String({
        description: 'That AS’s registered name, e.g. `HETZNER-AS` (not in the spec); absent with `asn`.',
      }),
    ),
    complete_ledgers: Type.Optional(
      Type.String({
        description: 'Ledger ranges the node holds, e.g. `45498918-45500918`; absent when it did not say.',
      }),
    ),
    ip: Type.Optional(
      Type.String({ description: 'IP address; absent for a crawled server itself and for peers that hide it.' }),
    ),
    port: Type.Optional(Type.Integer({ description: 'Peer port (not in the spec).' })),
    last_seen: {
      ...IsoDate,
      description:
        'When a crawl last saw it (ISO 8601): the crawled server’s own clock when its answer was made (its `server.time`), or the fetch time when the answer has none or a clock ahead of the fetch.',
    },
    last_seen_unix: Type.Integer({ description: 'The same instant, Unix seconds.' }),
    crawled_at: Type.Optional({ ...IsoDate, description: 'When this service fetched that crawl answer.' }),
    server_version: Type.Optional(Type.String({ description: 'rippled version, e.g. `1.2.1`; absent when unknown.' })),
    version: Type.Optional(
      Type.String({ description: 'Version as the node gives it, e.g. `rippled-1.2.1`; absent when unknown.' }),
    ),
    type: Type.Optional(
      Type.String({ description: 'Connection direction as the crawled server saw it (`in`/`out`; not in the spec).' }),
    ),
    uptime: Type.Optional(
      Type.Integer({ description: 'Seconds connected, as the crawled server saw it (not in the spec).' }),
    ),
  },
  'A peer node, as the newest crawl that saw it reported it.',
);

/** GET /nodes. */
export const NodeList = Type.Array(Node, { description: 'The nodes the newest crawl saw, by public key.' });
