import { errors, type Client } from '@elastic/elasticsearch';
import type { Config } from '../config.js';
import { CommandError } from '../errors.js';
import { DEFAULT_RANGE_LEDGERS, indexTemplateName, rangeStartOf, type IndexNaming } from '../index-names.js';

/**
 * The index layout of one prefix and network as recorded in the cluster: how many ledgers each
 * range index holds, the primary shards of new range and state indices, their replicas, and a
 * generation counted up each time `templates apply` records a different shape.
 *
 * Where it lives: in the `_meta.layout` of every index template of the network. A template is
 * cluster state, so reading it is one request that any node answers from memory, touching no
 * shard and needing no refresh; it exists exactly when `templates apply` ran for the network; and
 * it is what every new range index is created from, so the shards it records are the shards new
 * ranges get (a layout document in an index would need that index to exist, be allocated and be
 * searchable, and could disagree with the template that really shapes new indices). Processes
 * read the `ledgers` template's copy (`readLayout`); the copies in the other templates say the
 * same and serve anyone inspecting a template.
 */
export interface LayoutRecord {
  /** 1 when first recorded; one more each time `templates apply` records another shape. */
  generation: number;
  rangeLedgers: number;
  shards: number;
  stateShards: number;
  /** A fixed replica count, or `auto` (0 on one node, 1 on two or more). */
  replicas: number | 'auto';
}

/** The layout a process is configured with (`ES_RANGE_LEDGERS`, `ES_SHARDS`, `ES_STATE_SHARDS`, `ES_REPLICAS`). */
export type ConfiguredLayout = Omit<LayoutRecord, 'generation'>;

export function configuredLayout(config: Pick<Config, 'es'>): ConfiguredLayout {
  const { rangeLedgers, shards, stateShards, replicas } = config.es;
  return { rangeLedgers, shards, stateShards, replicas: replicas ?? 'auto' };
}

/**
 * What a process does with the layout:
 * - `serve` reads ranges (the API, the search API): only the range size must match, since it says
 *   where a ledger's documents are; shards and replicas only shape indices it never creates.
 * - `ingest` writes ranges and applies the templates on its way in: it must match entirely, or it
 *   would put templates that give new ranges another shape as a side effect of ingesting.
 * - `apply` is `templates apply`, the one deliberate way to change the shape of new indices (a new
 *   generation); it still never changes the range size of existing indices.
 */
export type LayoutRole = 'serve' | 'ingest' | 'apply';

export type LayoutVariable = 'ES_RANGE_LEDGERS' | 'ES_SHARDS' | 'ES_STATE_SHARDS' | 'ES_REPLICAS';

export interface LayoutDifference {
  variable: LayoutVariable;
  configured: number | 'auto';
  recorded: number | 'auto';
  /** Whether this difference stops the process (else it is only reported). */
  refuses: boolean;
}

const FIELDS: readonly [LayoutVariable, keyof ConfiguredLayout][] = [
  ['ES_RANGE_LEDGERS', 'rangeLedgers'],
  ['ES_SHARDS', 'shards'],
  ['ES_STATE_SHARDS', 'stateShards'],
  ['ES_REPLICAS', 'replicas'],
];

/** How a configuration differs from the recorded layout, and which differences refuse `role` (pure). */
export function compareLayout(
  recorded: LayoutRecord,
  configured: ConfiguredLayout,
  role: LayoutRole,
): LayoutDifference[] {
  return FIELDS.filter(([, key]) => recorded[key] !== configured[key]).map(([variable, key]) => ({
    variable,
    configured: configured[key],
    recorded: recorded[key],
    refuses: key === 'rangeLedgers' || role === 'ingest',
  }));
}

/** The layout `templates apply` records: the recorded one when the shape is the same, else the next generation. */
export function nextLayout(recorded: LayoutRecord | undefined, configured: ConfiguredLayout): LayoutRecord {
  if (recorded === undefined) return { generation: 1, ...configured };
  const same = compareLayout(recorded, configured, 'apply').length === 0;
  return same ? recorded : { generation: recorded.generation + 1, ...configured };
}

