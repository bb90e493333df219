import Type from 'typebox';
import { IsoDate, Nullable, OpenObject } from './common.js';

/**
 * GET /status: the completeness report (not in the spec): what the indices hold, how current it
 * is, and who is writing it.
 */

const UInt = (description: string) => Type.Integer({ minimum: 0, description });
const Span = Type.Object(
  { from: UInt('First ledger of the span.'), to: UInt('Last ledger of the span.') },
  { additionalProperties: false, description: 'An inclusive span of ledger indices.' },
);
const Network = Type.Union([Type.Literal('mainnet'), Type.Literal('testnet')], { description: 'XRPL network.' });

const NetworkStatus = OpenObject(
  {
    network: Network,
    ledgers: OpenObject(
      {
        first: Nullable(UInt('Lowest indexed ledger.'), 'Lowest indexed ledger; null when none is.'),
        last: Nullable(UInt('Highest indexed ledger.'), 'Highest indexed ledger; null when none is.'),
        indexed: UInt('Ledgers indexed.'),
        missing: UInt('Ledgers between the first and the last that are not indexed.'),
        complete: Type.Boolean({
          description: 'True when ledgers are indexed and none is missing between first and last.',
        }),
        ranges: Type.Array(Span, { description: 'Indexed spans in ledger order (the first 1,000).' }),
        gaps: Type.Array(Span, { description: 'Missing spans between them, in ledger order (the first 1,000).' }),
        ranges_count: UInt('How many indexed spans there are.'),
        gaps_count: UInt('How many gaps there are (besides the unresolved spans).'),
        unresolved: Type.Array(
          Type.Object(
            { from: UInt('First ledger.'), to: UInt('Last ledger.'), indexed: UInt('Ledgers of the span indexed.') },
            { additionalProperties: false },
          ),
          {
            description: 'Partly indexed spans the report did not break down (it bounds its own cost); usually empty.',
          },
        ),
      },
      'Which ledgers the ledgers index holds, read from the index itself.',
    ),
    newest: Nullable(
      OpenObject(
        {
          ledger_index: UInt('Newest indexed ledger.'),
          close_time_human: Nullable(IsoDate, 'Its close time.'),
          age_seconds: UInt('Seconds since it closed.'),
        },
        'The newest indexed ledger.',
      ),
      'The newest indexed ledger; null when none is.',
    ),
    validated: Nullable(
      OpenObject(
        {
          ledger_index: UInt('Newest validated ledger seen.'),
          seen_at: IsoDate,
          source: Type.String({ description: 'Who saw it: the live follower, or a server_info snapshot of a server.' }),
          lag_ledgers: Nullable(UInt('Validated ledgers not indexed yet.'), 'How far the index is behind it.'),
        },
        'The newest validated ledger the ingester has seen on the network, and the lag behind it.',
      ),
      'Null until a live follower or a network snapshot has seen one.',
    ),
    data_sets: Type.Array(
      OpenObject(
        {
          name: Type.String({ description: 'The job that computes it.' }),
          computed: Type.Boolean({
            description: 'False until its first run completes (its routes answer 503 DATA_NOT_READY).',
          }),
          as_of_ledger: Nullable(UInt('Newest ledger its last run read.'), 'Null before its first run.'),
          computed_at: Nullable(IsoDate, 'When its last run completed.'),
          age_seconds: Nullable(UInt('Seconds since then.'), 'Null before its first run.'),
          behind: Nullable(
            Type.Boolean({
              description:
                'True while ledgers indexed since its last run (newer ones, or older ones a backfill or file ingest added below) or a state snapshot are not in it: its figures leave them out until the next run of `pnpm ingest jobs` (or `live`, which runs it) has read them.',
            }),
            'Null for a data set not computed from the ledgers (validators, network, nodes) and before its first run.',
          ),
          unread_ledgers: Nullable(UInt('Indexed ledgers its last run did not read.'), 'Null as `behind`.'),
          unread_ranges: Nullable(
            Type.Array(
              Type.Object({ from: UInt('First ledger.'), to: UInt('Last ledger.') }, { additionalProperties: false }),
              { description: 'The first ten ranges of those ledgers.' },
            ),
            'Null as `behind`.',
          ),
          state_changed: Nullable(
            Type.Boolean({ description: 'A state snapshot was written since its last run.' }),
            'Null as `behind`.',
          ),
        },
        'A derived data set: what its last run read, and whether anything indexed since is not in it.',
      ),
      { description: 'Every derived data set a route serves.' },
    ),
    workers: Type.Array(
      OpenObject(
        {
          owner: Type.String({ description: 'The worker’s name.' }),
          source: Type.String({ description: 'Where it reads ledgers from.' }),
          state: Type.String({ description: '`following` (live), `working`, `waiting` or `finished` (backfill).' }),
          heartbeat_at: IsoDate,
          heartbeat_age_seconds: Nullable(UInt('Seconds since its last heartbeat.')),
          progress: Nullable(UInt('Last ledger it indexed.')),
          validated_ledger: Nullable(UInt('The live follower: newest validated ledger its server announced.')),
        },
        'An ingest worker’s last heartbeat.',
      ),
      { description: 'Ingest workers, newest heartbeat first (the 100 newest).' },
    ),
  },
  'The completeness report of one network.',
);

export const StatusReport = OpenObject(
  {
    network: Network,
    generated_at: IsoDate,
    networks: Type.Array(NetworkStatus, {
      description: 'This address’s network first, then every other network indexed under the same prefix.',
    }),
  },
  'What the indices hold and how current they are.',
);
