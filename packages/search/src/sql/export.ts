import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from '@xle/core';
import type { SearchEngine } from '../engine.js';
import { createWriter, formatFromAccept, MEDIA_TYPES, type Format } from '../formats/formats.js';
import { abortOnDisconnect, type SearchDeps } from '../search.js';
import { initialState, runPlan, type Batch } from './execute.js';
import type { Plan } from './plan.js';
import { showPlan, showStatement, tableNamed } from './show.js';
import { parseSql, translateSql } from './translate.js';

/** Engine page size of a streamed SQL export; `fetch_size` sets it for cursor pages. */
export const EXPORT_PAGE_SIZE = 1000;
export const MAX_FETCH_SIZE = 10_000;
/** Formats whose document holds the cursor; the others carry it in the Cursor header. */
const CURSOR_IN_BODY = new Set<Format>(['json', 'yaml', 'cbor', 'smile']);

export interface SqlRequest {
  query?: string;
  cursor?: string;
  format?: Format;
  fetch_size?: number;
}

/**
 * The plan of an SQL text: a schema statement (SHOW TABLES, DESCRIBE, SHOW FUNCTIONS) answered from
 * the mappings, or a SELECT translated against its table's mapping (the only one read).
 */
async function planOf(engine: SearchEngine, sql: string, now: number): Promise<Plan> {
  const show = showStatement(sql);
  if (show !== undefined) {
    const kind = show.show === 'columns' ? tableNamed(show.table, 'DESCRIBE').kind : undefined;
    const schema = kind === undefined ? new Map() : await engine.schema(kind);
    return showPlan(show, () => schema);
  }
  // Parsed once: the table it names, then its translation against that table's mapping.
  const parsed = parseSql(sql);
  const schema = await engine.schema(parsed.table);
  return translateSql(parsed, () => schema, now);
}

/** The answer's format: ?format, then the body's, then Accept, then JSON. */
function chooseFormat(ctx: Context, queryFormat: Format | undefined, bodyFormat: Format | undefined): Format {
  return queryFormat ?? bodyFormat ?? formatFromAccept(ctx.get('Accept') || undefined) ?? 'json';
}

/**
 * POST /sql: translates the SQL (or resumes a cursor) and answers in the chosen format. With
 * `fetch_size`, one page and a cursor when more follow; without it, the whole result streams with
 * flat memory. The first page is fetched before answering, so a failing query is still a clean
 * 4xx / 5xx rather than a broken stream.
 */
export async function runSql(
  { engine, cursors }: SearchDeps,
  logger: Logger,
  queryFormat: Format | undefined,
  body: SqlRequest,
  ctx: Context,
): Promise<void> {
  const format = chooseFormat(ctx, queryFormat, body.format);
  const cursor = body.cursor === undefined ? undefined : (await cursors.load(body.cursor)).state;
  const sql = cursor?.sql ?? (body.query as string);
  const now = cursor?.now ?? Date.now();
  const plan = await planOf(engine, sql, now);
  // Valid but likely not meant: said in Warning headers, as Elasticsearch says its own (299).
  if (plan.kind !== 'values' && plan.warnings !== undefined)
    ctx.set(
      'Warning',
      plan.warnings.map((w) => `299 xle "${w.replace(/["\\]/g, "'")}"`),
    );
  const fetchSize = cursor?.fetchSize ?? body.fetch_size;
  const controller = abortOnDisconnect(ctx);
  const state = cursor?.state ?? initialState();
  const run = runPlan(engine, plan, {
    pageSize: fetchSize ?? EXPORT_PAGE_SIZE,
    prefetch: fetchSize === undefined,
    state,
    signal: controller.signal,
  });
  const writer = createWriter(format, cursor !== undefined, cursor?.carry);
  let first: IteratorResult<Batch, void>;
  try {
    first = await run.next();
  } catch (error) {
    if (state.pit !== undefined) await engine.closePit(state.pit);
    throw error;
  }
  const firstRows = first.done === true ? [] : first.value.rows;
  ctx.type = MEDIA_TYPES[format];
  if (fetchSize !== undefined) {
    // One page; a cursor carries on when the engine has more. Body formats carry it inside the
    // document, the text formats in the Cursor header, as Elasticsearch SQL does.
    let next: string | undefined;
    let head: Buffer;
    let rows: Buffer;
    try {
      head = writer.start(plan.columns, firstRows);
      rows = writer.rows(firstRows);
      next = state.done ? undefined : await cursors.save({ sql, now, state, fetchSize, carry: writer.carry() });
    } catch (error) {
      // No cursor will name the point in time: release it now rather than after its keep-alive.
      if (state.pit !== undefined) await engine.closePit(state.pit);
      throw error;
    }
    // The last page releases the point in time (so that page cannot be asked again).
    if (next === undefined && state.pit !== undefined) await engine.closePit(state.pit);
    const inBody = CURSOR_IN_BODY.has(format);
    if (next !== undefined && !inBody) ctx.set('Cursor', next);
    ctx.body = Buffer.concat([head, rows, writer.end(inBody ? next : undefined)]);
    return;
  }
  ctx.body = Readable.from(streamAll(), { objectMode: false });

  async function* streamAll(): AsyncGenerator<Buffer> {
    let failed = false;
    try {
      yield Buffer.concat([writer.start(plan.columns, firstRows), writer.rows(firstRows)]);
      for await (const batch of run) yield writer.rows(batch.rows);
      yield writer.end();
    } catch (error) {
      failed = true;
      if (!controller.signal.aborted) logger.error({ err: error, sql }, 'SQL export failed mid-stream');
      throw error;
    } finally {
      if (!failed) controller.abort();
      await run.return(undefined);
      if (state.pit !== undefined) await engine.closePit(state.pit);
    }
  }
}

/** POST /sql/close: releases a cursor's point in time before it expires; the cursor is refused from then on. */
export async function closeSqlCursor({ engine, cursors }: SearchDeps, token: string): Promise<{ succeeded: true }> {
  const { id, state } = await cursors.load(token);
  if (state.state.pit !== undefined) await engine.closePit(state.state.pit);
  await cursors.remove(id);
  return { succeeded: true };
}