/** `xrpl-mainnet`: how messages name one prefix and network's indices. */
function networkLabel(naming: IndexNaming): string {
  return `${naming.prefix}-${naming.network}`;
}

/** What one difference says, naming the variable and both values. */
export function differenceMessage(difference: LayoutDifference, naming: IndexNaming, generation?: number): string {
  const { variable, configured, recorded } = difference;
  const label = networkLabel(naming);
  const show = '(pnpm ingest ranges shows the layout)';
  if (variable === 'ES_RANGE_LEDGERS')
    return (
      `ES_RANGE_LEDGERS is ${configured} but the cluster's ${label} indices were laid out with ${recorded} ` +
      `ledgers per range ${show}; the range size of existing indices never changes: set ES_RANGE_LEDGERS=${recorded}`
    );
  const what =
    variable === 'ES_SHARDS'
      ? `${recorded} primary shard(s) per range index`
      : variable === 'ES_STATE_SHARDS'
        ? `${recorded} primary shard(s) per state index`
        : `${recorded} replica(s)`;
  const at = generation === undefined ? '' : ` (layout generation ${generation})`;
  return (
    `${variable} is ${configured} but the cluster's ${label} indices are laid out with ${what}${at} ${show}: ` +
    `set ${variable}=${recorded}, or run \`pnpm templates apply\` with ${variable}=${configured} to give new indices that shape`
  );
}

/** The command that creates a network's indices and records their layout. */
export function applyCommandFor(naming: IndexNaming): string {
  const prefix = naming.prefix === 'xrpl' ? '' : `ES_INDEX_PREFIX=${naming.prefix} `;
  return `${prefix}XLE_NETWORK=${naming.network} pnpm templates apply`;
}

/** A layout that stops a process: a configuration that disagrees with the cluster, or none recorded. */
export class LayoutError extends CommandError {
  constructor(code: 'LAYOUT_MISMATCH' | 'LAYOUT_MISSING', message: string) {
    // 78: EX_CONFIG (sysexits), a configuration that does not fit what it runs against.
    super(code, message, { exitCode: 78 });
    this.name = 'LayoutError';
  }
}

/** What the cluster holds for one prefix and network. */
export type RecordedLayout =
  | { state: 'recorded'; layout: LayoutRecord }
  /** Index templates from before layouts were recorded. */
  | { state: 'unrecorded' }
  /** No index template: `templates apply` never ran for this network. */
  | { state: 'missing' };

function isLayoutRecord(value: unknown): value is LayoutRecord {
  const v = value as Partial<LayoutRecord> | undefined;
  const count = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    v !== undefined &&
    v !== null &&
    count(v.generation) &&
    count(v.rangeLedgers) &&
    count(v.shards) &&
    count(v.stateShards) &&
    (v.replicas === 'auto' || count(v.replicas))
  );
}

/** Reads the recorded layout: one request for one index template's `_meta`, answered from cluster state. */
export async function readLayout(client: Client, naming: IndexNaming): Promise<RecordedLayout> {
  const found = await client.indices.getIndexTemplate(
    // The name too: a template without any `_meta` would otherwise filter down to nothing, as if missing.
    {
      name: indexTemplateName(naming, 'ledgers'),
      filter_path: 'index_templates.name,index_templates.index_template._meta',
    },
    { ignore: [404] },
  );
  const templates = found.index_templates;
  if (templates === undefined || templates.length === 0) return { state: 'missing' };
  // Filtered, a template without `_meta` has no `index_template` either, whatever the types say.
  const template = templates[0]?.index_template as { _meta?: { layout?: unknown } } | undefined;
  const layout = template?._meta?.layout;
  return isLayoutRecord(layout) ? { state: 'recorded', layout } : { state: 'unrecorded' };
}

/**
 * The recorded layout a process may run with, or a LayoutError naming what to do: none recorded
 * (run `templates apply`), or a difference that refuses `role`. Differences that do not refuse
 * are answered for the caller to report.
 */
export function judgeLayout(
  recorded: RecordedLayout,
  naming: IndexNaming,
  configured: ConfiguredLayout,
  role: Exclude<LayoutRole, 'apply'>,
): { layout: LayoutRecord; warnings: string[] } {
  if (recorded.state === 'missing')
    throw new LayoutError(
      'LAYOUT_MISSING',
      `the cluster has no ${networkLabel(naming)} indices (no index layout recorded for XLE_NETWORK=${naming.network}): ` +
        `create them with \`${applyCommandFor(naming)}\``,
    );
  if (recorded.state === 'unrecorded')
    throw new LayoutError(
      'LAYOUT_MISSING',
      `the cluster's ${networkLabel(naming)} index templates record no index layout (applied before layouts were ` +
        `recorded): run \`${applyCommandFor(naming)}\` once to record it`,
    );
  const { layout } = recorded;
  const differences = compareLayout(layout, configured, role);
  const refusing = differences.filter((d) => d.refuses);
  if (refusing.length > 0)
    throw new LayoutError(
      'LAYOUT_MISMATCH',
      refusing.map((d) => differenceMessage(d, naming, layout.generation)).join('\n'),
    );
  return { layout, warnings: differences.map((d) => differenceMessage(d, naming, layout.generation)) };
}

/**
 * The layout applying the templates records (pure): none recorded yet (or templates from before
 * layouts were recorded) takes the configured one as generation 1; `apply` may give new indices
 * another shape (the next generation) but never another range size; `ingest` must match entirely.
 */
export function planLayout(
  recorded: RecordedLayout,
  naming: IndexNaming,
  configured: ConfiguredLayout,
  role: Exclude<LayoutRole, 'serve'>,
): LayoutRecord {
  if (recorded.state !== 'recorded') return nextLayout(undefined, configured);
  if (role === 'ingest') return judgeLayout(recorded, naming, configured, 'ingest').layout;
  const refusing = compareLayout(recorded.layout, configured, 'apply').filter((d) => d.refuses);
  if (refusing.length > 0)
    throw new LayoutError(
      'LAYOUT_MISMATCH',
      refusing.map((d) => differenceMessage(d, naming, recorded.layout.generation)).join('\n'),
    );
  return nextLayout(recorded.layout, configured);
}

/**
 * Range indices that cannot belong to `rangeLedgers` (pure): a range starts at a multiple of its
 * size, so an index starting elsewhere was laid out with another one. Checked when templates from
 * before layouts were recorded are given one, the only time a range size is adopted over existing
 * indices.
 */
export function misfitRanges(indices: readonly string[], rangeLedgers: number): string[] {
  return indices.filter((index) => {
    const start = rangeStartOf(index);
    return start !== undefined && start % rangeLedgers !== 0;
  });
}

/** Reads and judges the layout (`readLayout`, then `judgeLayout`). */
export async function checkLayout(
  client: Client,
  naming: IndexNaming,
  configured: ConfiguredLayout,
  role: Exclude<LayoutRole, 'apply'>,
): Promise<{ layout: LayoutRecord; warnings: string[] }> {
  return judgeLayout(await readLayout(client, naming), naming, configured, role);
}

/** The configured layout of a naming alone (its range size) and a shape: what `applyTemplates` is given. */
export function configuredOf(
  naming: IndexNaming,
  shape: { shards: number; stateShards: number; replicas?: number },
): ConfiguredLayout {
  return {
    rangeLedgers: naming.rangeLedgers ?? DEFAULT_RANGE_LEDGERS,
    shards: shape.shards,
    stateShards: shape.stateShards,
    replicas: shape.replicas ?? 'auto',
  };
}

/** What a failed layout read means for a starting server (pure). */
export function layoutReadOutcome(error: unknown): 'refuse' | 'unchecked' | 'retry' {
  if (error instanceof LayoutError) return 'refuse';
  // A credential allowed to read indices but not index templates (`manage_index_templates`): the
  // server runs unchecked rather than not at all, and says so.
  if (error instanceof errors.ResponseError && (error.meta.statusCode === 401 || error.meta.statusCode === 403))
    return 'unchecked';
  // Unreachable, timed out, no master yet, or any other answer of the moment: ask again.
  return 'retry';
}
